"""What the engine's JVM may touch, and how it is stopped.

A game XML comes from anyone. The engine's parser resolves whatever DTD a DOCTYPE names and
expands the entities of an internal subset, so a hostile file could make it fetch a URL and send a
local file's content with it. Three fences: the file the engine reads carries TripleA's own
DOCTYPE only (a copy is given when the original says anything else); the harness refuses any
other DOCTYPE before the engine parses (java/SafeInput.java); and the JVM's XML parsers may not
use the network at all (`javax.xml.accessExternalDTD=file`: the engine's own `game.dtd` is a
`jar:file:` URL, which JAXP counts as `file`).

A JVM (or javac) that runs too long is killed with its whole process group, so a wrapper script
that did not `exec` cannot leave a child holding our pipes open.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
from collections.abc import Sequence
from pathlib import Path

# JAXP limits for every parser in the JVM: DTDs and external entities from local files only
# (the jar's game.dtd), no schemas or stylesheets from anywhere.
JVM_XML_FENCES = (
    "-Djavax.xml.accessExternalDTD=file",
    "-Djavax.xml.accessExternalSchema=",
    "-Djavax.xml.accessExternalStylesheet=",
)
ENGINE_DOCTYPE = b'<!DOCTYPE game SYSTEM "game.dtd">'
# The prolog: XML declaration, comments, processing instructions and the DOCTYPE, whose internal
# subset (in brackets) may hold quoted brackets and comments.
_DOCTYPE = re.compile(
    rb"<!DOCTYPE(?:[^\[>\"']|\"[^\"]*\"|'[^']*')*(?:\[(?:[^\]\"'<]|\"[^\"]*\"|'[^']*'|<!--.*?-->|<[^>]*>)*\]\s*)?>",
    re.DOTALL,
)
_OURS = re.compile(rb'<!DOCTYPE\s+game\s+SYSTEM\s+"game\.dtd"\s*>')
_PROLOG_BYTES = 1 << 20  # a DOCTYPE sits before the root element, long before this


def foreign_doctype(path: Path) -> str | None:
    """The file's DOCTYPE when it is anything but TripleA's own (shortened for a message)."""
    with open(path, "rb") as stream:
        head = stream.read(_PROLOG_BYTES)
    found = _DOCTYPE.search(head, 0, _root_start(head))
    if found is None or _OURS.fullmatch(found.group()):
        return None
    text = " ".join(found.group().decode("utf-8", "replace").split())
    return text if len(text) <= 80 else text[:77] + "..."


def engine_input(path: Path, folder: Path, index: int) -> Path:
    """`path`, or a copy in `folder` whose DOCTYPE is TripleA's own, for the engine to read."""
    with open(path, "rb") as stream:
        head = stream.read(_PROLOG_BYTES)
        found = _DOCTYPE.search(head, 0, _root_start(head))
        if found is None or _OURS.fullmatch(found.group()):
            return path
        copy = folder / f"input-{index}.xml"
        with open(copy, "wb") as out:
            # The same number of lines, so the engine's messages point at the original's lines.
            newlines = b"\n" * found.group().count(b"\n")
            out.write(head[: found.start()] + ENGINE_DOCTYPE + newlines + head[found.end() :])
            while chunk := stream.read(1 << 20):
                out.write(chunk)
    return copy


def _root_start(head: bytes) -> int:
    """Where the root element starts: a DOCTYPE after it is not one."""
    at = 0
    while True:
        at = head.find(b"<", at)
        if at < 0:
            return len(head)
        if head.startswith((b"<?", b"<!"), at):
            end = head.find(b"-->", at) + 3 if head.startswith(b"<!--", at) else at + 2
            if head.startswith(b"<!DOCTYPE", at):
                found = _DOCTYPE.match(head, at)
                end = found.end() if found else at + 2
            at = max(end, at + 2)
            continue
        return at


def kill_group(proc: subprocess.Popen[str] | subprocess.Popen[bytes]) -> None:
    """Kill a process started with `start_new_session=True` and everything it started."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        proc.kill()


def run_group(cmd: Sequence[str], timeout: float | None, **options: object) -> subprocess.CompletedProcess[str]:
    """`subprocess.run` (text, captured) in a process group of its own, all of it killed on timeout."""
    with subprocess.Popen(  # type: ignore[call-overload]
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, **options
    ) as proc:
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            kill_group(proc)
            # What it printed before: a caller reading results line by line keeps the finished ones.
            exc.output, exc.stderr = proc.communicate()
            raise
        return subprocess.CompletedProcess(cmd, proc.returncode, out, err)
