"""The in-process runner (`run_cli`) answers as the real `python -m generator` process does.

Most tests run the command in the test's own process (fast: no interpreter start, the stages'
caches kept); these run the same commands both ways and compare exit code, stdout and stderr
exactly, for each kind of ending: success, problems in the input (1), a usage error (2), text
outside ASCII, a file written, and the environment and working folder as the process sees them.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.helpers import FIXTURE_MAPS, TINY, run_cli, run_process, write_tree

CALLS = {
    "success": ("validate", "tiny"),
    "problems": ("validate", "broken"),
    "usage": ("build", "--bogus"),
    "unknown_variant": ("build", "nowhere"),
    "non_ascii_text": ("diff", "tiny", "broken"),
    "writes_a_file": ("schema", "-o", "schema.json"),
    "help": ("validate", "--help"),
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    write_tree(tmp_path / "rules", {"broken/game.yaml": "extends: tiny\nunits:\n  infantry: {attack: x}\n"})
    return tmp_path


@pytest.mark.parametrize("call", sorted(CALLS))
def test_in_process_and_real_process_agree(project: Path, call: str) -> None:
    args = CALLS[call]
    real = run_process(*args, cwd=project)
    written = sorted(p.relative_to(project) for p in project.rglob("*"))
    if (project / "schema.json").exists():
        schema = (project / "schema.json").read_bytes()
        (project / "schema.json").unlink()
    here = run_cli(*args, cwd=project)
    assert (here.code, here.out, here.err) == (real.code, real.out, real.err)
    assert sorted(p.relative_to(project) for p in project.rglob("*")) == written
    if call == "writes_a_file":
        assert (project / "schema.json").read_bytes() == schema
    assert real.code == {"success": 0, "help": 0, "writes_a_file": 0, "usage": 2}.get(call, 1), real.err


def test_the_command_sees_the_given_environment_and_folder_and_leaves_both(project: Path, tmp_path: Path) -> None:
    """A variable given to the call is seen by it and gone after; the working folder is the one given."""
    before = (os.getcwd(), dict(os.environ))
    home = tmp_path / "home"
    home.mkdir()
    # No map installed (a HOME of its own): the board cannot be checked, and the command says so.
    alone = run_cli("validate", "tiny", cwd=project, env={"HOME": str(home)})
    real = run_process("validate", "tiny", cwd=project, env={"HOME": str(home)})
    assert (alone.code, alone.out, alone.err) == (real.code, real.out, real.err)
    assert "TRIPLEA_MAPS" not in os.environ and (os.getcwd(), dict(os.environ)) == before
    with_map = run_cli("validate", "tiny", cwd=project, env={"TRIPLEA_MAPS": str(FIXTURE_MAPS)})
    assert with_map.err != alone.err  # the installed map is found: the board is checked
    assert (os.getcwd(), dict(os.environ)) == before
