"""What the engine's JVM may touch, and how it is stopped.

A game XML comes from anyone. The engine's parser resolves whatever DTD a DOCTYPE names and
expands the entities of an internal subset, so a hostile file could make it fetch a URL and send a
local file's content with it. Three fences: the file the engine reads carries TripleA's own
DOCTYPE only (a copy is given when the original says anything else); the harness refuses any
other DOCTYPE before the engine parses (java/SafeInput.java); and the JVM's XML parsers may not
use the network at all (`javax.xml.accessExternalDTD=file`: the engine's own `game.dtd` is a
`jar:file:` URL, which JAXP counts as `file`).

A JVM (or javac) that runs too long is killed with its whole process group, so a wrapper script
that did not `exec` cannot leave a child holding our pipes open; one that prints a line per result
may also be killed when it has printed nothing for a while (`run_group(idle_timeout=...)`).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import threading
import time
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


class WentQuiet(subprocess.TimeoutExpired):
    """The process printed no line to stdout for longer than `run_group`'s idle_timeout."""


def run_group(
    cmd: Sequence[str], timeout: float | None, *, idle_timeout: float | None = None, **options: object
) -> subprocess.CompletedProcess[str]:
    """`subprocess.run` (text, captured) in a process group of its own, all of it killed on timeout,
    or, with IDLE_TIMEOUT, when it has printed no line to stdout for that long."""
    with subprocess.Popen(  # type: ignore[call-overload]
        cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True, **options
    ) as proc:
        if idle_timeout is not None:
            return _run_watched(proc, cmd, timeout, idle_timeout)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired as exc:
            kill_group(proc)
            # What it printed before: a caller reading results line by line keeps the finished ones.
            exc.output, exc.stderr = proc.communicate()
            raise
        return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def _run_watched(
    proc: subprocess.Popen[str], cmd: Sequence[str], timeout: float | None, idle_timeout: float
) -> subprocess.CompletedProcess[str]:
    """Wait for PROC, reading its output as it comes; kill its group when it goes quiet or runs out of time."""
    out: list[str] = []
    err: list[str] = []
    last_line = [time.monotonic()]

    def read_out() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            out.append(line)
            last_line[0] = time.monotonic()

    def read_err() -> None:
        assert proc.stderr is not None
        err.append(proc.stderr.read())

    readers = [threading.Thread(target=read_out, daemon=True), threading.Thread(target=read_err, daemon=True)]
    for reader in readers:
        reader.start()
    started = time.monotonic()
    while proc.poll() is None:
        now = time.monotonic()
        quiet, spent = now - last_line[0], now - started
        if quiet > idle_timeout or (timeout is not None and spent > timeout):
            kill_group(proc)
            for reader in readers:
                reader.join()
            kind = WentQuiet if quiet > idle_timeout else subprocess.TimeoutExpired
            raise kind(list(cmd), spent, output="".join(out), stderr="".join(err))
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=0.5)
    for reader in readers:
        reader.join()
    return subprocess.CompletedProcess(cmd, proc.returncode, "".join(out), "".join(err))
