"""Hostile and careless input: no path escapes, no entity fetched, no crash, no hang, no stale build.

One regression test per finding of the adversarial run (messages of spec files are in
test_messages.py). Every case goes through the real CLI on real files (`run_cli`: click's command line, the working
folder and environment as a process has them; what only a process of its own has is `run_process`).
"""

from __future__ import annotations

import http.server
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from generator.spec.resolve import Rules
from tests.helpers import ROOT, run_cli, write_tree

TINY = ROOT / "tests" / "fixtures" / "tiny"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    return tmp_path


def _base_map(where: Path) -> Path:
    """The tiny fixture's map (tests/fixtures/tiny_map): its board and unit pictures, which a package checks."""
    shutil.copytree(ROOT / "tests" / "fixtures" / "tiny_map", where)
    return where


# ------------------------------------------------------------------------------------- files


def test_a_fifo_spec_is_refused_not_waited_for(project: Path) -> None:
    os.mkfifo(project / "rules" / "tiny" / "units.yaml")
    started = time.monotonic()
    result = run_cli("validate", "tiny", cwd=project)
    assert time.monotonic() - started < 60
    assert result.code == 1
    assert result.err.splitlines()[0] == "rules/tiny/units.yaml:1:1: not a regular file (a FIFO)"


def test_import_of_a_fifo_is_refused_not_waited_for(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "game.xml")
    result = run_cli("import", "game.xml", "--name", "x", cwd=tmp_path)
    assert result.code == 1 and result.err.splitlines()[0] == "game.xml:1:1: not a regular file (a FIFO)"


def test_a_device_spec_is_refused_not_read(project: Path) -> None:
    (project / "rules" / "tiny" / "units.yaml").symlink_to("/dev/zero")
    result = run_cli("build", cwd=project)
    assert result.code == 1
    assert result.err.splitlines()[0] == "rules/tiny/units.yaml:1:1: not a regular file (a device or socket)"


def test_a_file_that_is_not_utf8_is_located_at_the_bad_byte(project: Path) -> None:
    (project / "rules" / "tiny" / "units.yaml").write_bytes(b"units:\n  infantry: {attack: 1}\n  caf\xe9: {}\n")
    result = run_cli("validate", cwd=project)
    assert result.err.splitlines()[0] == (
        "rules/tiny/units.yaml:3:6: the file is not UTF-8 here (invalid continuation byte); save it as UTF-8"
    )


def test_yml_files_are_read_like_yaml_files(project: Path) -> None:
    (project / "rules" / "tiny" / "units.yml").write_text("units:\n  infantry: {attack: 1}\n", encoding="utf-8")
    result = run_cli("validate", cwd=project)
    assert result.code == 1  # units is set in game.yaml already: the .yml file was read
    assert result.err.splitlines()[0] == (
        "rules/tiny/units.yml:1:1: units: 'units' is already defined in rules/tiny/game.yaml:8; a key may appear "
        "in one file of a variant only"
    )


@pytest.mark.parametrize("folder", ["my variant", "a--b", "$(touch x)", "new\nline"])
def test_variant_names_that_would_break_a_path_or_a_listing_are_refused(project: Path, folder: str) -> None:
    shutil.copytree(project / "rules" / "tiny", project / "rules" / folder)
    result = run_cli("build", cwd=project)
    assert result.code == 1
    assert "is not a plain name" in result.err and "rename the folder" in result.err
    assert not (project / "output" / "map.yml").exists()


# ------------------------------------------------------------------------------ build cache


