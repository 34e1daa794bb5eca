"""Stage 6, write: put generated files in place atomically, or report which ones are stale.

All files are first written into a temporary folder next to the output folder; only when every
file is written are they moved into place (one rename each), so an interrupted build never leaves
a half-written file. Unchanged files are not touched, which keeps no-op rebuilds fast.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path


def stale_files(out_dir: Path, files: Mapping[str, bytes]) -> list[str]:
    """Relative paths whose content on disk differs from `files` (missing counts as stale)."""
    stale = []
    for rel, content in sorted(files.items()):
        path = out_dir / rel
        if not path.is_file() or path.read_bytes() != content:
            stale.append(rel)
    return stale


def write_files(out_dir: Path, files: Mapping[str, bytes]) -> list[str]:
    """Write the stale ones of `files` under `out_dir`; returns what was written."""
    changed = stale_files(out_dir, files)
    if not changed:
        return []
    for rel in changed:
        if Path(rel).is_absolute() or ".." in Path(rel).parts:
            raise ValueError(f"refusing to write outside the output folder: {rel}")
    out_dir.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".forge-", dir=out_dir.parent))
    try:
        for rel in changed:
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(files[rel])
        for rel in changed:
            final = out_dir / rel
            final.parent.mkdir(parents=True, exist_ok=True)
            os.replace(staging / rel, final)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return changed


def orphans(out_dir: Path, files: Mapping[str, bytes], folder: str = "games") -> list[str]:
    """Generated-looking files under `out_dir/folder` that no variant makes any more."""
    base = out_dir / folder
    if not base.is_dir():
        return []
    found = (p.relative_to(out_dir).as_posix() for p in base.iterdir() if p.is_file())
    return sorted(rel for rel in found if rel not in files and rel.endswith((".xml", ".notes.html")))


def remove_files(out_dir: Path, rels: list[str]) -> None:
    for rel in rels:
        (out_dir / rel).unlink(missing_ok=True)
