"""The Java shipped in generator/engine (the harness in java/, the client's driver in client/),
compiled against the installed TripleA jar on first use and cached under
``${XDG_CACHE_HOME:-~/.cache}/triplea-forge/<kind>-<hash>/``: a folder per sources and jar.

The harness is compiled with the proofs of the rules folders in use (`rules/<variant>/proofs/*.java`,
see generator/catalog/scenarios.py), and `PROOF_LIST` in its classes names the proofs' classes for
the scenario driver, which plays those that implement `forge.Proof`.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from generator.catalog.scenarios import proof_folders
from generator.engine.errors import HarnessError
from generator.engine.sandbox import run_group
from generator.paths import cache_dir

COMPILE_TIMEOUT = 600.0  # javac of the harness takes about 5 s; a hang must not block a check
# Where the compiled harness lists the proofs' classes for forge.Scenario (its getResource("proofs.txt")).
PROOF_LIST = "forge/proofs.txt"
_PROOF_API = ("Proof.java", "AnyGameProofs.java")  # with java/Scenario*.java: what scenarios are built on
_PACKAGE = re.compile(r"^\s*package\s+([\w.]+)\s*;", re.M)


def compiled_classes(
    javac: str, jar: Path, folder: str, kind: str, marker: str, extra: Sequence[tuple[str, str]] = ()
) -> Path:
    """The classes of the .java files in generator/engine/<folder> and the EXTRA (file name, text)
    sources, compiled against `jar` into the user's cache (a folder per sources and jar:
    `<kind>-<hash>`), compiling them if needed; `marker` is a class file only a complete compile
    leaves. With EXTRA, `PROOF_LIST` in the classes names the classes of the extra sources."""
    sources = _java_sources(folder)
    taken = {name for name, _ in sources}
    clash = next((name for name, _ in extra if name in taken), None)
    if clash is not None:
        raise HarnessError(f"a proof's {clash} has the name of a file of the engine {kind}, or of another proof")
    sources = [*sources, *extra]
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
            said = f"{proc.stdout}{proc.stderr}".replace(f"{src_dir}{os.sep}", "")  # each file by its name
            proofs = " (with the proofs in use: rules/*/proofs/*.java)" if extra else ""
            raise HarnessError(f"javac failed for the engine {kind}{proofs}:\n{said}")
        if extra:
            (tmp / PROOF_LIST).parent.mkdir(parents=True, exist_ok=True)
            (tmp / PROOF_LIST).write_text("".join(f"{_class_name(name, text)}\n" for name, text in extra), "utf-8")
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


def proof_sources() -> list[tuple[str, str]]:
    """(file name, text) of the .java files of every proofs folder in use, in the folders' order; a
    file name twice is an error (the classes of one package, `forge`, share one folder)."""
    found: dict[str, Path] = {}
    for folder in proof_folders():
        for path in sorted(folder.glob("*.java")):
            if path.name in found:
                raise HarnessError(f"two proofs are named {path.name}: {found[path.name]} and {path}")
            found[path.name] = path
    return [(name, path.read_text(encoding="utf-8")) for name, path in found.items()]


def scenario_sources() -> list[tuple[str, str]]:
    """What the engine scenarios are made of: the driver and the proof API in generator/engine/java
    (Scenario*.java, Proof.java, AnyGameProofs.java), then every proof in use (`proof_sources`)."""
    api = [(n, s) for n, s in _java_sources("java") if n.startswith("Scenario") or n in _PROOF_API]
    return [*api, *proof_sources()]


def _class_name(file_name: str, text: str) -> str:
    package = _PACKAGE.search(text)
    stem = file_name.removesuffix(".java")
    return f"{package.group(1)}.{stem}" if package else stem


def _cache_key(sources: Sequence[tuple[str, str]], jar: Path) -> str:
    # The jar's size and mtime stand in for its content: a different engine build needs a recompile.
    digest = hashlib.sha256()
    for name, text in sources:
        digest.update(name.encode() + b"\0" + text.encode("utf-8") + b"\0")
    stat = jar.stat()
    digest.update(f"{jar.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}".encode())
    return digest.hexdigest()
