"""The board at the start on a page: `preview`'s picture with each territory's shape laid over it, and
what pointing at one shows: its owner, production, victory city, starting units and where it is written.

The shapes are the map's polygons.txt, scaled as release.board_picture draws them, so a shape covers
its territory on the picture; they are thinned to what shows at that size (a map's outlines hold tens
of thousands of points, most of them closer together than a pixel).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from generator.checks.variant import CheckedVariant
from generator.installed_map import InstalledMap, Point
from generator.release.pictures.board import TOP, _number, board_scale, player_colours
from generator.release.site.art import UnitArt
from generator.spec.load import SpecMap
from generator.spec.locate import node_at
from generator.spec.model import NEUTRAL, Territory

if TYPE_CHECKING:
    from PIL import Image

TOLERANCE = 0.6  # pixels a thinned outline may stray from the map's
# Options said in their own words on the panel (the rest are listed as they are named).
OWN_WORDS = ("production", "victoryCity", "capital")


@dataclass(frozen=True)
class UnitCount:
    """Units of one owner and type at the start, with the picture the engines draw for them."""

    owner: str
    unit: str
    count: int
    picture: str | None
    state: str = ""  # "damaged: 1 hit" for units that start damaged


@dataclass(frozen=True)
class TerritoryFacts:
    """What pointing at a territory shows."""

    id: str  # the element's id on its page
    name: str
    kind: str  # "land", "sea zone", "impassable"
    owner: str  # a player, or "nobody"
    colour: str  # the owner's colour on the board, #rrggbb
    production: int
    victory: int  # victory city weight (0: none)
    capital: str  # whose capital it is ("" none)
    units: tuple[UnitCount, ...]
    other: tuple[str, ...]  # its other options and attachments, as the spec names them
    written: tuple[str, ...]  # file:line of every file that writes it, the one that names it last first
    changes: tuple[str, ...] = ()  # on the board of what changed: how it differs from the base


@dataclass(frozen=True)
class Area:
    """A territory's shape over the picture: an SVG path in the picture's pixels."""

    id: str
    name: str
    path: str


@dataclass
class BoardView:
    """One board picture of a page with its shapes and facts."""

    id: str  # the board's id on its page
    picture: str  # the picture's file, beside the page
    title: str  # the picture's own title, its text for those who cannot see it
    width: int
    height: int
    areas: list[Area]
    facts: list[TerritoryFacts]


def hex_of(colour: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour)


def _said(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(_said(v) for v in value)
    return str(value)


def written_at(tree: Any, path: Sequence[str]) -> tuple[str, ...]:
    """file:line of each file that writes the entry at `path` (its name's place first, then each other
    file at its first line there): an entry a variant changes is written in its own file and its base's."""
    holder, entry = node_at(tree, path[:-1]), node_at(tree, path)
    if not isinstance(holder, SpecMap) or path[-1] not in holder.key_marks:
        return ()
    marks = [holder.key_marks[path[-1]], *(entry.key_marks.values() if isinstance(entry, SpecMap) else ())]
    first: dict[str, int] = {}
    for mark in marks:
        first[mark.file] = min(mark.line, first.get(mark.file, mark.line))
    named = marks[0].file
    return (f"{named}:{marks[0].line}", *(f"{f}:{line}" for f, line in first.items() if f != named))


def _units(territory: Territory, art: UnitArt) -> tuple[UnitCount, ...]:
    counts = [
        UnitCount(owner, unit, n, art.url(owner, unit))
        for owner, units in territory.units.items()
        for unit, n in units.items()
        if n
    ]
    for damaged in territory.damaged_units:
        owner = damaged.owner or territory.owner or NEUTRAL
        state = ", ".join(
            f"{what} {n}" for what, n in (("hits", damaged.hits), ("bombing damage", damaged.damage)) if n
        )
        counts.append(UnitCount(owner, damaged.unit, damaged.quantity, art.url(owner, damaged.unit), state))
    return tuple(counts)


