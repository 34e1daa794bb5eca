"""Where a command writes what the user names (`-o`, `--picture`, `--report`, `package --out`).

Checked before the command does its work: a FIFO or a device is never written (it would block
the write forever, or be replaced; paths.output_file_problem), a package never goes into the
rules folder, and an existing file is replaced only when it is what the command writes (a PNG
for a picture, a schema for `schema -o`...) or with --force: a typo must not turn a spec file
into a picture. `-` is the standard output.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import click

from generator.diagnostics import Diagnostic, ForgeError
from generator.paths import (
    SPEC_SUFFIXES,
    UnreadableFile,
    output_file_problem,
    output_folder_problem,
    output_in_rules_problem,
    read_regular_file,
    spec_files,
)

STDOUT = Path("-")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_MAX_LOOKED_AT = 64 << 20  # what is read of an existing file to tell whether it is ours


@dataclass(frozen=True)
class Kind:
    """What a command writes: its name in messages, and how to recognise an earlier one."""

    what: str
    ours: Callable[[bytes], bool]
    binary: bool = False  # never sent to a terminal


def _json_object_with(data: bytes, keys: set[str]) -> bool:
    try:
        document = json.loads(data)
    except ValueError:
        return False
    return isinstance(document, dict) and keys <= document.keys()


def _study_records(data: bytes) -> bool:
    first = data.split(b"\n", 1)[0]  # a study killed mid-line leaves its first lines whole
    return _json_object_with(first, {"variant", "seed"})


PICTURE = Kind("a PNG picture", lambda data: data.startswith(PNG_SIGNATURE), binary=True)
SCHEMA = Kind("a spec schema", lambda data: b'"title": "triplea-forge spec file"' in data)
PATTERNS = Kind("a pattern reference", lambda data: data.startswith((b"# Rule patterns", b"## `")))
CHECK_REPORT = Kind("a check report", lambda data: _json_object_with(data, {"ok", "options", "variants"}))
STUDY_RECORDS = Kind("a balance study's games", _study_records)
STUDY_MARKDOWN = Kind("a balance study's report", lambda data: data.startswith(b"# Balance study"))
STUDY_HTML = Kind("a balance study's report", lambda data: b"<title>Balance study</title>" in data[:4096])


def check_writable(path: Path) -> None:
    """Refuse (exit 1) a file that cannot be written: a FIFO, a device, a file on its way."""
    problem = output_file_problem(path)
    if problem:
        raise ForgeError([Diagnostic(f"cannot write {path}: {problem}")])


def check_package_target(target: Path, option: str, rules_dir: Path) -> None:
    """Refuse (exit 1), before anything is compiled, a package folder that cannot or must not be written."""
    in_rules = output_in_rules_problem(target, rules_dir, option)
    blocked = output_folder_problem(target)
    problems = [in_rules] if in_rules else []
    problems += [f"cannot write {target}: {blocked}"] if blocked else []
    if problems:
        raise ForgeError([Diagnostic(p) for p in problems])


def check_output_file(path: Path, kind: Kind, force: bool, option: str) -> None:
    """Refuse (exit 1) to write `path` when it cannot be written, or holds something else than `kind`.

    Called before the command does its work, so nothing is computed for a write that is refused.
    """
    if path == STDOUT:
        if kind.binary and sys.stdout.isatty():
            raise click.UsageError(f"{option} -: the standard output is a terminal; send {kind.what} into a file")
        return
    check_file_target(path, kind, force, option)


def check_file_target(path: Path, kind: Kind, force: bool, option: str) -> None:
    """check_output_file for an option where '-' names a file, not the standard output (`check --report`)."""
    check_writable(path)
    problem = foreign_file_problem(path, kind, force, option)
    if problem:
        raise ForgeError([Diagnostic(problem)])


def study_kind(name: str) -> Kind:
    """What a balance study writes as `name` (games.jsonl, report.md, report.html, its charts)."""
    kinds = {"games.jsonl": STUDY_RECORDS, "report.md": STUDY_MARKDOWN, "report.html": STUDY_HTML}
    return kinds.get(name, PICTURE)


def foreign_file_problem(path: Path, kind: Kind, force: bool, option: str, instead: str = "file") -> str | None:
    """Why writing `path` would replace a file the command did not write, or None: it is missing,
    empty, holds `kind`, or --force is given. `instead`: what to give instead ("file", "folder")."""
    if force:
        return None
    shown = str(path)  # as given, not resolved: it may be a link
    if not path.exists():
        if path.suffix.lower() in SPEC_SUFFIXES and spec_files(path.parent):
            return (
                f"{shown}: a new file there would be read as a spec file of the variant in {path.parent}; "
                f"give another {instead}, or --force"
            )
        return None
    try:
        data = read_regular_file(path, _MAX_LOOKED_AT)
    except UnreadableFile:
        data = b"?"  # too big or unreadable: not something this command wrote
    if not data or kind.ours(data):  # an empty file holds nothing to lose
        return None
    held = "a spec file" if path.suffix.lower() in SPEC_SUFFIXES else f"not {kind.what}"
    return f"{shown} exists and is {held}: {option} would replace it; give another {instead}, or --force"


def write_output(path: Path, content: bytes) -> bool:
    """Write the output to `path`, or to the standard output for `-`; whether a file was written."""
    from generator.emit.write import write_file

    if path == STDOUT:
        sys.stdout.buffer.write(content)
        sys.stdout.buffer.flush()
        return False
    write_file(path, content)
    return True


def print_or_write(out: Path | None, text: str, kind: Kind, force: bool) -> None:
    """`text` to the standard output, or (-o) into `out` when it may be written there (check_output_file)."""
    from generator.cli.group import _display

    if out is None:
        click.echo(text, nl=False)
        return
    check_output_file(out, kind, force, "-o")
    if write_output(out, text.encode("utf-8")):
        click.echo(f"wrote {_display(out)}")
