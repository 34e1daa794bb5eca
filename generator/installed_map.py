"""A TripleA map as a player has it installed: where it is, its board files, its unit pictures.

Shared by the checks (every territory on the board, every unit with a picture), the package and
the pictures of a game. A map is a folder or a zip (1.9 keeps `<map>-master.zip` as it is); its
art sits in its content root, the folder holding `polygons.txt` (`map/` or the top), as both
engines find it. The engine's stock unit art (the `assets/units/<player>/` folders installed
beside its jar) is the fallback both engines use for a unit picture the map lacks.
"""

from __future__ import annotations

import hashlib
import os
import re
import zipfile
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import yaml

from generator.paths import UnreadableFile, engine_jar, read_regular_file
from generator.safe_zip import ZipRefused, open_zip, read_entry

MAX_MAP_FILE = 64 << 20  # a board file or a picture; real maps' polygons.txt are a few MB
MAX_MAP_ENTRIES = 50_000  # files of a map's zip: real maps hold a few thousand (tiles, unit pictures)
# The board files the engines (and our checks) read, each into a part of the Board.
BOARD_FILES = ("polygons.txt", "centers.txt", "vc.txt", "capitols.txt", "pu_place.txt", "place.txt")
_POINT = re.compile(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")
Point = tuple[int, int]


def normalized_map_name(map_name: str) -> str:
    """TripleA 1.9's normalised map name (ResourceLoader.normalizeMapName), as in its zips' names."""
    spaced = map_name.replace(" ", "_")
    return re.sub(r"(?<=[a-z])(?=[A-Z])", "_", spaced).lower()


def default_maps_folder() -> Path:
    """Where both engines keep downloaded maps: $TRIPLEA_MAPS, else ~/triplea/downloadedMaps."""
    given = os.environ.get("TRIPLEA_MAPS")
    return Path(given) if given else Path.home() / "triplea" / "downloadedMaps"


def given_map_name(location: Path) -> str:
    """The name a map folder or zip gives itself: its map.yml's `map_name`, else its file name
    (without `.zip` and the `-master` of a 1.9 download)."""
    for listing in (location / "map.yml", location / "map" / "map.yml"):
        try:
            data = yaml.safe_load(read_regular_file(listing, 1 << 20)) if listing.is_file() else None
        except (UnreadableFile, yaml.YAMLError):
            data = None
        if isinstance(data, dict) and isinstance(data.get("map_name"), str) and data["map_name"]:
            return str(data["map_name"])
    return location.name.removesuffix(".zip").removesuffix("-master")


def stock_units_folder() -> Path | None:
    """The engine's stock unit art (`assets/units` beside `bin/triplea.jar`), if installed."""
    folder = engine_jar().parent.parent / "assets" / "units"
    return folder if folder.is_dir() else None


def unit_pictures(folder: Path | None) -> frozenset[tuple[str, str]]:
    """(player, picture name without .png) of every `<player>/<name>.png` under `folder`."""
    if folder is None:
        return frozenset()
    found: set[tuple[str, str]] = set()
    for player in folder.iterdir():
        if player.is_dir():
            found.update((player.name, p.name[:-4]) for p in player.iterdir() if p.name.endswith(".png"))
    return frozenset(found)


def _name_before(line: str, mark: str) -> str:
    # As the engine's point-file reader: the name is everything before the first marker.
    return line[: line.index(mark)].strip() if mark in line else ""


def _points(text: str) -> list[Point]:
    return [(int(x), int(y)) for x, y in _POINT.findall(text)]


@dataclass
class Board:
    """The map's geometry by territory name, as the engines read it from the content root."""

    polygons: dict[str, list[list[Point]]] = field(default_factory=dict)
    centers: dict[str, Point] = field(default_factory=dict)
    places: dict[str, list[Point]] = field(default_factory=dict)
    victory_cities: dict[str, Point] = field(default_factory=dict)
    capitals: dict[str, Point] = field(default_factory=dict)
    production_places: dict[str, Point] = field(default_factory=dict)

    def territories(self) -> set[str]:
        return set(self.polygons)


class InstalledMap:
    """One installed map: a folder (its content root found as the engines find it) or a zip."""

    def __init__(self, name: str, location: Path) -> None:
        self.name = name
        self.location = location
        self._zip: zipfile.ZipFile | None = None
        self._prefix = ""  # the content root inside a zip, with a trailing '/'
        self.root: Path | None = None  # the content root of a folder
        self.valid = False  # whether it is a map at all (it has a polygons.txt)
        if location.is_dir():
            self.root = next((c for c in (location / "map", location) if (c / "polygons.txt").is_file()), None)
            self.valid = self.root is not None
        elif location.is_file() and zipfile.is_zipfile(location):
            try:  # counted before it is listed: a zip listing a million entries is no map (safe_zip)
                self._zip = open_zip(location, MAX_MAP_ENTRIES)
            except ZipRefused:
                return
            found = sorted(
                (n for n in self._zip.namelist() if n.endswith("polygons.txt") and n.count("/") <= 3),
                key=lambda n: (n.count("/"), n),
            )
            self._prefix = found[0][: -len("polygons.txt")] if found else ""
            self.valid = bool(found)

    def read(self, rel: str) -> bytes | None:
        """A file of the content root, or None when the map has none."""
        if self.root is not None:
            try:
                return read_regular_file(self.root / rel, MAX_MAP_FILE)
            except UnreadableFile:
                return None
        if self._zip is not None:
            try:
                info = self._zip.getinfo(self._prefix + rel)
            except KeyError:
                return None
            try:
                return read_entry(self._zip, info, MAX_MAP_FILE) if info.file_size <= MAX_MAP_FILE else None
            except ZipRefused:  # encrypted, or not what its directory says: no file the engines could read
                return None
        return None

    def text(self, rel: str) -> str:
        data = self.read(rel)
        return data.decode("utf-8", "replace") if data is not None else ""

    @cached_property
    def unit_pictures(self) -> frozenset[tuple[str, str]]:
        """(player, picture name) of every `units/<player>/<name>.png` of the map."""
        if self.root is not None:
            return unit_pictures(self.root / "units" if (self.root / "units").is_dir() else None)
        if self._zip is None:
            return frozenset()
        found: set[tuple[str, str]] = set()
        for name in self._zip.namelist():
            parts = name[len(self._prefix) :].split("/") if name.startswith(self._prefix) else []
            if len(parts) == 3 and parts[0] == "units" and parts[2].endswith(".png"):
                found.add((parts[1], parts[2][:-4]))
        return frozenset(found)

    def picture(self, player: str, name: str) -> bytes | None:
        return self.read(f"units/{player}/{name}.png")

    @cached_property
    def board(self) -> Board:
        board = Board()
        for line in self.text("polygons.txt").splitlines():
            name = _name_before(line, "<")
            if name:
                shapes = [_points(part) for part in line[line.index("<") :].split(">")]
                board.polygons[name] = [s for s in shapes if len(s) >= 3]
        for rel, target in (
            ("centers.txt", board.centers),
            ("vc.txt", board.victory_cities),
            ("capitols.txt", board.capitals),
            ("pu_place.txt", board.production_places),
        ):
            for line in self.text(rel).splitlines():
                name, points = _name_before(line, "("), _points(line)
                if name and points:
                    target[name] = points[0]
        for line in self.text("place.txt").splitlines():
            name = _name_before(line, "(")
            if name:
                board.places[name] = _points(line)
        return board

    def as_folder(self, work: Path) -> Path:
        """The map as a folder: itself, or a zip's content unpacked into `work` (no name leaves it)."""
        if self._zip is None:
            return self.location
        top = work / self.name
        for info in self._zip.infolist():
            rel = info.filename[len(self._prefix) :] if info.filename.startswith(self._prefix) else ""
            parts = rel.split("/")
            if not rel or info.is_dir() or any(p in ("", ".", "..") for p in parts) or "\\" in rel:
                continue
            data = self.read(rel)  # within MAX_MAP_FILE and readable, or left out
            if data is None:
                continue
            target = top / "map" / Path(*parts)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        return top

    def close(self) -> None:
        if self._zip is not None:
            self._zip.close()


@dataclass(frozen=True)
class BoardUsed:
    """The map a variant was checked or played on: its own (`game.map`) or its base variant's."""

    variant: str
    map_name: str  # the map used
    location: str
    own: str  # the map the variant names


@dataclass
class MapLookup:
    """Finds each variant's map once: `--base-map` first, then the player's downloadedMaps folder."""

    base_map: Path | None = None
    search: list[Path] = field(default_factory=lambda: [default_maps_folder()])
    _found: dict[str, InstalledMap | None] = field(default_factory=dict)
    _consulted_elsewhere: set[str] = field(default_factory=set)  # by workers of a parallel build
    boards: dict[str, BoardUsed] = field(default_factory=dict)  # by variant, as found by find_board

    def find(self, map_name: str) -> InstalledMap | None:
        if map_name not in self._found:
            self._found[map_name] = self._locate(map_name)
        return self._found[map_name]

    def find_board(self, variant: str, names: list[str]) -> InstalledMap | None:
        """The first of `names` (the variant's own map, then its ancestors' maps) installed."""
        for name in names:
            found = self.find(name)
            if found is not None:
                own = names[0] if self.base_map is None else found.name
                self.boards[variant] = BoardUsed(variant, found.name, str(found.location), own)
                return found
        return None

    def board_lines(self) -> list[str]:
        """One line per map used, naming the variants checked on it (what a command prints)."""
        by_map: dict[tuple[str, str], list[BoardUsed]] = {}
        for used in self.boards.values():
            by_map.setdefault((used.map_name, used.location), []).append(used)
        lines = []
        for (name, location), uses in sorted(by_map.items()):
            variants = ", ".join(
                u.variant if u.own == name else f"{u.variant} (its map '{u.own}' is not installed)"
                for u in sorted(uses, key=lambda u: u.variant)
            )
            lines.append(f"board: map '{name}' at {location}, for {variants}")
        return lines

    def _locate(self, map_name: str) -> InstalledMap | None:
        if self.base_map is not None:
            # The map given is the map, by the name it gives itself (a mod's game names its own).
            given = InstalledMap(given_map_name(self.base_map), self.base_map)
            return given if given.valid else None
        short = normalized_map_name(map_name)
        for folder in self.search:
            for candidate in (map_name, f"{map_name}-master", short, f"{short}-master"):
                for path in (folder / candidate, folder / f"{candidate}.zip"):
                    if path.exists():
                        found = InstalledMap(map_name, path)
                        if found.valid:
                            return found
        return None

    def consulted(self) -> list[str]:
        """The map names looked up so far (here, or by the workers of a parallel build)."""
        return sorted(self._found.keys() | self._consulted_elsewhere)

    def note_consulted(self, names: list[str], boards: dict[str, BoardUsed] | None = None) -> None:
        """Maps a worker process looked up with a copy of this lookup: they count as consulted,
        and the boards it found are the ones its variants used."""
        self._consulted_elsewhere.update(names)
        self.boards.update(boards or {})

    def stamp(self, map_name: str) -> str:
        """What a board check of `map_name` reads: where the map is, the content of its board files,
        the unit pictures it and the engine's stock art have.

        Two equal stamps mean the same answer, so a build cache can tell a map installed, removed
        or edited since, or stock art added or taken away.
        """
        found = self._locate(map_name)
        stock = stock_units_folder()
        parts = [f"stock:{stock}", *(f"stock/{p}/{n}" for p, n in sorted(unit_pictures(stock)))]
        if found is None:
            return "\0".join([*parts, "missing"])
        try:
            parts.append(str(found.location.resolve()))
            for rel in BOARD_FILES:
                data = found.read(rel)
                parts.append(f"{rel}:{hashlib.sha256(data).hexdigest()}" if data is not None else f"{rel}:-")
            parts += [f"{p}/{n}" for p, n in sorted(found.unit_pictures)]
        finally:
            found.close()
        return "\0".join(parts)

    @cached_property
    def stock(self) -> frozenset[tuple[str, str]] | None:
        """The engine's stock pictures, or None when no engine is installed (then unknown)."""
        folder = stock_units_folder()
        return unit_pictures(folder) if folder is not None else None
