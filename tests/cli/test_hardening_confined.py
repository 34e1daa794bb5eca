"""Fourth adversarial round (issue 43), class 1: no path from a file the tool reads leaves its folder.

A journal in output/, a map index's mapName, a name given to `map get`, a build-cache record: what
they name is checked to be a plain path inside the folder it belongs to before anything is
removed, moved or written. Every case ends with every file outside that folder as it was.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from generator.emit import write
from generator.installed_map import normalized_map_name
from generator.release.maps.download import map_name_problem
from tests.helpers import TINY, TINY_MAP, examples, run_cli
from tests.map_server import index_of, map_zip, serving


def _tree(folder: Path) -> dict[str, bytes | None]:
    """Every path under `folder`, with a file's bytes (None for a folder or a link)."""
    found: dict[str, bytes | None] = {}
    for path in sorted(folder.rglob("*")):
        rel = path.relative_to(folder).as_posix()
        found[rel] = path.read_bytes() if path.is_file() and not path.is_symlink() else None
    return found


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    (tmp_path / "notes.txt").write_text("my notes\n", encoding="utf-8")
    (tmp_path / "victim.txt").write_text("my victim\n", encoding="utf-8")
    return tmp_path


def _build(project: Path) -> int:
    return run_cli("build", cwd=project, env={"XDG_CACHE_HOME": str(project / ".cache")}).code


# ------------------------------------------------------------------------------------ journals


@pytest.mark.parametrize(
    ("stage", "moves", "remove"),
    [
        (".forge-stage-x", [["../../victim.txt", "games/v.xml"]], ["../notes.txt"]),  # the reproduction
        (".forge-stage-x", [], ["/" + "{root}/notes.txt"]),  # an absolute path
        (".forge-stage-x", [["new/../../../victim.txt", "../victim.txt"]], []),
        (".forge-stage-x", [["new/games/a.xml", "games/../../notes.txt"]], []),
        ("../", [["new/notes.txt", "games/notes.txt"]], []),  # a stage outside the output folder
        (".forge-stage-x/../..", [["new/notes.txt", "games/notes.txt"]], []),
        (".forge-stage-x", [["new/out/notes.txt", "out/notes.txt"]], ["out/victim.txt"]),  # through a link
        (".forge-stage-x", "not a list", ["../notes.txt"]),
    ],
)
def test_a_planted_journal_never_touches_a_file_outside_the_output_folder(
    project: Path, stage: str, moves: object, remove: list[str]
) -> None:
    assert _build(project) == 0
    out = project / "output"
    (out / ".forge-stage-x" / "new" / "games").mkdir(parents=True)
    (out / ".forge-stage-x" / "new" / "games" / "a.xml").write_text("planted\n", encoding="utf-8")
    (out / ".forge-stage-x" / "new" / "out").mkdir()
    (out / ".forge-stage-x" / "new" / "out" / "notes.txt").write_text("planted\n", encoding="utf-8")
    (out / "out").symlink_to(project)  # a folder inside output/ that leads out of it
    journal = {"stage": stage, "moves": moves, "remove": [r.format(root=project) for r in remove]}
    (out / write.JOURNAL).write_text(json.dumps(journal), encoding="utf-8")
    before = {rel: data for rel, data in _tree(project).items() if not rel.startswith(("output", ".cache"))}
    assert _build(project) == 0
    after = {rel: data for rel, data in _tree(project).items() if not rel.startswith(("output", ".cache"))}
    assert after == before
    assert not (out / write.JOURNAL).exists()
    assert not [p for p in out.iterdir() if p.name.startswith(write.STAGE_PREFIX)]


_NAMES = st.one_of(
    st.sampled_from(["../notes.txt", "/tmp/x", "..", ".", "", "games/../../x", "a\\..\\b", ".forge-x", "out/victim"]),
    st.sampled_from(["games/tiny.xml", "games/a.xml", "map.yml", "new/games/a.xml"]),
    st.text(st.sampled_from("ab./\\"), max_size=12),
)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    stage=st.sampled_from([".forge-stage-x", "..", "../outside", ".forge-stage-x/..", "/tmp", ".forge-link", 3]),
    moves=st.lists(st.one_of(st.tuples(_NAMES, _NAMES), _NAMES.map(lambda rel: ("new/" + rel, rel))), max_size=4),
    remove=st.lists(st.one_of(_NAMES, st.integers()), max_size=4),
)
def test_no_journal_moves_or_removes_anything_outside_its_folder(
    stage: object, moves: list[object], remove: list[object]
) -> None:
    with tempfile.TemporaryDirectory() as temporary:
        root = Path(temporary)
        outside = root / "outside"
        (outside / "games").mkdir(parents=True)
        for name in ("notes.txt", "victim.txt", "games/a.xml", "games/tiny.xml"):
            (outside / name).write_text(f"mine: {name}\n", encoding="utf-8")
        out = root / "output"
        (out / "games").mkdir(parents=True)
        (out / "games" / "tiny.xml").write_text("built\n", encoding="utf-8")
        (out / ".forge-stage-x" / "new" / "games").mkdir(parents=True)
        (out / ".forge-stage-x" / "new" / "games" / "a.xml").write_text("staged\n", encoding="utf-8")
        (out / ".forge-stage-x" / "new" / "out").mkdir()
        (out / ".forge-stage-x" / "new" / "out" / "victim").write_text("staged\n", encoding="utf-8")
        (out / ".forge-link").symlink_to(outside)
        (out / "out").symlink_to(outside)
        record = {"stage": stage, "moves": [list(m) if isinstance(m, tuple) else m for m in moves], "remove": remove}
        (out / write.JOURNAL).write_text(json.dumps(record), encoding="utf-8")
        before = _tree(outside)
        write.settle(out)
        assert _tree(outside) == before
        assert (root / "outside").is_dir() and sorted(p.name for p in root.iterdir()) == ["output", "outside"]