def territory_facts(
    checked: CheckedVariant, art: UnitArt, installed: InstalledMap, prefix: str
) -> dict[str, TerritoryFacts]:
    """The facts of every territory on the board, by name; ids `prefix`-N in the map's order."""
    spec, tree = checked.spec, checked.resolved.tree
    colours = player_colours(spec, installed)
    facts: dict[str, TerritoryFacts] = {}
    for index, name in enumerate(sorted(installed.board.polygons)):
        territory = spec.territories.get(name)
        if territory is None:
            continue  # on the map, not in this game: drawn grey, nothing to say
        options = territory.options
        impassable = options.get("isImpassable") is True
        kind = "sea zone" if territory.sea else "impassable" if impassable else "land"
        owner = territory.owner or ("" if territory.sea else "nobody")
        capital = options.get("capital")
        other = [
            option if value is True else f"{option}: {_said(value)}"
            for option, value in options.items()
            if option not in OWN_WORDS and value is not False and not (option == "isImpassable" and impassable)
        ]
        other += [f"attachment {attached}" for attached in territory.attachments]
        facts[name] = TerritoryFacts(
            f"{prefix}-{index}", name, kind, owner,
            hex_of(colours.get(territory.owner or NEUTRAL, colours[NEUTRAL])),
            _number(options.get("production")), _number(options.get("victoryCity")),
            capital if isinstance(capital, str) else "", _units(territory, art), tuple(other),
            written_at(tree, ["territories", name]),
        )  # fmt: skip
    return facts


def _thinned(points: list[tuple[float, float]], tolerance: float) -> list[tuple[float, float]]:
    """The points an outline keeps at `tolerance` (Ramer-Douglas-Peucker, without recursion)."""
    if len(points) < 3:
        return points
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    spans = [(0, len(points) - 1)]
    while spans:
        first, last = spans.pop()
        (x1, y1), (x2, y2) = points[first], points[last]
        dx, dy = x2 - x1, y2 - y1
        length = (dx * dx + dy * dy) ** 0.5
        far, at = 0.0, -1
        for i in range(first + 1, last):
            px, py = points[i]
            off = abs(dy * (px - x1) - dx * (py - y1)) / length if length else ((px - x1) ** 2 + (py - y1) ** 2) ** 0.5
            if off > far:
                far, at = off, i
        if at >= 0 and far > tolerance:
            keep[at] = True
            spans += [(first, at), (at, last)]
    return [p for p, kept in zip(points, keep, strict=True) if kept]


def outline(shapes: Iterable[list[Point]], scale: float) -> str:
    """SVG path data of a territory's shapes, in the picture's pixels (the board starts TOP down)."""
    parts = []
    for shape in shapes:
        scaled = [(x * scale, y * scale + TOP) for x, y in shape]
        points = _thinned([*scaled, scaled[0]], TOLERANCE)[:-1]
        whole: list[tuple[int, int]] = []
        for x, y in points:
            point = (round(x), round(y))
            if not whole or whole[-1] != point:
                whole.append(point)
        if len(whole) >= 3:
            head, *rest = whole
            parts.append(f"M{head[0]} {head[1]}L" + " ".join(f"{x} {y}" for x, y in rest) + "Z")
    return "".join(parts)


def board_view(
    board_id: str,
    picture: tuple[str, str],
    image: Image.Image,
    installed: InstalledMap,
    facts: Mapping[str, TerritoryFacts],
) -> BoardView:
    """The picture `image` (drawn by release.board_picture on `installed`; `picture`: its file and its
    title) with the shapes of `facts`."""
    scale = board_scale(installed)
    polygons = installed.board.polygons
    areas = [Area(f.id, f.name, outline(polygons[name], scale)) for name, f in facts.items() if name in polygons]
    return BoardView(board_id, *picture, image.width, image.height, areas, list(facts.values()))
