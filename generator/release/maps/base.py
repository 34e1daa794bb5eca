"""Where a package's base map comes from: a folder, a `-master.zip`, or the player's maps folder.

TripleA 1.9 keeps a downloaded map as `downloadedMaps/<map>-master.zip`, 2.6+ as a folder
`downloadedMaps/<map>/`; `package --base-map` takes either, and without it looks for the
variants' map in the player's own TripleA folder. A zip is unpacked into a temporary folder with
the same care as any archive from elsewhere: no entry may leave it, and its size is capped.
"""

from __future__ import annotations

import zipfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from tempfile import TemporaryDirectory

from generator.checks.board import board_missing, find_board, get_hint, map_names
from generator.checks.variant import CheckedVariant
from generator.diagnostics import one_line
from generator.errors import TripleaForgeError, UsageProblem
from generator.installed_map import MAX_MAP_ENTRIES as MAX_ENTRIES
from generator.installed_map import MapLookup, default_maps_folder, given_map_name
from generator.safe_zip import ZipRefused, copy_entry, entry_parts, open_zip
from generator.spec.resolve import Rules

MAX_UNPACKED = 2 * 1024 * 1024 * 1024  # the biggest real maps are a few hundred MB


class BaseMapError(TripleaForgeError):
    """Why the base map cannot be used, in one line."""


class NoBaseMap(BaseMapError, UsageProblem):
    """No base map was given and the variants' board is not installed: the command line must name one."""


def maps_folders() -> list[Path]:
    """Where TripleA keeps a player's maps ($TRIPLEA_MAPS, else ~/triplea/downloadedMaps)."""
    return [default_maps_folder()]


def installed(map_name: str) -> Path | None:
    """The player's copy of a map, a folder or a `-master.zip`, if TripleA has it."""
    found = MapLookup(search=maps_folders()).find(map_name)
    return found.location if found is not None else None


def own_name(base: Path) -> str:
    """The map name a base map folder gives itself (its map.yml), else the folder's name."""
    return given_map_name(base)


@contextmanager
def opened(base: Path) -> Iterator[Path]:
    """The base map as a folder: `base` itself, or a `-master.zip` unpacked for the duration."""
    if base.is_dir():
        yield base
        return
    if not zipfile.is_zipfile(base):
        raise BaseMapError(f"{base} is neither a map folder nor a zip")
    try:  # counted before it is listed (safe_zip): a zip of a million entries is no map
        archive = open_zip(base, MAX_ENTRIES)
    except ZipRefused as exc:
        raise BaseMapError(f"{base}: {exc}") from exc
    with archive, TemporaryDirectory(prefix="triplea-forge-map-") as tmp:
        infos = archive.infolist()
        if sum(info.file_size for info in infos) > MAX_UNPACKED:
            raise BaseMapError(f"{base} unpacks to more than any map: refusing it")
        root = Path(tmp)
        names = [PurePosixPath(info.filename) for info in infos]
        folders = {parent for name in names for parent in name.parents}
        folders |= {name for name, info in zip(names, infos, strict=True) if info.is_dir()}
        clash = min((name for name, info in zip(names, infos, strict=True) if not info.is_dir() and name in folders),
                    default=None)  # fmt: skip
        if clash is not None:
            raise BaseMapError(
                f"{base}: '{clash}' is both a file and a folder in the zip, which cannot be unpacked; repair the zip"
            )
        written = 0
        for info in infos:
            parts = entry_parts(info.filename)
            if not parts:
                raise BaseMapError(f"{base}: entry {one_line(repr(info.filename))} would leave the map's folder")
            target = root.joinpath(*parts)
            try:
                if info.is_dir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                with open(target, "wb") as out:  # the sizes a zip declares may lie: its bytes are counted
                    written += copy_entry(archive, info, out.write, MAX_UNPACKED - written)
            except ZipRefused as exc:
                raise BaseMapError(f"{base}: {exc}") from exc
            except OSError as exc:
                raise BaseMapError(f"{base}: cannot unpack entry {info.filename!r}: {exc.strerror or exc}") from exc
        tops = [p for p in root.iterdir() if p.is_dir()]
        yield tops[0] if len(tops) == 1 and not any(p.is_file() for p in root.iterdir()) else root


def made_on(rules: Rules, compiled: CheckedVariant) -> str:
    """The map a variant was made on, to get it from TripleA's maps: the last map its chain of
    variants names (a mod with a map name of its own extends a variant on an official map)."""
    return map_names(rules, compiled.resolved, compiled.spec.game.map)[-1]


def installed_board(rules: Rules, compiled: Mapping[str, CheckedVariant]) -> tuple[Path, list[str]]:
    """The package's base map when none is given: its variants' board in the player's maps
    folder, found as every command finds it (checks.board.find_board); and the lines saying so."""
    lookup = MapLookup(search=maps_folders())
    boards = {name: find_board(item.spec, item.resolved, rules, lookup) for name, item in sorted(compiled.items())}
    first = compiled[min(compiled)]
    found = boards[first.name]
    if found is None:
        names = map_names(rules, first.resolved, first.spec.game.map)
        raise NoBaseMap(f"no base map: {board_missing(names, lookup)}; {get_hint(names)}")
    return found.location, lookup.board_lines()