def test_a_symlinked_variant_is_part_of_the_fingerprint(
    project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    write_tree(elsewhere, {"linked/game.yaml": "extends: tiny\ngame: {name: Linked}\n"})
    (project / "rules" / "linked").symlink_to(elsewhere / "linked")
    assert run_cli("build", cwd=project).code == 0
    (elsewhere / "linked" / "game.yaml").write_text("extends: tiny\ngame: {name: Linked Again}\n", encoding="utf-8")
    stale = run_cli("build", "--check", cwd=project)
    assert stale.code == 1 and "stale: output/games/linked.xml" in stale.err
    assert run_cli("build", cwd=project).code == 0
    (project / "rules" / "linked").unlink()  # the variant is gone: so are its outputs
    removed = run_cli("build", cwd=project)
    assert "removed output/games/linked.xml" in removed.out
    assert not (project / "output" / "games" / "linked.xml").exists()


def test_a_build_is_remembered_under_what_it_read(project: Path) -> None:
    """A spec saved while a build runs must not file the new outputs under the old content's key."""
    from generator.emit import cache
    from generator.emit.outputs import build_outputs
    from generator.paths import template_dir

    rules = Rules(project / "rules", "rules")
    before = cache.fingerprint(project / "rules", template_dir(), [])
    build_outputs(rules, [])  # reads game.yaml as it is now
    spec = project / "rules" / "tiny" / "game.yaml"
    spec.write_text(spec.read_text(encoding="utf-8") + "# saved during the build\n", encoding="utf-8")
    as_read = cache.fingerprint(project / "rules", template_dir(), [], read=rules.digests)
    assert as_read == before  # the key of what the build read, not of what is on disk now
    assert cache.fingerprint(project / "rules", template_dir(), []) != before


def test_a_build_is_remembered_under_the_code_that_made_it(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The generator's code is read once a process: a process that goes on running the code it
    imported (`watch`) never files its builds under the key of code saved since; the next
    process reads the new code and has a key of its own."""
    from generator.emit import cache
    from generator.paths import template_dir

    code = tmp_path / "generator"
    code.mkdir()
    (code / "rule.py").write_text("ATTACK = 1\n", encoding="utf-8")
    monkeypatch.setattr(cache, "_PACKAGE", code)
    cache._code_digest.cache_clear()
    try:
        first = cache.fingerprint(project / "rules", template_dir(), [])
        (code / "rule.py").write_text("ATTACK = 2\n", encoding="utf-8")
        assert cache.fingerprint(project / "rules", template_dir(), []) == first
        cache._code_digest.cache_clear()  # a new process
        assert cache.fingerprint(project / "rules", template_dir(), []) != first
    finally:
        cache._code_digest.cache_clear()  # the next build of this process reads the real code


# ---------------------------------------------------------------------------- interruption


def _build_killed_at(project: Path, stage: str) -> None:
    """Run `build` in a child that kills itself (SIGKILL) at `stage` of writing its files."""
    code = f"""
import os, signal, sys
from generator.emit import write
def die(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)
if {stage!r} == "before the journal":
    write.Transaction.commit = die
else:
    write._move = die
from generator.cli import cli
cli(["build"])
"""
    proc = subprocess.run([sys.executable, "-c", code], cwd=project, capture_output=True, text=True, timeout=300)
    assert proc.returncode == -signal.SIGKILL, proc.stderr


def _edit(project: Path) -> None:
    spec = project / "rules" / "tiny" / "game.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("Tiny War", "Tiny Peace"), encoding="utf-8")
    write_tree(project, {"rules/other/game.yaml": "extends: tiny\ngame: {name: Other}\n"})


def test_a_build_killed_after_its_journal_is_finished_by_the_next_run(project: Path) -> None:
    assert run_cli("build", cwd=project).code == 0
    _edit(project)
    _build_killed_at(project, "after the journal")
    output = project / "output"
    assert b"Tiny War" in (output / "games" / "tiny.xml").read_bytes()  # nothing moved yet
    assert (output / ".forge-journal.json").exists()
    check = run_cli("build", "--check", cwd=project)  # reading the folder finishes the switch first
    assert check.code == 0, check.err
    assert b"Tiny Peace" in (output / "games" / "tiny.xml").read_bytes()
    assert (output / "games" / "other.xml").is_file() and b"other.xml" in (output / "map.yml").read_bytes()
    assert not [p.name for p in output.iterdir() if p.name.startswith(".forge")]


def test_a_build_killed_before_its_journal_leaves_the_old_files_and_no_staging(project: Path) -> None:
    assert run_cli("build", cwd=project).code == 0
    _edit(project)
    _build_killed_at(project, "before the journal")
    output = project / "output"
    assert [p.name for p in output.iterdir() if p.name.startswith(".forge-stage-")]  # what the kill left
    check = run_cli("build", "--check", cwd=project)
    assert check.code == 1 and "stale: output/games/tiny.xml" in check.err  # the old files, whole
    assert not [p.name for p in output.iterdir() if p.name.startswith(".forge")]
    assert not [p.name for p in project.iterdir() if p.name.startswith(".forge")]


def test_output_on_another_filesystem(project: Path) -> None:
    shm = Path("/dev/shm")
    if not shm.is_dir() or os.stat(shm).st_dev == os.stat(project).st_dev:
        pytest.skip("no second filesystem at /dev/shm")
    target = Path(tempfile.mkdtemp(dir=shm))
    try:
        (project / "output").symlink_to(target)  # output/ mounted elsewhere: renames must stay inside it
        result = run_cli("build", cwd=project)
        assert result.code == 0, result.err
        assert (target / "games" / "tiny.xml").is_file()
    finally:
        shutil.rmtree(target)


# ------------------------------------------------------------------------------- packaging


def test_package_never_writes_outside_out(project: Path) -> None:
    base = _base_map(project / "base")
    write_tree(project, {"rules/evil/game.yaml": "extends: tiny\ngame: {map: ../rules}\n"})
    result = run_cli("package", "evil", "--base-map", str(base), "--out", "dist", cwd=project)
    assert result.code == 1 and "game.map: map name '../rules' cannot be a folder name" in result.err
    assert (project / "rules" / "tiny" / "game.yaml").is_file()
    assert not (project / "dist").exists()


def test_overlay_onto_a_map_that_cannot_take_files(project: Path) -> None:
    base = _base_map(project / "installed")
    (base / "map" / "games").write_text("a file where the games folder should be", encoding="utf-8")
    write_tree(base, {"map.yml": "map_name: tiny_map\ngames: []\n"})
    result = run_cli("package", "tiny", "--overlay", str(base), cwd=project)
    assert result.code == 1, result.err
    assert "cannot write" in result.err and "Traceback" not in result.err


def test_overlay_onto_a_map_with_a_broken_listing(project: Path) -> None:
    base = _base_map(project / "installed")
    write_tree(base, {"map.yml": "map_name: [unclosed\n"})
    result = run_cli("package", "tiny", "--overlay", str(base), cwd=project)
    assert result.code == 1
    assert "map.yml: cannot read it" in result.err and "repair or remove it" in result.err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_overlay_onto_a_read_only_map(project: Path) -> None:
    base = _base_map(project / "installed")
    base.chmod(0o555)
    try:
        result = run_cli("package", "tiny", "--overlay", str(base), cwd=project)
    finally:
        base.chmod(0o755)
    assert result.code == 1 and "cannot write" in result.err


def _zip_bomb(path: Path) -> None:
    """A tiny zip whose directory claims 4 GB: refused before anything is inflated."""
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("m-master/map.yml", "map_name: m\ngames: []\n")
    data = bytearray(path.read_bytes())
    central = data.index(b"PK\x01\x02")
    data[central + 24 : central + 28] = struct.pack("<I", 0xFFFF0000)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("previous", ["not a zip", "bad map.yml", "zip bomb"])
def test_previous_release_that_cannot_be_read(project: Path, previous: str) -> None:
    base = _base_map(project / "base")
    old = project / "old.zip"
    if previous == "not a zip":
        old.write_text("hello", encoding="utf-8")
        expected = "old.zip is neither a release folder nor a zip"
    elif previous == "bad map.yml":
        with zipfile.ZipFile(old, "w") as archive:
            archive.writestr("m-master/map.yml", "games: [unclosed\n")
        expected = "its map.yml is not valid YAML"
    else:
        _zip_bomb(old)
        expected = "the zip unpacks to more than a map release ever holds"
    result = run_cli("package", "--base-map", str(base), "--previous", str(old), cwd=project)
    assert result.code == 1, result.err
    assert "--previous:" in result.err and expected in result.err and "Traceback" not in result.err


# -------------------------------------------------------------------------------- imports


def _game(body: str) -> str:
    return f"""<?xml version="1.0"?>
<!DOCTYPE game SYSTEM "game.dtd">
<game>
<info name="Q" version="1"/>
<loader javaClass="games.strategy.triplea.TripleA"/>
<map><territory name="A"/></map>
<playerList><player name="P" optional="false"/></playerList>
<unitList><unit name="inf"/></unitList>
<gamePlay><delegate name="d" javaClass="games.strategy.triplea.delegate.InitializationDelegate" display="x"/>
<sequence><step name="s" delegate="d"/></sequence></gamePlay>
{body}
</game>
"""


def test_import_locates_numbers_that_are_not_numbers(tmp_path: Path) -> None:
    body = (
        '<initialize><unitInitialize><unitPlacement unitType="inf" territory="A" quantity="abc" owner="P"/>'
        '</unitInitialize></initialize>\n<propertyList><property name="X" value="3" editable="true">'
        '<number min="x" max="5"/></property></propertyList>'
    )
    (tmp_path / "q.xml").write_text(_game(body), encoding="utf-8")
    result = run_cli("import", "q.xml", "--name", "q", cwd=tmp_path)
    assert result.code == 1
    assert result.err.splitlines()[:-1] == [
        "q.xml:11:1: <unitPlacement quantity='abc'>: the engine reads a whole number here",
        "q.xml:12:1: <number min='x'>: the engine reads a whole number here",
    ]


def test_import_errors_point_at_the_xml_not_at_files_never_written(tmp_path: Path) -> None:
    body = '<initialize><ownerInitialize><territoryOwner territory="A" owner="Nobody"/></ownerInitialize></initialize>'
    (tmp_path / "q.xml").write_text(_game(body), encoding="utf-8")
    result = run_cli("import", "q.xml", "--name", "q", cwd=tmp_path)
    assert result.code == 1
    assert result.err.splitlines()[0] == "q.xml:11:1: territories.A.owner: unknown player 'Nobody'"
    assert not (tmp_path / "rules").exists() or not any((tmp_path / "rules").iterdir())


def test_import_says_which_attributes_it_dropped(tmp_path: Path) -> None:
    (tmp_path / "q.xml").write_text(_game("").replace('<unit name="inf"/>', '<unit name="inf" colour="red"/>'))
    result = run_cli("import", "q.xml", "--name", "q", "--report", cwd=tmp_path)
    assert result.code == 0, result.err
    assert "  q.xml:8:1: attribute colour of <unit> is in neither engine's game.dtd: dropped" in result.out


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("<html><body/></html>", "h.xml:1:1: not a TripleA game XML: the root element is <html>, not <game>"),
        (
            '<game><info name="E" version="1"/></game>',
            "h.xml:1:1: not a TripleA game: <game> has no <map>, <playerList>, <gamePlay> (both engines require "
            "info, map, playerList, gamePlay)",
        ),
    ],
)
def test_what_is_not_a_game_is_refused_for_every_engine(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "h.xml").write_text(text, encoding="utf-8")
    for command in (
        ["validate", "h.xml", "--target", "2.x"],
        ["validate", "h.xml"],
        ["import", "h.xml", "--name", "h"],
    ):
        result = run_cli(*command, cwd=tmp_path)
        assert result.code == 1 and result.err.splitlines()[0] == message, (command, result.err)
    assert not (tmp_path / "rules").exists()


def test_diff_of_game_files_says_where_they_are_broken(tmp_path: Path) -> None:
    (tmp_path / "a.xml").write_text(_game("").replace('delegate="d"/>', 'delegate="d" maxRunCount="x"/>'))
    (tmp_path / "b.xml").write_text(_game(""))
    result = run_cli("diff", "a.xml", "b.xml", cwd=tmp_path)
    assert result.code == 1
    assert result.err.splitlines()[0] == "a.xml:10:1: sequence.s.max_run_count: expected a whole number, got 'x'"


def test_diff_in_a_terminal_that_only_knows_ascii(project: Path) -> None:
    write_tree(project, {"rules/other/game.yaml": "extends: tiny\nunits:\n  infantry: {attack: 3}\n"})
    env = {**os.environ, "PYTHONIOENCODING": "ascii", "LC_ALL": "C"}
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "diff", "tiny", "other"], cwd=project, env=env, capture_output=True
    )
    assert proc.returncode == 0, proc.stderr
    assert b"infantry: attack 1 -> 3" in proc.stdout
    proc.stdout.decode("ascii")


# ---------------------------------------------------------------------- generated XML


@pytest.mark.engine
def test_problems_of_the_generated_xml_point_at_the_spec(project: Path) -> None:
    write_tree(project, {"rules/broken/game.yaml": "extends: tiny\nproduction_frontiers:\n  empty: []\n"})
    result = run_cli("build", "broken", "--output", "elsewhere", cwd=project)
    assert result.code == 1
    assert result.err.splitlines()[0] == (
        "rules/broken/game.yaml:3:10: production_frontiers.empty: DTD: Element productionFrontier content does "
        "not follow the DTD, expecting (frontierRules)+, got ()"
    )


# ------------------------------------------------------------------------------ the engine


class _Recorder(http.server.BaseHTTPRequestHandler):
    requests: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        _Recorder.requests.append(self.path)
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b'<!ENTITY % leak "x">')

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def server() -> Iterator[str]:
    _Recorder.requests = []
    httpd = http.server.HTTPServer(("127.0.0.1", 0), _Recorder)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()


def _hostile(project: Path, url: str) -> list[Path]:
    assert run_cli("build", cwd=project).code == 0
    game = (project / "output" / "games" / "tiny.xml").read_text(encoding="utf-8")
    ours = '<!DOCTYPE game SYSTEM "game.dtd">'
    entity = f'<!DOCTYPE game [\n<!ENTITY % r SYSTEM "{url}/evil.dtd">\n%r;\n]>'
    files = [project / "entity.xml", project / "system.xml"]
    files[0].write_text(game.replace(ours, entity), encoding="utf-8")
    files[1].write_text(game.replace(ours, f'<!DOCTYPE game SYSTEM "{url}/game.dtd">'), encoding="utf-8")
    return files


@pytest.mark.engine
def test_check_fetches_no_external_entity(project: Path, server: str) -> None:
    files = _hostile(project, server)
    result = run_cli("check", *map(str, files), "--rounds", "0", cwd=project)
    assert _Recorder.requests == []
    assert result.code == 0, result.out + result.err  # the games themselves are fine
    assert "warning: its DOCTYPE <!DOCTYPE game [ <!ENTITY % r SYSTEM" in result.out


@pytest.mark.engine
def test_the_harness_itself_refuses_a_foreign_doctype(project: Path, server: str) -> None:
    """Called directly (no replacement of the DOCTYPE first), the harness refuses and fetches nothing."""
    from generator.engine.harness import find_engine

    files = _hostile(project, server)
    proc = find_engine().run(["dump", *map(str, files)])
    assert _Recorder.requests == []
    assert proc.stdout.count("refused: the DOCTYPE names another DTD than game.dtd or declares entities") == 2


@pytest.mark.engine
def test_a_java_that_does_not_exec_is_killed_with_its_children(tmp_path_factory: pytest.TempPathFactory) -> None:
    """A timed-out game kills the whole process group, so a wrapper's child cannot hold the pipe."""
    real = shutil.which("java")
    assert real is not None and shutil.which("javac") is not None
    home = tmp_path_factory.mktemp("jdk")
    (home / "bin").mkdir()
    wrapper = home / "bin" / "java"
    wrapper.write_text(f'#!/bin/sh\n"{real}" "$@" &\nwait\n', encoding="utf-8")
    wrapper.chmod(0o755)
    (home / "bin" / "javac").symlink_to(str(shutil.which("javac")))
    env = {**os.environ, "JAVA_HOME": str(home)}
    started = time.monotonic()
    # A Revised game: each of its rounds takes seconds (the tiny board plays 100 rounds in less than 3 s).
    game = ROOT / "output" / "games" / "revised.xml"
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "check", str(game), "--rounds", "100", "--timeout", "3"],
        cwd=tmp_path_factory.mktemp("elsewhere"), env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert time.monotonic() - started < 60
    assert proc.returncode == 1 and "timed out after 3 s" in proc.stdout, proc.stdout + proc.stderr
