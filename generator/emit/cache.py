"""Remember finished builds, so a build whose inputs have not changed costs almost nothing.

A build is keyed by a fingerprint of everything it reads: every file under rules/, the templates,
the generator's own code and catalogs, and the command's options. What it made (each output file's
SHA-256) and the warnings it printed are kept in the user's cache. When the same fingerprint comes
again and every output file still has its recorded content, the build is already done: nothing
is parsed or rendered. Standard library only, so the check itself starts fast.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from generator.paths import cache_dir

_PACKAGE = Path(__file__).parents[1]  # the whole generator package
_CODE_SUFFIXES = (".py", ".json", ".java", ".j2")


def _files(root: Path, suffixes: tuple[str, ...] | None = None) -> Iterable[Path]:
    if not root.is_dir():
        return []
    found = (p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    return sorted(p for p in found if suffixes is None or p.suffix in suffixes)


def fingerprint(rules_dir: Path, templates_dir: Path, options: Iterable[str]) -> str:
    digest = hashlib.sha256()
    for label, root, suffixes in (
        ("rules", rules_dir, None),
        ("templates", templates_dir, None),
        ("code", _PACKAGE, _CODE_SUFFIXES),
    ):
        for path in _files(root, suffixes):
            digest.update(f"{label}/{path.relative_to(root).as_posix()}\0".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    digest.update("\0".join(options).encode())
    return digest.hexdigest()


def recall(key: str, output_dir: Path) -> dict[str, Any] | None:
    """The recorded build for `key`, if every file it made is still on disk unchanged."""
    try:
        record: dict[str, Any] = json.loads((cache_dir("builds") / f"{key}.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    for rel, sha in record.get("files", {}).items():
        path = output_dir / rel
        if not path.is_file() or hashlib.sha256(path.read_bytes()).hexdigest() != sha:
            return None
    return record


def remember(key: str, files: Mapping[str, bytes], warnings: list[str]) -> None:
    record = {
        "files": {rel: hashlib.sha256(data).hexdigest() for rel, data in sorted(files.items())},
        "warnings": warnings,
    }
    try:
        folder = cache_dir("builds")
        folder.mkdir(parents=True, exist_ok=True)
        temporary = folder / f".{key}.{os.getpid()}"
        temporary.write_text(json.dumps(record, sort_keys=True), encoding="utf-8")
        os.replace(temporary, folder / f"{key}.json")
    except OSError:
        pass  # a read-only cache only costs time
