"""The generated CI checks what players see on every push: its check job gets the base map.

A fresh `new --in` mod, its workflow's check job run step by step as GitHub's runner runs them
(bash -eo pipefail, GITHUB_PATH read between steps; the steps that only prime GitHub's caches and
the `uses:` steps are left out), its pin installed from this checkout and its base map from a map
index served on 127.0.0.1. The job passes with a unit's picture in the mod, and fails once that
picture is removed: on a push, not only when a tag is released.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.helpers import BASE_MAP, TINY_MAP, USER_PIP_CACHE, run_cli
from tests.map_server import serving_maps

ZEPPELIN = """\
units:
  zeppelin: {movement: 3, attack: 1, defense: 1, isAir: true, image: zeppelin.png}
territories:
  Germany: {units: {Germans: {zeppelin: 1}}}
"""
UNTIL = "Specs validate"  # the engine's games are played in test_mod_repository


def _git(folder: Path, *args: str) -> None:
    subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True)


def _run_check_job(
    mod: Path, tmp_path: Path, index: str, until: str | None = UNTIL
) -> tuple[list[str], subprocess.CompletedProcess[str]]:
    """The check job's run: steps in order until `until` (None: all) or a failure; the steps run
    and the last result."""
    workflow = yaml.safe_load((mod / ".github" / "workflows" / "triplea-forge.yml").read_text(encoding="utf-8"))
    runner = tmp_path / "runner"
    runner.mkdir(exist_ok=True)
    github_path = runner / "github_path"
    github_path.write_text("")
    env = {
        **os.environ, "GITHUB_PATH": str(github_path), "GITHUB_WORKSPACE": str(mod), "RUNNER_TEMP": str(runner),
        "DEBIAN_FRONTEND": "noninteractive", "TRIPLEA_MAP_INDEX": index, "TRIPLEA_MAPS": str(runner / "maps"),
        "XDG_CACHE_HOME": str(runner / "cache"), "PIP_CACHE_DIR": USER_PIP_CACHE,
    }  # fmt: skip
    ran: list[str] = []
    proc = subprocess.CompletedProcess[str]([], 0, "", "")
    for step in workflow["jobs"]["check"]["steps"]:
        if "run" not in step or step.get("id", "").startswith("cache-") or "if" in step:
            continue
        path = [line for line in github_path.read_text().splitlines() if line]
        step_env = {k: re.sub(r"\$\{\{.*?\}\}", "main", str(v)) for k, v in step.get("env", {}).items()}
        proc = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=mod, capture_output=True, text=True, timeout=900,
            env={**env, **step_env, "PATH": os.pathsep.join([*reversed(path), os.environ["PATH"]])},
        )  # fmt: skip
        ran.append(step.get("name", step["run"]))
        if proc.returncode != 0 or ran[-1] == until:
            break
    return ran, proc


@pytest.mark.slow
def test_the_check_job_gets_the_base_map_and_fails_on_a_missing_picture(tmp_path: Path) -> None:
    made = run_cli("new", "mymod", "--in", "mod", cwd=tmp_path)
    assert made.code == 0, made.err
    mod = tmp_path / "mod"
    game = mod / "rules" / "mymod" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8") + ZEPPELIN, encoding="utf-8")
    shutil.copy(TINY_MAP / "map" / "units" / "Reds" / "infantry.png", mod / "rules" / "mymod" / "zeppelin.png")
    built = run_cli("build", cwd=mod, env={"TRIPLEA_MAPS": str(tmp_path / "none")})
    assert built.code == 0, built.err
    _git(mod, "add", "-A")
    _git(mod, "commit", "-q", "-m", "a zeppelin")
    with serving_maps({"World War II Revised": BASE_MAP}) as index:
        ran, proc = _run_check_job(mod, tmp_path, index)
        assert proc.returncode == 0, f"{ran[-1]}:\n{proc.stdout}\n{proc.stderr}"
        assert ran[-3:] == ["Base map, so territories and unit pictures are checked on every push",
                            "Committed output is current", UNTIL]  # fmt: skip
        maps = tmp_path / "runner" / "maps"
        board = (
            f"board: map 'world_war_ii_revised' at {maps}/world_war_ii_revised, for mymod (its map 'mymod' is not "
            "installed)"
        )
        assert proc.stdout.splitlines() == [board, "1 checked: no errors"]
        # The picture removed and pushed: the check job fails, at the unit's line.
        _git(mod, "rm", "-q", "rules/mymod/zeppelin.png")
        game.write_text(game.read_text(encoding="utf-8").replace(", image: zeppelin.png", ""), encoding="utf-8")
        _git(mod, "commit", "-q", "-am", "no zeppelin picture")
        ran, proc = _run_check_job(mod, tmp_path, index)
    # The first step that reads the specs against the board stops the job; without the base map
    # this would be a warning only (test_base_map_rule), and the push would pass.
    assert ran[-1] == "Committed output is current" and proc.returncode == 1, proc.stdout + proc.stderr
    assert proc.stderr.splitlines() == [
        "rules/mymod/game.yaml:7:3: units.zeppelin: no picture of zeppelin for Germans: units/<player>/zeppelin.png "
        "is in neither the map 'world_war_ii_revised' nor the engine's stock art; add `image: {from: fighter, "
        "mark: Z}` to units.zeppelin (derived from each player's fighter) or `image: zeppelin.png` (drawn)",
        "1 error found.",
    ]


@pytest.mark.engine
def test_the_first_push_of_a_new_mod_passes_its_ci(tmp_path: Path) -> None:
    """The quick start (README, docs/getting-started.md) followed from `new --in` to the push,
    without a step of one's own: the commands that need no display leave nothing to commit
    (`new` committed the built output/), and every step of the check job passes on a fresh clone
    of what `new` committed, the games played in the engine included."""
    assert run_cli("new", "mymod", "--in", "mymod", cwd=tmp_path).code == 0
    mod = tmp_path / "mymod"
    with serving_maps({"World War II Revised": BASE_MAP}) as index:
        env = {"TRIPLEA_MAP_INDEX": index, "TRIPLEA_MAPS": str(tmp_path / "maps")}
        for step in (("map", "get", "world_war_ii_revised"), ("build",), ("validate",), ("package",)):
            done = run_cli(*step, cwd=mod, env=env)
            assert done.code == 0, f"{' '.join(step)}: {done.out}{done.err}"
        status = subprocess.run(["git", "-C", str(mod), "status", "--porcelain"], capture_output=True, text=True)
        assert status.stdout == ""  # dist/ is ignored; output/ is as `new` committed it
        clone = tmp_path / "pushed"  # what GitHub's runner checks out
        subprocess.run(["git", "clone", "-q", str(mod), str(clone)], check=True)
        ran, proc = _run_check_job(clone, tmp_path, index, until=None)
    assert proc.returncode == 0, f"{ran[-1]}:\n{proc.stdout}\n{proc.stderr}"
    assert ran[-4:] == ["Base map, so territories and unit pictures are checked on every push",
                        "Committed output is current", UNTIL, "Games play in the real engine"]  # fmt: skip


def test_build_check_says_an_output_never_committed_is_not_committed(tmp_path: Path) -> None:
    """A clone of a mod whose output/ was never committed (as its CI checks it out): not "stale"."""
    assert run_cli("new", "mymod", "--in", "mymod", cwd=tmp_path).code == 0
    mod = tmp_path / "mymod"
    _git(mod, "rm", "-r", "-q", "output")
    _git(mod, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "no output")
    whole = run_cli("build", "--check", cwd=mod)
    assert whole.code == 1
    assert whole.err.splitlines()[-1] == (
        "not committed: output/ (run `triplea-forge build`, then commit output/ with the specs)"
    )
    # A second variant never built: its files alone are said, each with the command that makes it.
    assert run_cli("build", cwd=mod).code == 0
    _git(mod, "add", "output")
    _git(mod, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "output")
    assert run_cli("new", "second", cwd=mod).code == 0
    (mod / "output" / "games" / "mymod.xml").unlink()
    one = run_cli("build", "--check", cwd=mod)
    assert one.code == 1
    assert [line for line in one.err.splitlines() if not line.startswith("rules/")] == [
        "missing: output/games/mymod.xml (run `triplea-forge build mymod`: deleted since the last commit)",
        "not committed: output/games/second.notes.html (run `triplea-forge build second`, then commit it)",
        "not committed: output/games/second.xml (run `triplea-forge build second`, then commit it)",
        "stale: output/map.yml (run `triplea-forge build`)",
    ]
