"""One base-map rule for every command, through the real CLI.

A mod names a map of its own (`map: mymod`), which is installed only once it is released; until
then its board is the map its base variant names (here the official `world_war_ii_revised`).
build, validate, watch, preview, diff --picture and package find it alike, say which map they
used, and their messages name that map.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.helpers import BASE_MAP, Result, run_cli, write_tree

MOD = 'extends: lhtr\ngame: {name: My Mod, version: "0.1", map: mymod}\n'
MISSPELLED = MOD + "territories:\n  Germny: {production: 3}\n"
NO_PICTURE = (
    MOD
    + """\
units:
  zeppelin: {movement: 3, attack: 1, defense: 1, isAir: true}
territories:
  Germany: {units: {Germans: {zeppelin: 1}}}
"""
)


@pytest.fixture
def mod(tmp_path: Path) -> Path:
    """A mod repository's folder: rules/mymod extending the shipped lhtr, the official map installed."""
    project = tmp_path / "mod"
    write_tree(project, {"rules/mymod/game.yaml": MOD})
    maps = tmp_path / "downloadedMaps"
    maps.mkdir()
    (maps / "world_war_ii_revised").symlink_to(BASE_MAP)
    return project


def _cli(mod: Path, *args: str) -> Result:
    env = {"TRIPLEA_MAPS": str(mod.parent / "downloadedMaps"), "XDG_CACHE_HOME": str(mod.parent / "cache")}
    return run_cli(*args, cwd=mod, env=env)


def _board(mod: Path, *variants: str) -> str:
    used = ", ".join(f"{v} (its map 'mymod' is not installed)" for v in variants)
    return f"board: map 'world_war_ii_revised' at {mod.parent}/downloadedMaps/world_war_ii_revised, for {used}"


def test_a_misspelled_territory_names_the_map_checked(mod: Path) -> None:
    write_tree(mod, {"rules/mymod/game.yaml": MISSPELLED})
    for command in ("validate", "build"):
        result = _cli(mod, command)
        assert result.code == 1, result.err
        assert result.err.splitlines() == [
            "rules/mymod/game.yaml:4:3: territories.Germny: no territory 'Germny' on the map 'world_war_ii_revised' "
            "(did you mean 'Germany'?); TripleA would not start the game (No data of type centers for territory: "
            "Germny)",
            "1 error found.",
        ]


def test_a_unit_without_a_picture_fails_validate(mod: Path) -> None:
    write_tree(mod, {"rules/mymod/game.yaml": NO_PICTURE})
    result = _cli(mod, "validate")
    assert result.code == 1
    first = result.err.splitlines()[0]
    assert first.startswith(
        "rules/mymod/game.yaml:4:3: units.zeppelin: no picture of zeppelin for Germans: units/<player>/zeppelin.png "
        "is in neither the map 'world_war_ii_revised' nor the engine's stock art"
    ), result.err


def test_every_command_says_the_board_it_used(mod: Path, tmp_path: Path) -> None:
    validated = _cli(mod, "validate")
    assert validated.code == 0, validated.err
    assert validated.out.splitlines() == [_board(mod, "mymod"), "1 checked: no errors"]
    built = _cli(mod, "build")
    assert built.code == 0, built.err
    assert built.out.splitlines()[0] == _board(mod, "mymod")
    again = _cli(mod, "build")  # answered from the build cache: the same board said
    assert again.out.splitlines() == [_board(mod, "mymod"), "0 files written, 3 unchanged"]
    preview = _cli(mod, "preview", "mymod", "-o", "start.png")
    assert preview.code == 0, preview.err
    assert preview.out.splitlines() == [_board(mod, "mymod"), "wrote start.png"]
    write_tree(mod, {"rules/mymod2/game.yaml": MOD.replace("My Mod", "My Mod 2")})
    picture = _cli(mod, "diff", "mymod", "mymod2", "--picture", "diff.png")
    assert picture.code == 0, picture.err
    assert picture.err.splitlines() == [_board(mod, "mymod2"), "wrote diff.png"]
    packaged = _cli(mod, "package", "--out", "dist")
    assert packaged.code == 0, packaged.err
    assert packaged.out.splitlines()[0] == _board(mod, "mymod", "mymod2")
    assert (mod / "dist" / "mymod-master.zip").is_file()


def test_watch_checks_the_same_board(mod: Path) -> None:
    write_tree(mod, {"rules/mymod/game.yaml": MISSPELLED})
    env = {"TRIPLEA_MAPS": str(mod.parent / "downloadedMaps"), "XDG_CACHE_HOME": str(mod.parent / "cache")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator", "watch", "--stop-after", "1"],
        cwd=mod, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env={**os.environ, **env},
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        seen = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            seen.append(line.rstrip("\n"))
            if not line or line.startswith("board: "):
                break
        # Written whole and renamed into place, as an editor saves: a watch that polls between a
        # truncate and a write would otherwise see an empty spec (and, told to stop after one
        # change, stop there) on a loaded machine.
        edited = mod / "rules" / "mymod" / ".game.yaml.new"
        edited.write_text(MOD, encoding="utf-8")
        edited.replace(mod / "rules" / "mymod" / "game.yaml")
        rest, _ = proc.communicate(timeout=120)
    finally:
        proc.kill()
    text = "\n".join([*seen, rest])
    assert "no territory 'Germny' on the map 'world_war_ii_revised'" in text, text
    assert "  mymod: built in" in text and _board(mod, "mymod") in text, text


def test_without_any_map_both_names_are_said_with_how_to_get_it(mod: Path) -> None:
    (mod.parent / "downloadedMaps" / "world_war_ii_revised").unlink()
    maps = mod.parent / "downloadedMaps"
    result = _cli(mod, "validate")
    assert result.code == 0
    assert result.err.splitlines() == [
        f"rules/mymod/game.yaml:2:43: warning: game.map: neither map 'mymod' nor its base map 'world_war_ii_revised' "
        f"is in {maps}: territories and unit pictures were not checked against the board (give --base-map, or get "
        "it: triplea-forge map get world_war_ii_revised)"
    ]
    packaged = _cli(mod, "package")
    assert packaged.code == 2
    assert packaged.err.splitlines()[-1] == (
        f"Error: no base map: neither map 'mymod' nor its base map 'world_war_ii_revised' is in {maps}; give "
        "--base-map, or get it: triplea-forge map get world_war_ii_revised"
    )
    write_tree(mod, {"rules/mymod2/game.yaml": MOD.replace("My Mod", "My Mod 2")})
    picture = _cli(mod, "diff", "mymod", "mymod2", "--picture", "diff.png")
    assert picture.code == 1  # the picture cannot be drawn; the text diff is still there
    assert picture.out.splitlines()[0] == "mymod → mymod2: 1 change (1 setting)"
    assert picture.err.startswith("Error: --picture: neither map 'mymod' nor its base map 'world_war_ii_revised'")
    preview = _cli(mod, "preview", "mymod", "-o", "start.png")
    assert preview.code == 1
    assert preview.err == (
        f"Error: neither map 'mymod' nor its base map 'world_war_ii_revised' is in {maps}: give --base-map, or get "
        "it: triplea-forge map get world_war_ii_revised\n"
    )


def test_the_map_a_mod_names_is_used_once_installed(mod: Path) -> None:
    """Its own released package installed: that is the board, by its own name."""
    maps = mod.parent / "downloadedMaps"
    (maps / "mymod").symlink_to(BASE_MAP)
    result = _cli(mod, "validate")
    assert result.code == 0, result.err
    assert result.out.splitlines()[0] == f"board: map 'mymod' at {maps}/mymod, for mymod"
