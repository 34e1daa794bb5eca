"""Which packages are ours: a package's map.yml (in its folder, or in its zip) carries our marker.

A package replaces only what is ours (or anything, with --force), and never takes a package of
ours for a base map's art (an --out once pointed inside the base map would make each package
hold the previous one).
"""

from __future__ import annotations

from pathlib import Path

from generator.emit.ownership import MARKER, ours
from generator.installed_map import MAX_MAP_ENTRIES
from generator.safe_zip import ZipRefused, open_zip, read_entry


def is_ours(folder: Path) -> bool:
    """Whether a folder is a package of ours: its map.yml carries our marker."""
    return ours(folder / "map.yml")


def zip_is_ours(archive: Path) -> bool:
    """Whether a zip is a package of ours: its `<map>-master/map.yml` carries our marker."""
    try:  # counted before it is listed (safe_zip): a package holds a map's few thousand files
        with open_zip(archive, MAX_MAP_ENTRIES) as opened:
            for info in opened.infolist():
                if info.filename.count("/") == 1 and info.filename.endswith("-master/map.yml"):
                    return MARKER in read_entry(opened, info, 1 << 20)[:200]
    except ZipRefused:
        pass
    return False


def earlier_packages(root: Path, paths: list[Path]) -> set[Path]:
    """Packages of ours (folders and zips) among `paths`, the files under a map's art."""
    found = {p.parent for p in paths if p.name == "map.yml" and p.parent != root and is_ours(p.parent)}
    found |= {p for p in paths if p.name.endswith("-master.zip") and p.is_file() and zip_is_ours(p)}
    return found