# ---------------------------------------------------------------------------------- map names


def _maps_env(tmp_path: Path) -> dict[str, str]:
    return {"TRIPLEA_MAPS": str(tmp_path / "maps"), "HOME": str(tmp_path)}


@pytest.fixture
def hostile_index() -> Iterator[str]:
    names = ["../escaped", "/tmp/forge-absolute-43", "..", ".hidden", "a/b", "x" * 300, "tab\there", "Tiny Map"]
    files: dict[str, bytes] = {"tiny.zip": map_zip(TINY_MAP)}
    with serving(files) as base:
        files["index.yaml"] = index_of([{"mapName": name, "url": f"{base}/tiny.zip"} for name in names])
        yield f"{base}/index.yaml"


def test_map_names_from_an_index_never_leave_the_maps_folder(tmp_path: Path, hostile_index: str) -> None:
    listed = run_cli("map", "list", "--index", hostile_index, cwd=tmp_path, env=_maps_env(tmp_path))
    assert listed.code == 0, listed.err
    assert listed.out.splitlines()[-1] == "1 maps; `triplea-forge map get NAME` installs one into maps"
    assert listed.out.splitlines()[0].split() == ["tiny_map", "Tiny", "Map"]
    warnings = listed.err.splitlines()
    assert len(warnings) == 7 and all(w.startswith(f"warning: {hostile_index}: map ") for w in warnings)
    assert warnings[0] == (
        f"warning: {hostile_index}: map 1: mapName '../escaped' cannot be a folder's name (no '/', '\\' or control "
        "characters, no '.' first); skipped"
    )
    assert warnings[5].endswith("... is not 1 to 100 characters long (255 bytes in UTF-8); skipped")
    for name in ("../escaped", "/tmp/forge-absolute-43", "x" * 300):
        got = run_cli("map", "get", name, "--index", hostile_index, cwd=tmp_path, env=_maps_env(tmp_path))
        assert got.code == 2, got.err
        assert got.err.splitlines()[-1].startswith(f"Error: Invalid value for NAMES: {name[:100]!r}")
    got = run_cli("map", "get", "escaped", "--index", hostile_index, cwd=tmp_path, env=_maps_env(tmp_path))
    assert got.code == 1 and got.err.splitlines()[-1].startswith("Error: no map 'escaped' in the map index")
    good = run_cli("map", "get", "tiny_map", "--index", hostile_index, cwd=tmp_path, env=_maps_env(tmp_path))
    assert good.code == 0, good.err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["maps"]
    assert sorted(p.name for p in (tmp_path / "maps").iterdir()) == ["tiny_map"]
    assert not Path("/tmp/forge-absolute-43").exists()


def test_map_get_force_never_replaces_a_folder_outside_the_maps_folder(tmp_path: Path, hostile_index: str) -> None:
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("mine\n", encoding="utf-8")
    (tmp_path / "maps").mkdir()
    for name in ("../victim", str(victim), "../maps/../victim"):
        result = run_cli("map", "get", "--force", name, "--index", hostile_index, cwd=tmp_path, env=_maps_env(tmp_path))
        assert result.code == 2, result.err
        assert "cannot be a folder's name" in result.err
    assert (victim / "keep.txt").read_text(encoding="utf-8") == "mine\n"
    assert list((tmp_path / "maps").iterdir()) == []


@settings(max_examples=examples(500), deadline=None)
@given(st.text(max_size=120) | st.sampled_from(["..", ".", "../x", "/abs", "a/../../b", "C:\\x", "é" * 100, "Ab" * 40]))
def test_a_map_name_that_passes_is_one_folder_the_disk_can_make(name: str) -> None:
    if map_name_problem(name) is not None:
        return
    with tempfile.TemporaryDirectory() as temporary:
        maps = Path(temporary) / "maps"
        maps.mkdir()
        folder = maps / normalized_map_name(name)
        assert folder.parent.resolve() == maps.resolve()
        os.mkdir(folder)  # never ENAMETOOLONG, never a path of several parts
        assert [p.name for p in maps.iterdir()] == [folder.name]


# ------------------------------------------------------------------------------ cache records


def test_a_cache_record_that_names_a_file_outside_the_output_folder_is_ignored(project: Path) -> None:
    assert _build(project) == 0
    (record,) = (project / ".cache" / "triplea-forge" / "builds").glob("*.json")
    planted = json.loads(record.read_text(encoding="utf-8"))
    planted["files"] = {"../notes.txt": "0" * 64, **planted["files"]}
    record.write_text(json.dumps(planted), encoding="utf-8")
    result = run_cli("build", cwd=project, env={"XDG_CACHE_HOME": str(project / ".cache")})
    assert result.code == 0, result.err
    assert result.out.splitlines()[-1] == "0 files written, 3 unchanged"  # built again, not answered from it
    assert "../notes.txt" not in json.loads(record.read_text(encoding="utf-8"))["files"]
    assert (project / "notes.txt").read_text(encoding="utf-8") == "my notes\n"
