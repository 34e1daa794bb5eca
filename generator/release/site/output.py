"""The site written into its folder: every file in one switch (emit.write), and what the site no longer has removed.

The folder holds the site and nothing else, so a page of a variant no longer built goes; a folder that
is not a site of ours (its index.html lacks our mark) is written into only with --force, and then
nothing in it is removed.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from generator.diagnostics import Diagnostic, ForgeError
from generator.emit.ownership import ours
from generator.emit.write import write_files


def is_site(folder: Path) -> bool:
    """A folder a site was written into: its index.html carries our mark."""
    return ours(folder / "index.html")


def _held(folder: Path) -> list[str]:
    """Every file in `folder`, but emit.write's own (`.forge*`, a switch under way)."""
    found = (p.relative_to(folder) for p in folder.rglob("*") if p.is_file() or p.is_symlink())
    return sorted(rel.as_posix() for rel in found if not rel.parts[0].startswith(".forge"))


def write_site(out: Path, files: Mapping[str, bytes], force: bool, display: str) -> tuple[list[str], list[str]]:
    """Write `files` into `out` (the changed ones); remove what a site of ours there has beyond them.
    Returns (written, removed)."""
    held = _held(out) if out.is_dir() else []
    ours_there = is_site(out)
    if held and not ours_there and not force:
        shown = ", ".join(held[:3]) + (", ..." if len(held) > 3 else "")
        message = (
            f"{display}/ holds files that are not a site triplea-forge wrote ({shown}); the site replaces the "
            "folder's content: choose another folder, or --force to write into it (nothing of it is removed)"
        )
        raise ForgeError([Diagnostic(message)])
    gone = [rel for rel in held if rel not in files] if ours_there else []
    return write_files(out, files, gone, display), gone
