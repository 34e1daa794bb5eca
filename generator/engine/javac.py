"""The Java shipped in generator/engine (the harness in java/, the client's driver in client/),
compiled against the installed TripleA jar on first use and cached under
``${XDG_CACHE_HOME:-~/.cache}/triplea-forge/<kind>-<hash>/``: a folder per sources and jar.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from generator.engine.errors import HarnessError
from generator.engine.sandbox import run_group
from generator.paths import cache_dir

COMPILE_TIMEOUT = 600.0  # javac of the harness takes about 5 s; a hang must not block a check


def compiled_classes(javac: str, jar: Path, folder: str, kind: str, marker: str) -> Path:
    """The classes of the .java files in generator/engine/<folder>, compiled against `jar` into the
    user's cache (a folder per sources and jar: `<kind>-<hash>`), compiling them if needed; `marker`
    is a class file only a complete compile leaves."""
    sources = _java_sources(folder)
    key = _cache_key(sources, jar)
    root = cache_dir()
    target = root / f"{kind}-{key}"
    if (target / marker).is_file():
        return target
    root.mkdir(parents=True, exist_ok=True)
    # Compile into a private temp dir and rename it into place, so a concurrent run or an
    # interrupted compile never leaves a half-filled cache entry that looks valid.
    tmp = Path(tempfile.mkdtemp(prefix=f".tmp-{kind}-", dir=root))
    try:
        src_dir = tmp / "src"
        src_dir.mkdir()
        # The sources may sit inside a wheel/zip, so copy their text out for javac.
        for name, text in sources:
            (src_dir / name).write_text(text, encoding="utf-8")
        cmd = [
            javac,
            "-encoding",
            "UTF-8",
            "-nowarn",
            # The jar's manifest Class-Path names libraries Debian does not ship: harmless noise.
            "-Xlint:-path",
            "-cp",
            str(jar),
            "-d",
            str(tmp),
            *sorted(str(src_dir / name) for name, _ in sources),
        ]
        try:
            proc = run_group(cmd, COMPILE_TIMEOUT)
        except subprocess.TimeoutExpired as exc:
            raise HarnessError(f"javac did not finish the engine {kind} in {COMPILE_TIMEOUT:g} s") from exc
        if proc.returncode != 0:
            raise HarnessError(f"javac failed for the engine {kind}:\n{proc.stdout}{proc.stderr}")
        try:
            tmp.rename(target)
        except OSError:
            # Another process won the race; its result is equivalent to ours.
            if not (target / marker).is_file():
                raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def _java_sources(folder: str) -> list[tuple[str, str]]:
    """(file name, text) of every .java file in generator/engine/<folder>, sorted by name so the hash is stable."""
    found: Traversable = resources.files("generator.engine") / folder
    sources = sorted(
        (entry.name, entry.read_text(encoding="utf-8"))
        for entry in found.iterdir()
        if entry.name.endswith(".java") and entry.is_file()
    )
    if not sources:
        raise HarnessError(f"no Java sources found in generator/engine/{folder}")
    return sources


def _cache_key(sources: Sequence[tuple[str, str]], jar: Path) -> str:
    # The jar's size and mtime stand in for its content: a different engine build needs a recompile.
    digest = hashlib.sha256()
    for name, text in sources:
        digest.update(name.encode() + b"\0" + text.encode("utf-8") + b"\0")
    stat = jar.stat()
    digest.update(f"{jar.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}".encode())
    return digest.hexdigest()
