"""`new NAME` inside a mod repository: the commands it prints work as printed, and the new variant
is on the repository's map, so `package` makes one map of all its variants.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from generator.release.repo import scaffold
from tests.helpers import BASE_MAP, run_cli, write_tree

SCRIPT = Path(sys.executable).parent / "triplea-forge"  # this venv's, as a mod maker runs it


def _without_venv_on_path() -> dict[str, str]:
    """The environment of a shell where this venv is not activated."""
    path = [p for p in os.environ["PATH"].split(os.pathsep) if Path(p) != SCRIPT.parent]
    return {**os.environ, "PATH": os.pathsep.join(path)}


def test_new_in_a_mod_repository_prints_what_works_and_is_on_its_map(tmp_path: Path) -> None:
    assert run_cli("new", "mymod", "--in", "mod", cwd=tmp_path).code == 0
    mod = tmp_path / "mod"
    env = _without_venv_on_path()
    made = subprocess.run([str(SCRIPT), "new", "myvariant"], cwd=mod, env=env, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    assert made.stdout.splitlines() == ["wrote rules/myvariant/game.yaml", f"next: {SCRIPT} build myvariant"]
    spec = (mod / "rules" / "myvariant" / "game.yaml").read_text(encoding="utf-8")
    assert spec.splitlines()[-2:] == ["extends: lhtr", 'game: {name: myvariant, version: "0.1", map: mymod}']
    # The line after "next:" runs as printed, in a shell that has not activated the venv.
    command = made.stdout.splitlines()[-1].removeprefix("next: ")
    built = subprocess.run(["bash", "-c", command], cwd=mod, env=env, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr
    assert (mod / "output" / "games" / "myvariant.xml").is_file()
    # Two variants on one map: a plain `package` makes that map's package with both games.
    packaged = run_cli("package", "--base-map", str(BASE_MAP), cwd=mod)
    assert packaged.code == 0, packaged.err
    assert packaged.out.splitlines()[-1] == "wrote dist/mymod-master.zip"
    names = zipfile.ZipFile(mod / "dist" / "mymod-master.zip").namelist()
    assert {n.rsplit("/", 1)[-1] for n in names if "/games/" in n and n.endswith(".xml")} == {
        "mymod.xml", "myvariant.xml"
    }  # fmt: skip


def test_a_folder_of_several_maps_keeps_the_bases_and_says_so(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "rules/one/game.yaml": 'extends: lhtr\ngame: {name: One, version: "1", map: one}\n',
        "rules/two/game.yaml": 'extends: lhtr\ngame: {name: Two, version: "1", map: two}\n',
    })  # fmt: skip
    result = run_cli("new", "three", cwd=tmp_path)
    assert result.code == 0, result.err
    assert result.err.splitlines() == [
        "note: the variants here are on several maps (one on map 'one'; two on map 'two'): the new one is on "
        "lhtr's; set its game.map"
    ]
    assert (
        (tmp_path / "rules" / "three" / "game.yaml")
        .read_text(encoding="utf-8")
        .endswith('game: {name: three, version: "0.1"}\n')
    )


def test_new_with_another_rules_folder_prints_it(tmp_path: Path) -> None:
    result = run_cli("new", "mine", "--rules", "specs", cwd=tmp_path)
    assert result.code == 0, result.err
    assert result.out.splitlines()[-1].endswith(" build mine --rules specs")


@pytest.mark.parametrize(
    ("script", "on_path", "shown"),
    [
        (True, False, ".venv/bin/triplea-forge"),  # the venv not activated: its script by path
        (True, True, "triplea-forge"),  # activated, or installed where the shell looks
        (False, False, "{python} -m generator"),  # no script: this interpreter runs the package
    ],
)
def test_the_program_printed_is_the_one_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, script: bool, on_path: bool, shown: str
) -> None:
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    python = bin_dir / "python3"
    if script:
        (bin_dir / "triplea-forge").write_text("#!/bin/sh\n")
        (bin_dir / "triplea-forge").chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(python))
    monkeypatch.setenv("PATH", str(bin_dir) if on_path else str(tmp_path / "nowhere"))
    monkeypatch.chdir(tmp_path)
    assert scaffold.program() == shown.format(python=python)
