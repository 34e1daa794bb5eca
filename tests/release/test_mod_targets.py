"""One rule for finding a variant in every command: a mod repository's own, then the shipped ones.

Inside a mod repository made by `new --in`, `check lhtr` and `balance lhtr mymod` play the lhtr
triplea-forge ships as `diff`, `preview` and `validate` read it, built into a temporary folder
that is gone afterwards: the mod's output/ keeps only its own files. `build` and `watch`, which
write output/, say why they take the mod's own variants only; a name that is neither is said
the same way by every command.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import run_cli

SHIPPED = "aare, aare-2x, aarhe, aarhe-2x, aarhe-draft, aarhe-phase1, expansion, lhtr, revised"


@pytest.fixture(scope="module")
def mod(tmp_path_factory: pytest.TempPathFactory) -> Path:
    top = tmp_path_factory.mktemp("targets")
    made = run_cli("new", "mymod", "--in", "mod", cwd=top)
    assert made.code == 0, made.err
    return top / "mod"


def _own_output(mod: Path) -> list[str]:
    games = mod / "output" / "games"
    return sorted(p.name for p in games.iterdir()) if games.is_dir() else []


@pytest.mark.parametrize("command", ["check", "balance"])
def test_a_name_that_is_no_variant_is_said_alike(mod: Path, command: str) -> None:
    close = run_cli(command, "lhtrr", *(["mymod"] if command == "balance" else []), cwd=mod)
    assert close.code == 2
    assert close.err.splitlines()[-1] == (
        "Error: no variant 'lhtrr' in rules/ or among the variants triplea-forge ships (did you mean 'lhtr'?)"
    )
    far = run_cli(command, "zzz", cwd=mod)
    assert far.code == 2
    assert far.err.splitlines()[-1] == (
        "Error: no variant 'zzz' in rules/ or among the variants triplea-forge ships "
        f"(rules/: mymod; shipped: {SHIPPED})"
    )


@pytest.mark.parametrize("command", ["build", "watch"])
def test_what_writes_the_mods_output_says_it_takes_its_own_variants(mod: Path, command: str) -> None:
    result = run_cli(command, "lhtr", cwd=mod)
    assert result.code == 2
    assert result.err.splitlines()[-1] == (
        f"Error: lhtr is a variant triplea-forge ships, not in rules/: {command} writes output/ for this folder's own "
        "variants (mymod); check, balance, play, preview, diff and validate take lhtr as it is"
    )
    assert _own_output(mod) == ["mymod.notes.html", "mymod.xml"]  # as `new` built them: no lhtr


@pytest.mark.engine
def test_check_plays_a_shipped_variant_in_a_mod_repository(mod: Path, tmp_path: Path) -> None:
    result = run_cli("check", "lhtr", "mymod", "--rounds", "1", cwd=mod, env={"TMPDIR": str(tmp_path)})
    assert result.code == 0, result.out + result.err
    assert "lhtr: shipped with triplea-forge, built into a temporary folder" in result.err.splitlines()
    rows = [line.split("│")[1].strip() for line in result.out.splitlines() if line.startswith("│")]
    assert rows == ["lhtr", "mymod"]
    assert result.out.splitlines()[-1] == "2 checked, all passed"
    assert _own_output(mod) == ["mymod.notes.html", "mymod.xml"]  # lhtr never lands in the mod's output/
    assert list(tmp_path.iterdir()) == []  # and its temporary folder is gone


@pytest.mark.engine
def test_balance_compares_a_mod_with_the_shipped_variant_it_extends(mod: Path, tmp_path: Path) -> None:
    """`balance lhtr mymod --games 4` as the issue ran it (one round a game here, not six: the
    lookup is what is tested, and six rounds take minutes more)."""
    out = tmp_path / "study"
    env = {"TMPDIR": str(tmp_path)}
    result = run_cli("balance", "lhtr", "mymod", "--games", "4", "--rounds", "1", "--out", str(out), cwd=mod, env=env)
    assert result.code == 0, result.out + result.err
    played = [json.loads(line) for line in (out / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    pairs = [(variant, seed) for variant in ("lhtr", "mymod") for seed in (1, 2, 3, 4)]
    assert sorted((r["variant"], r["seed"]) for r in played) == pairs
    assert all(r["roundsCompleted"] == 1 and not r["errors"] for r in played), played
    assert _own_output(mod) == ["mymod.notes.html", "mymod.xml"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["study"]
