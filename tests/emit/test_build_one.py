"""`build VARIANT` checks VARIANT and what it extends, no other variant; map.yml still lists every
variant of the folder, each other one read for its `game` alone (emit.build.game_of)."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from tests.helpers import TINY, run_cli, write_tree

# A sibling of `tiny` with a mistake outside its `game`: a build of every variant says it.
SLIPPED = """
extends: tiny
game: {name: Other War, version: "1.0", map: tiny_map}
unitz: {}
"""
# A sibling whose `game` cannot be read: no game to list in map.yml.
NO_GAME = """
extends: tiny
game: {name: Other War, version: "1.0", map: [not, a, name]}
"""


def _project(tmp_path: Path, other: str) -> Path:
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    return write_tree(tmp_path, {"rules/other/game.yaml": other})


def test_a_variant_built_alone_lists_its_siblings_without_checking_them(tmp_path: Path) -> None:
    project = _project(tmp_path, SLIPPED)
    alone = run_cli("build", "tiny", cwd=project)
    assert alone.code == 0, alone.err
    assert "unitz" not in alone.err  # the sibling's mistake is for its own build to say
    listed = yaml.safe_load((project / "output" / "map.yml").read_text(encoding="utf-8"))
    assert listed["games"] == [
        {"game_name": "Other War", "file_name": "other.xml"},
        {"game_name": "Tiny War", "file_name": "tiny.xml"},
    ]
    every = run_cli("build", cwd=project)
    assert every.code == 1 and "rules/other/game.yaml:3:1: unitz: unknown key 'unitz'" in every.err, every.err


def test_a_sibling_without_a_game_leaves_map_yml_unwritten(tmp_path: Path) -> None:
    project = _project(tmp_path, NO_GAME)
    alone = run_cli("build", "tiny", cwd=project)
    assert alone.code == 0, alone.err
    assert "map.yml not updated: variant 'other' has errors (run `triplea-forge build other`)" in alone.err
    assert (project / "output" / "games" / "tiny.xml").is_file()
    assert not (project / "output" / "map.yml").exists()
