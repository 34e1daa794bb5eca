"""Remember finished builds, so a build whose inputs have not changed costs almost nothing.

A build is keyed by a fingerprint of what every build reads: every spec file of every variant
folder under rules/ (symlinked folders too), the templates, the generator's own code and
catalogs, the installed engine's game.dtd (the grammar the XML is checked against) and the
command's options. What only this build read is recorded with it and must read
the same again: each picture a unit's `image:` names, wherever under rules/ it is (by its
SHA-256, as the checks read it), and each map it checked against (by a stamp of what it read of
it, installed_map.MapLookup.stamp). After a build, the key is taken again with the spec files'
content as the build read it, so a file saved while the build ran never files new outputs under
an old key. Within one process (`watch`, a test session) the code is read once (it is the code the
process runs), and any other file's digest is kept while its status (times, size, inode) stays the
same, once it has been left alone for a while: reading the code, the templates and the engine's
jar again cost more than most builds of a small spec.
What it made (each output file's SHA-256) and the warnings it printed are kept in the user's
cache. When the same fingerprint comes again and every output file still has its recorded
content, the build is already done: nothing is parsed or rendered. Standard library only, so the
check itself starts fast.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import time
import zipfile
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path, PurePosixPath
from typing import Any, TypeGuard

from generator.paths import (
    DTD_IN_JAR,
    UnreadableFile,
    base_rules_dir,
    cache_dir,
    engine_jar,
    read_regular_file,
    spec_files,
    variant_folders,
)

_PACKAGE = Path(__file__).parents[1]  # the whole generator package
_CODE_SUFFIXES = (".py", ".json", ".java", ".j2")
_MAX_RECORD = 64 << 20  # a build's record: a line for each file it made and read


def _files(root: Path, suffixes: tuple[str, ...] | None = None) -> list[tuple[str, str]]:
    """(path relative to ROOT in / form, full path) of each file below ROOT (not through linked
    folders), in path order. Every build lists the code and the templates: this reads directory
    entries as strings, without a status call per file where the entry's type says enough."""
    if not root.is_dir():
        return []
    found: list[tuple[str, str]] = []
    folders = [("", str(root))]
    while folders:
        relative, folder = folders.pop()
        with os.scandir(folder) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        folders.append((relative + entry.name + "/", entry.path))
                elif entry.is_file() and (suffixes is None or os.path.splitext(entry.name)[1] in suffixes):
                    found.append((relative + entry.name, entry.path))
    return sorted(found, key=lambda file: file[0].split("/"))


# A file whose status changed less than this long ago may change again without its times showing it
# (they advance in steps of the clock's tick): its digest is not kept (git's "racy" index entries).
_SETTLED_NS = 2_000_000_000
# path -> (its status when read, the SHA-256 of what was read), for files settled when read.
_DIGESTS: dict[str | Path, tuple[tuple[int, ...], bytes]] = {}


def _read_bytes(path: str | Path) -> bytes:
    with open(path, "rb") as file:
        return file.read()


def _sha256(path: str | Path, read: Callable[[Any], bytes]) -> bytes:
    """The SHA-256 of read(path), kept while the file's status is the one it had when read."""
    try:
        status = os.stat(path)
    except OSError:
        return hashlib.sha256(read(path)).digest()  # read says what is wrong, as without the cache
    key = (status.st_mtime_ns, status.st_ctime_ns, status.st_size, status.st_ino, status.st_dev)
    known = _DIGESTS.get(path)
    if known is not None and known[0] == key:
        return known[1]
    digest = hashlib.sha256(read(path)).digest()
    # Any later write moves the status change time past the settled one seen here.
    if stat.S_ISREG(status.st_mode) and time.time_ns() - status.st_ctime_ns > _SETTLED_NS:
        _DIGESTS[path] = (key, digest)
    return digest


def _content_digest(path: Path) -> str:
    try:
        return _sha256(path, lambda p: read_regular_file(p, 1 << 30)).hex()
    except UnreadableFile as exc:
        return f"unreadable: {exc}"  # the build reports it; a FIFO must not hang the fingerprint


def fingerprint(
    rules_dir: Path, templates_dir: Path, options: Iterable[str], read: Mapping[Path, str] | None = None
) -> str:
    """The key of a build; `read` holds the digests of spec files as the build read them."""
    read = read or {}
    digest = hashlib.sha256()
    roots = [("rules", rules_dir)]
    base = base_rules_dir()  # the shipped variants a mod's variants may extend
    if base.is_dir() and (not rules_dir.is_dir() or base.resolve() != rules_dir.resolve()):
        roots.append(("base", base))
    for label, root in roots:
        for folder in variant_folders(root):
            for path in spec_files(folder):
                digest.update(f"{label}/{folder.name}/{path.name}\0".encode())
                digest.update((read.get(path) or _content_digest(path)).encode())
    for relative, full in _files(templates_dir):
        digest.update(f"templates/{relative}\0".encode())
        digest.update(_sha256(full, _read_bytes))
    digest.update(_code_digest())
    digest.update(f"engine-dtd\0{_engine_dtd_digest()}\0".encode())
    digest.update("\0".join(options).encode())
    return digest.hexdigest()


