"""Where a command writes what the user names (`-o`, `--picture`, `--report`, `package --out`).

Checked before the command does its work: a FIFO or a device is never written (it would block
the write forever, or be replaced; paths.output_file_problem), a package never goes into the
rules folder, and an existing file is replaced only when it is what the command writes (a PNG
for a picture, a schema for `schema -o`...) or with --force: a typo must not turn a spec file
into a picture. `-` is the standard output.
"""

from __future__ import annotations

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


PICTURE = Kind("a PNG picture", lambda data: data.startswith(PNG_SIGNATURE), binary=True)
SCHEMA = Kind("a spec schema", lambda data: b'"title": "triplea-forge spec file"' in data)
PATTERNS = Kind("a pattern reference", lambda data: data.startswith((b"# Rule patterns", b"## `")))


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
    check_writable(path)
    if force:
        return
    shown = str(path)  # as given, not resolved: it may be a link
    if not path.exists():
        if path.suffix.lower() in SPEC_SUFFIXES and spec_files(path.parent):
            raise ForgeError([Diagnostic(
                f"{shown}: a new file there would be read as a spec file of the variant in {path.parent}; "
                "give another file, or --force"
            )])  # fmt: skip
        return
    try:
        data = read_regular_file(path, _MAX_LOOKED_AT)
    except UnreadableFile:
        data = b"?"  # too big or unreadable: not something this command wrote
    if not data or kind.ours(data):  # an empty file holds nothing to lose
        return
    held = "a spec file" if path.suffix.lower() in SPEC_SUFFIXES else f"not {kind.what}"
    raise ForgeError(
        [Diagnostic(f"{shown} exists and is {held}: {option} would replace it; give another file, or --force")]
    )


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
