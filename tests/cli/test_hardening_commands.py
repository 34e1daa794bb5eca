"""Hostile and careless outputs of package, import, new, balance, preview, schema, diff and check.

Third adversarial round (issue 27): a package inside its own base map, outputs inside rules/,
symbolic links and files where folders go, FIFOs and devices as outputs, `-o` over a spec file,
variants that would extend themselves. Each ends with exit 1 and a message, or the right result;
every case goes through the real CLI on real files (`run_cli`, in this process, as
tests/helpers.py says).
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import time
import zipfile
from pathlib import Path

import pytest

from tests.helpers import ROOT, TINY, TINY_MAP, run_cli, write_tree

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
SAME_NAME = "warning: the package is named 'tiny_map', as the map it is made from"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    return tmp_path


def _base_map(where: Path) -> Path:
    shutil.copytree(TINY_MAP, where)
    return where


def _errors(stderr: str) -> list[str]:
    """The lines of an error report, without the count and the package-name warning."""
    return [line for line in stderr.splitlines() if not line.startswith((SAME_NAME, "1 error", "2 errors"))]


# ---------------------------------------------------------------------- package (items 8, 9)


def test_a_package_written_inside_its_base_map_never_holds_itself(project: Path) -> None:
    base = _base_map(project / "base")
    for _ in range(3):
        result = run_cli("package", "tiny", "--base-map", "base", "--out", "base/map/dist", cwd=project)
        assert result.code == 0, result.err
        assert result.out.splitlines()[0] == "wrote base/map/dist/tiny_map/ (14 files)"
    with zipfile.ZipFile(base / "map" / "dist" / "tiny_map-master.zip") as archive:
        names = archive.namelist()
    assert not [n for n in names if "dist" in n]
    assert sum(1 for p in (base / "map" / "dist").rglob("*") if p.is_file()) == 15  # 14 files and the zip


def test_an_earlier_package_inside_the_base_map_is_left_out_with_a_warning(project: Path) -> None:
    base = _base_map(project / "base")
    assert run_cli("package", "tiny", "--base-map", "base", "--out", "dist", cwd=project).code == 0
    shutil.copytree(project / "dist" / "tiny_map", base / "map" / "old")
    shutil.copy(project / "dist" / "tiny_map-master.zip", base / "map" / "old-master.zip")
    result = run_cli("package", "tiny", "--base-map", "base", "--out", "dist", cwd=project)
    assert result.code == 0, result.err
    assert result.err.splitlines()[:2] == [
        "warning: base/map/old-master.zip: an earlier package inside the base map's art; left out of this one",
        "warning: base/map/old: an earlier package inside the base map's art; left out of this one",
    ]
    assert result.out.splitlines()[0] == "wrote dist/tiny_map/ (14 files)"


@pytest.mark.parametrize(
    ("args", "shown"),
    [(("--out", "rules"), "--out rules"), (("--out", "rules/tiny"), "--out rules/tiny")],
)
def test_a_package_is_never_written_into_the_rules_folder(project: Path, args: tuple[str, str], shown: str) -> None:
    _base_map(project / "base")
    result = run_cli("package", "tiny", "--base-map", "base", *args, cwd=project)
    assert result.code == 1
    assert _errors(result.err) == [
        f"{shown}: it is inside the rules folder rules/, where what is written is read as specs by every later "
        "build; give a folder outside it"
    ]
    assert sorted(p.name for p in (project / "rules").rglob("*")) == ["game.yaml", "tiny"]
    assert run_cli("build", cwd=project).code == 0


def test_an_overlay_into_the_rules_folder_is_refused(project: Path) -> None:
    result = run_cli("package", "tiny", "--overlay", "rules/tiny", cwd=project)
    assert result.code == 1
    assert _errors(result.err)[0].startswith("--overlay rules/tiny: it is inside the rules folder rules/")
    assert not (project / "rules" / "tiny" / "map.yml").exists()


def test_a_package_out_below_a_file_is_refused(project: Path) -> None:
    _base_map(project / "base")
    (project / "f").write_text("a file\n", encoding="utf-8")
    result = run_cli("package", "tiny", "--base-map", "base", "--out", "f/dist", cwd=project)
    assert result.code == 1
    assert _errors(result.err) == ["cannot write f/dist: f is a file, not a folder"]


def test_a_package_zip_that_is_not_ours_is_kept(project: Path) -> None:
    _base_map(project / "base")
    (project / "dist").mkdir()
    (project / "dist" / "tiny_map-master.zip").write_bytes(b"someone else's zip")
    result = run_cli("package", "tiny", "--base-map", "base", cwd=project)
    assert result.code == 1
    assert _errors(result.err) == [
        "dist/tiny_map-master.zip exists and was not written by triplea-forge; use --force to replace it"
    ]
    assert (project / "dist" / "tiny_map-master.zip").read_bytes() == b"someone else's zip"
    assert run_cli("package", "tiny", "--base-map", "base", "--force", cwd=project).code == 0


def _clashing_zip(path: Path, entries: list[str]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for file in sorted(p for p in TINY_MAP.rglob("*") if p.is_file()):
            archive.write(file, f"tiny_map-master/{file.relative_to(TINY_MAP).as_posix()}")
        for name in entries:
            archive.writestr(name, "x")
    return path


@pytest.mark.parametrize(
    "entries",
    [["tiny_map-master/a", "tiny_map-master/a/b"], ["tiny_map-master/a/b", "tiny_map-master/a"]],
    ids=["file-first", "folder-first"],
)
def test_a_base_map_zip_with_a_file_and_a_folder_of_one_name(project: Path, entries: list[str]) -> None:
    _clashing_zip(project / "tiny_map-master.zip", entries)
    result = run_cli("package", "tiny", "--base-map", "tiny_map-master.zip", cwd=project)
    assert result.code == 1
    assert _errors(result.err) == [
        "Error: tiny_map-master.zip: 'tiny_map-master/a' is both a file and a folder in the zip, which cannot be "
        "unpacked; repair the zip"
    ]


# ------------------------------------------------------------------------- import (item 11)


@pytest.fixture
def game_xml(project: Path) -> Path:
    assert run_cli("build", cwd=project).code == 0
    return Path(shutil.copy(project / "output" / "games" / "tiny.xml", project / "game.xml"))


def test_import_force_onto_a_symbolic_link_leaves_what_it_leads_to(project: Path, game_xml: Path) -> None:
    elsewhere = write_tree(project / "elsewhere", {"keep.txt": "kept\n"})
    (project / "rules" / "imported").symlink_to(elsewhere)
    result = run_cli("import", "game.xml", "--name", "imported", "--force", cwd=project)
    assert result.code == 1
    assert result.err.splitlines()[0] == "rules/imported is a symbolic link; remove it or import under another --name"
    assert (elsewhere / "keep.txt").read_text(encoding="utf-8") == "kept\n"


def test_import_force_onto_a_file(project: Path, game_xml: Path) -> None:
    (project / "rules" / "imported").write_text("notes\n", encoding="utf-8")
    result = run_cli("import", "game.xml", "--name", "imported", "--force", cwd=project)
    assert result.code == 1
    assert result.err.splitlines()[0] == (
        "rules/imported is a file, not a variant folder; remove it or import under another --name"
    )
    assert (project / "rules" / "imported").read_text(encoding="utf-8") == "notes\n"


def test_import_force_onto_a_fifo(project: Path, game_xml: Path) -> None:
    os.mkfifo(project / "rules" / "imported")
    result = run_cli("import", "game.xml", "--name", "imported", "--force", cwd=project)
    assert result.code == 1
    assert result.err.splitlines()[0] == (
        "rules/imported is a FIFO, not a variant folder; remove it or import under another --name"
    )


def test_import_force_replaces_a_variant_folder(project: Path, game_xml: Path) -> None:
    assert run_cli("import", "game.xml", "--name", "imported", cwd=project).code == 0
    (project / "rules" / "imported" / "old.yaml").write_text("{}\n", encoding="utf-8")
    result = run_cli("import", "game.xml", "--name", "imported", "--force", cwd=project)
    assert result.code == 0, result.err
    assert not (project / "rules" / "imported" / "old.yaml").exists()
    assert not [p for p in (project / "rules").iterdir() if p.name.startswith(".")]


def test_import_into_a_rules_folder_that_cannot_be_made(project: Path, game_xml: Path) -> None:
    """A file where a folder must go (what a read-only folder is to root, who ignores permissions)."""
    (project / "f").write_text("a file\n", encoding="utf-8")
    result = run_cli("import", "game.xml", "--name", "imported", "--rules", "f/rules", cwd=project)
    assert result.code == 1
    assert result.err.splitlines()[0] == "cannot write f/rules: f is a file, not a folder"


def test_import_that_would_extend_itself(project: Path, game_xml: Path) -> None:
    result = run_cli("import", "game.xml", "--name", "tiny", "--extends", "tiny", "--force", cwd=project)
    assert result.code == 1
    assert result.err.splitlines()[0] == (
        "--extends tiny: the variant 'tiny' would extend itself (tiny -> tiny); import it under another --name, "
        "or extend another variant"
    )
    assert (TINY / "game.yaml").read_bytes() == (project / "rules" / "tiny" / "game.yaml").read_bytes()


# -------------------------------------------------------------------- new (items 11 and 15)


def test_new_in_a_dangling_symbolic_link(tmp_path: Path) -> None:
    (tmp_path / "mod").symlink_to(tmp_path / "missing")
    result = run_cli("new", "mymod", "--extends", "revised", "--in", "mod", cwd=tmp_path)
    assert result.code == 1
    assert result.err == (
        f"Error: cannot make a mod repository in mod: it is a symbolic link to {tmp_path / 'missing'}, "
        "which does not exist\n"
    )
    assert not (tmp_path / "missing").exists()


def test_new_in_a_symbolic_link_loop(tmp_path: Path) -> None:
    (tmp_path / "mod").symlink_to("mod")
    result = run_cli("new", "mymod", "--extends", "revised", "--in", "mod", cwd=tmp_path)
    assert result.code == 1
    assert result.err == (
        "Error: cannot make a mod repository in mod: it is a symbolic link that leads nowhere "
        "(Too many levels of symbolic links)\n"
    )


def test_new_below_a_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("a file\n", encoding="utf-8")
    result = run_cli("new", "mymod", "--extends", "revised", "--in", "f/mod", cwd=tmp_path)
    assert result.code == 1
    assert result.err == "Error: cannot make a mod repository in f/mod: f is a file, not a folder\n"
    variant = run_cli("new", "mymod", "--extends", "revised", "--rules", "f/rules", cwd=tmp_path)
    assert variant.code == 1
    assert variant.err == "Error: cannot write f/rules: f is a file, not a folder\n"


def test_new_over_a_dangling_symbolic_link(project: Path) -> None:
    (project / "rules" / "mine").symlink_to(project / "missing")
    result = run_cli("new", "mine", "--extends", "tiny", cwd=project)
    assert result.code == 1
    assert result.err == "Error: rules/mine exists already\n"
    assert not (project / "missing").exists()


def test_new_variant_that_extends_itself(project: Path) -> None:
    result = run_cli("new", "revised", "--extends", "revised", cwd=project)
    assert result.code == 1
    assert result.err == (
        "Error: variant 'revised' cannot extend itself; it would hide the 'revised' triplea-forge ships: "
        "give the new variant a name of its own\n"
    )
    assert not (project / "rules" / "revised").exists()
    repository = run_cli("new", "revised", "--extends", "revised", "--in", "mod", cwd=project)
    assert repository.code == 1 and not (project / "mod").exists()


def test_new_variant_whose_ancestor_extends_it(project: Path) -> None:
    write_tree(project, {"rules/a/game.yaml": "extends: b\ngame: {name: A}\n"})
    result = run_cli("new", "b", "--extends", "a", cwd=project)
    assert result.code == 1
    assert result.err == (
        "Error: variant 'b' cannot extend 'a': the chain would come back to it (b -> a -> b); give the new "
        "variant another name, or extend another variant\n"
    )
    assert not (project / "rules" / "b").exists()
    # A shipped ancestor too: lhtr extends revised, so a revised of one's own extending lhtr loops.
    shipped = run_cli("new", "revised", "--extends", "lhtr", cwd=project)
    assert shipped.code == 1 and "(revised -> lhtr -> revised)" in shipped.err


# ---------------------------------------------------------------- balance (items 11 and 12)


def test_balance_out_below_a_file_is_refused_before_anything_is_played(project: Path) -> None:
    (project / "f").write_text("a file\n", encoding="utf-8")
    result = run_cli("balance", "tiny", "--out", "f/sub", "-n", "1", "-r", "1", cwd=project)
    assert result.code == 1
    assert result.err == "cannot write f/sub: f is a file, not a folder\n1 error found.\n"
    assert not (project / "output").exists()  # refused before the build


def test_balance_never_waits_on_a_fifo(project: Path) -> None:
    (project / "b").mkdir()
    os.mkfifo(project / "b" / "games.jsonl")
    (project / "b" / "report.html").symlink_to("/dev/null")
    started = time.monotonic()
    result = run_cli("balance", "tiny", "--out", "b", "-n", "1", "-r", "1", cwd=project)
    assert time.monotonic() - started < 60
    assert result.code == 1
    assert result.err.splitlines() == [
        "cannot write b/games.jsonl: it is a FIFO, not a file",
        "cannot write b/report.html: it is a device or socket, not a file",
        "2 errors found.",
    ]
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


# ------------------------------------------------------- files named with -o (items 12, 13)


def test_preview_never_replaces_a_spec(project: Path) -> None:
    spec = project / "rules" / "tiny" / "game.yaml"
    before = spec.read_bytes()
    result = run_cli("preview", "tiny", "-o", "rules/tiny/game.yaml", cwd=project)
    assert result.code == 1
    assert result.err.splitlines()[0] == (
        "rules/tiny/game.yaml exists and is a spec file: -o would replace it; give another file, or --force"
    )
    assert spec.read_bytes() == before


def test_preview_never_writes_a_new_spec_file(project: Path) -> None:
    result = run_cli("preview", "tiny", "-o", "rules/tiny/board.yaml", cwd=project)
    assert result.code == 1
    assert result.err.splitlines()[0] == (
        "rules/tiny/board.yaml: a new file there would be read as a spec file of the variant in rules/tiny; "
        "give another file, or --force"
    )
    assert not (project / "rules" / "tiny" / "board.yaml").exists()
    assert run_cli("preview", "tiny", "-o", "rules/tiny/board.png", cwd=project).code == 0  # not a spec: fine


def test_preview_replaces_a_picture_and_with_force_anything(project: Path) -> None:
    (project / "board.png").write_text("my notes\n", encoding="utf-8")
    refused = run_cli("preview", "tiny", "-o", "board.png", cwd=project)
    assert refused.code == 1
    assert refused.err.splitlines()[0] == (
        "board.png exists and is not a PNG picture: -o would replace it; give another file, or --force"
    )
    forced = run_cli("preview", "tiny", "-o", "board.png", "--force", cwd=project)
    assert forced.out.splitlines()[-1] == "wrote board.png"
    assert (project / "board.png").read_bytes().startswith(PNG_SIGNATURE)
    assert run_cli("preview", "tiny", "-o", "board.png", cwd=project).code == 0  # a PNG: replaced freely


def test_preview_to_the_standard_output(project: Path) -> None:
    env = {**os.environ, "TRIPLEA_MAPS": str(TINY_MAP.parent)}
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "preview", "tiny", "-o", "-"],
        cwd=project,
        capture_output=True,
        env=env,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith(PNG_SIGNATURE)
    assert not (project / "-").exists()


def test_preview_never_sends_a_picture_to_a_terminal(project: Path) -> None:
    import pty

    env = {**os.environ, "TRIPLEA_MAPS": str(TINY_MAP.parent)}
    terminal, screen = pty.openpty()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "generator", "preview", "tiny", "-o", "-"],
            cwd=project,
            stdout=screen,
            stderr=subprocess.PIPE,
            env=env,
            timeout=300,
        )
    finally:
        os.close(screen)
        os.close(terminal)
    assert proc.returncode == 2
    assert proc.stderr.decode().splitlines()[-1] == (
        "Error: -o -: the standard output is a terminal; send a PNG picture into a file"
    )


@pytest.mark.parametrize(
    "args",
    [("preview", "tiny", "-o"), ("schema", "-o"), ("patterns", "-o"), ("check", "tiny", "--report")],
    ids=["preview", "schema", "patterns", "check"],
)
def test_no_command_writes_into_a_fifo(project: Path, args: tuple[str, ...]) -> None:
    os.mkfifo(project / "out")
    started = time.monotonic()
    result = run_cli(*args, "out", cwd=project)
    assert time.monotonic() - started < 60
    assert result.code == 1
    assert result.err.splitlines()[0] == "cannot write out: it is a FIFO, not a file"
    assert stat.S_ISFIFO((project / "out").stat().st_mode)


def test_no_command_replaces_a_device(project: Path) -> None:
    (project / "null").symlink_to("/dev/null")
    result = run_cli("schema", "-o", "null", "--force", cwd=project)
    assert result.code == 1
    assert result.err.splitlines()[0] == "cannot write null: it is a device or socket, not a file"
    assert (project / "null").is_symlink() and stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_package_zip_that_is_a_fifo_is_refused(project: Path) -> None:
    _base_map(project / "base")
    (project / "dist").mkdir()
    os.mkfifo(project / "dist" / "tiny_map-master.zip")
    result = run_cli("package", "tiny", "--base-map", "base", "--force", cwd=project)
    assert result.code == 1
    assert _errors(result.err) == ["cannot write dist/tiny_map-master.zip: it is a FIFO, not a file"]


def test_an_overlay_never_replaces_a_fifo_in_the_map(project: Path) -> None:
    base = _base_map(project / "tiny_map")
    (base / "map" / "games").mkdir()
    os.mkfifo(base / "map" / "games" / "tiny.xml")
    result = run_cli("package", "tiny", "--overlay", "tiny_map", cwd=project)
    assert result.code == 1
    assert _errors(result.err) == ["cannot write tiny_map/map/games/tiny.xml: it is a FIFO, not a file"]
    assert stat.S_ISFIFO((base / "map" / "games" / "tiny.xml").stat().st_mode)


def test_init_ci_never_writes_into_a_fifo(tmp_path: Path) -> None:
    workflows = tmp_path / ".github" / "workflows"
    workflows.mkdir(parents=True)
    os.mkfifo(workflows / "triplea-forge.yml")
    result = run_cli("init-ci", ".", "--force", "--base-map-repo", "a/b", "--install", "x", cwd=tmp_path)
    assert result.code == 1
    assert result.err.splitlines()[0] == "cannot write .github/workflows/triplea-forge.yml: it is a FIFO, not a file"


def test_schema_replaces_a_schema_but_not_a_spec(project: Path) -> None:
    assert run_cli("schema", "-o", "spec.schema.json", cwd=project).code == 0
    assert run_cli("schema", "-o", "spec.schema.json", cwd=project).code == 0
    result = run_cli("schema", "-o", "rules/tiny/game.yaml", cwd=project)
    assert result.code == 1
    assert result.err.splitlines()[0] == (
        "rules/tiny/game.yaml exists and is a spec file: -o would replace it; give another file, or --force"
    )
    to_stdout = run_cli("schema", "-o", "-", cwd=project)
    assert to_stdout.code == 0 and '"title": "triplea-forge spec file"' in to_stdout.out
    assert not (project / "-").exists()


def test_diff_picture_never_replaces_a_spec(project: Path) -> None:
    result = run_cli("diff", "tiny", "tiny", "--picture", "rules/tiny/game.yaml", cwd=project)
    assert result.code == 1
    assert result.err.splitlines()[0] == (
        "rules/tiny/game.yaml exists and is a spec file: --picture would replace it; give another file, or --force"
    )
    dash = run_cli("diff", "tiny", "tiny", "--picture", "-", cwd=project)
    assert dash.code == 2
    assert dash.err.splitlines()[-1] == (
        "Error: --picture -: the diff itself goes to the standard output; give a file name"
    )


# ------------------------------------------------- folders that refuse writes, even to root (item 11)

# Root ignores permission bits; /sys refuses every new name, to root too (a folder: EPERM, a
# file: EACCES), as a read-only folder refuses them to its users, through the same code.
REFUSING = Path("/sys/triplea-forge-test")
EPERM = "Operation not permitted"


@pytest.mark.skipif(not Path("/sys/kernel").is_dir(), reason="needs /sys, which refuses new names")
@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("import", "game.xml", "--name", "x", "--rules", str(REFUSING)), f"cannot write {REFUSING}: {EPERM}"),
        (("new", "x", "--extends", "revised", "--rules", str(REFUSING)), f"Error: cannot write {REFUSING}: {EPERM}"),
        (("new", "x", "--extends", "revised", "--in", str(REFUSING)), f"Error: cannot write {REFUSING}: {EPERM}"),
        (("schema", "-o", f"{REFUSING}.json"), f"cannot write {REFUSING}.json: Permission denied"),
        (("package", "tiny", "--base-map", "base", "--out", str(REFUSING)), f"cannot write into {REFUSING}/: {EPERM}"),
    ],
    ids=["import", "new", "new-in", "schema", "package"],
)
def test_a_folder_that_refuses_writes(project: Path, game_xml: Path, args: tuple[str, ...], message: str) -> None:
    _base_map(project / "base")
    result = run_cli(*args, cwd=project)
    assert result.code == 1
    assert message in _errors(result.err)
    assert not REFUSING.exists()


@pytest.mark.parametrize("args", [("schema",), ("diff", "revised", "lhtr", "--format", "json")], ids=["schema", "diff"])
def test_a_reader_that_stops_early_is_not_an_internal_error(args: tuple[str, ...]) -> None:
    """`triplea-forge schema | head -1`: the reader has closed the pipe when the output (more than
    a pipe's buffer) is written; the command ends quietly with exit 1, not with 'internal error,
    please report it'."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "generator", *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    assert proc.stderr.read() == b""
    assert proc.wait(timeout=300) == 1


def test_a_full_disk_under_the_output_is_said_as_the_machines_problem() -> None:
    """`triplea-forge schema > /dev/full`: no room for the output is the machine's problem, said in
    words with exit 1, not 'internal error, please report it'."""
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "generator", "schema"], cwd=ROOT, stdout=full, stderr=subprocess.PIPE, text=True
        )
    assert proc.returncode == 1
    assert proc.stderr == "Error: writing the output: No space left on device\n"


def test_a_bug_of_ours_is_one_line_and_exit_3(monkeypatch: pytest.MonkeyPatch) -> None:
    """What is neither the user's mistake nor the machine's: one line asking for a report, exit 3;
    TRIPLEA_FORGE_TRACEBACK=1 shows the traceback instead."""
    from generator.cli import authoring

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(authoring, "build_variants", broken)
    result = run_cli("build", cwd=ROOT)
    assert (result.code, result.err) == (
        3,
        "internal error, please report it (TRIPLEA_FORGE_TRACEBACK=1 shows details): RuntimeError('a bug')\n",
    )
    shown = run_cli("build", cwd=ROOT, env={"TRIPLEA_FORGE_TRACEBACK": "1"})
    assert shown.code == 1 and shown.err.endswith("RuntimeError: a bug\n"), shown.err