@cache
def _code_digest() -> bytes:
    """The generator's own code and catalogs, read once a process.

    A process runs the code it imported: were the code read again at each build (`watch`), a
    build by the old code would be filed under the new code's key, and a later process would
    take its outputs for its own. Once a process it is also a status call fewer for each of
    ~200 files at every build (about a tenth of an in-process build of a small spec).
    """
    digest = hashlib.sha256()
    for relative, full in _files(_PACKAGE, _CODE_SUFFIXES):
        digest.update(f"code/{relative}\0".encode())
        digest.update(_sha256(full, _read_bytes))
    return digest.digest()


def _engine_dtd_digest() -> str:
    """The SHA-256 of the engine's game.dtd, as checks.dtd reads it; "none" without an engine."""
    try:
        return _sha256(engine_jar(), _dtd_in_jar).hex()
    except (OSError, KeyError, zipfile.BadZipFile):
        return "none"


def _dtd_in_jar(jar: Path) -> bytes:
    with zipfile.ZipFile(jar) as archive:
        return archive.read(DTD_IN_JAR)


def other_reads(reads: Mapping[Path, str], rules_dir: Path) -> dict[str, str]:
    """The files a build read besides the spec files, as recorded: by their place under the
    rules folder when they are in it (the same project elsewhere reads its own), else as is."""
    recorded: dict[str, str] = {}
    for path, sha in reads.items():
        try:
            recorded["rules/" + path.relative_to(rules_dir).as_posix()] = sha
        except ValueError:
            recorded[str(path.absolute())] = sha
    return dict(sorted(recorded.items()))


def _read_again(name: str, rules_dir: Path) -> Path:
    return rules_dir / name.removeprefix("rules/") if name.startswith("rules/") else Path(name)


def recall(
    key: str, output_dir: Path, rules_dir: Path, stamp: Callable[[str], str] | None = None
) -> dict[str, Any] | None:
    """The recorded build for `key`, if every file it read and made is still on disk unchanged.

    `stamp` gives a map's stamp now: every map the build checked against must give the one recorded.
    """
    try:
        record = json.loads(read_regular_file(cache_dir("builds") / f"{key}.json", _MAX_RECORD))
    except (UnreadableFile, ValueError):
        return None
    if not _well_formed(record):
        return None  # written by no build of ours (or cut short): rebuilt, and `remember` replaces it
    for name, recorded in record.get("maps", {}).items():
        if stamp is None or stamp(name) != recorded:
            return None
    for name, sha in record.get("reads", {}).items():
        if _content_digest(_read_again(name, rules_dir)) != sha:
            return None
    for rel, sha in record.get("files", {}).items():
        path = output_dir / rel
        if not path.is_file() or _content_digest(path) != sha:
            return None
    return record


def _well_formed(record: object) -> TypeGuard[dict[str, Any]]:
    """Whether `record` has the shape `remember` writes: a build answered from it reads each
    value as written there, and names no output but a plain path inside the output folder."""
    if not isinstance(record, dict):
        return False
    for field in ("files", "maps", "reads"):  # mappings of texts to texts
        value = record.get(field, {})
        if not isinstance(value, dict) or not all(isinstance(x, str) for pair in value.items() for x in pair):
            return False
    for field in ("warnings", "boards"):  # lists of texts
        value = record.get(field, [])
        if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
            return False
    # Names read again as paths (a NUL in one is a ValueError of the file system calls, not an OSError).
    named = [*record.get("reads", {}), *record.get("maps", {})]
    return all(_plain(rel) for rel in record.get("files", {})) and all(name.isprintable() for name in named)


def _plain(rel: str) -> bool:
    parts = PurePosixPath(rel).parts
    return bool(parts) and not PurePosixPath(rel).is_absolute() and ".." not in parts and rel.isprintable()


def remember(
    key: str,
    files: Mapping[str, bytes],
    warnings: list[str],
    maps: Mapping[str, str] | None = None,
    reads: Mapping[str, str] | None = None,
    boards: list[str] | None = None,
) -> None:
    """Record a finished build: what it made, what it printed, the maps and other files it read,
    and the boards it said it used (a build answered from the cache says them again)."""
    record = {
        "files": {rel: hashlib.sha256(data).hexdigest() for rel, data in sorted(files.items())},
        "warnings": warnings,
        "maps": dict(maps or {}),
        "reads": dict(reads or {}),
        "boards": list(boards or []),
    }
    try:
        folder = cache_dir("builds")
        folder.mkdir(parents=True, exist_ok=True)
        temporary = folder / f".{key}.{os.getpid()}"
        temporary.write_text(json.dumps(record, sort_keys=True), encoding="utf-8")
        os.replace(temporary, folder / f"{key}.json")
    except OSError:
        pass  # a read-only cache only costs time
