"""A picture of a game's starting board, drawn from the map's polygons: `preview` and `diff --picture`.

Territories are filled in their owner's colour (the spec's `color`, else the map's `color.<player>`),
sea zones blue; a capital gets a star, a victory city a ring (with its weight when above 1), and
production values and unit counts (per owner, in the owner's colour) are labelled where they fit
without covering another label. A title names the game and a legend the players, with their
territories, production and units. A diff picture draws the newer board paler, with the
territories that changed outlined, numbered and listed below with what changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from generator.installed_map import Board, InstalledMap, Point
from generator.release.package import properties
from generator.release.pictures.png import Colour, draw_text, hex_colour, label, text_size
from generator.spec.model import NEUTRAL, Spec

if TYPE_CHECKING:
    from PIL import Image

MAX_SIZE = (1800, 1100)  # the board part of the picture, at most (the map is scaled down to fit)
SEA = (150, 190, 230)
UNOWNED = (222, 206, 160)
NOT_IN_GAME = (190, 190, 190)
BACKGROUND = (120, 150, 185)
HIGHLIGHT = (230, 0, 180)
PALETTE = [(200, 60, 60), (60, 120, 200), (90, 160, 70), (200, 150, 40), (140, 80, 170), (60, 160, 160)]
WHITE, BLACK = (255, 255, 255), (0, 0, 0)
# The title's band above the board: the map's point (x, y) is drawn at (x * scale, y * scale + TOP),
# which the site's pages read to lay the territories' shapes over the picture.
TOP = 44


@dataclass
class Highlight:
    """A territory to mark on the board, with what changed there, in short words."""

    territory: str
    words: list[str] = field(default_factory=list)


def _number(value: Any) -> int:
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return value
    return int(value) if isinstance(value, str) and value.lstrip("-").isdigit() else 0


def player_colours(spec: Spec, installed: InstalledMap) -> dict[str, Colour]:
    """Each player's colour: the spec's, else the map's, else one of a fixed palette."""
    held = properties.read(installed.read("map.properties") or b"")
    colours: dict[str, Colour] = {}
    for index, (name, player) in enumerate(spec.players.items()):
        text = player.color or held.get(f"color.{name}", "")
        valid = len(text) == 6 and all(c in "0123456789abcdefABCDEF" for c in text)
        colours[name] = hex_colour(text) if valid else PALETTE[index % len(PALETTE)]
    neutral = held.get(f"color.{NEUTRAL}", "")
    colours[NEUTRAL] = hex_colour(neutral) if len(neutral) == 6 else UNOWNED
    return colours


def _ink(colour: Colour) -> Colour:
    """Black or white, whichever reads better on `colour`."""
    return BLACK if 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2] > 140 else WHITE


def _pale(colour: Colour, amount: float = 0.55) -> Colour:
    r, g, b = colour
    return (round(r + (255 - r) * amount), round(g + (255 - g) * amount), round(b + (255 - b) * amount))


@dataclass
class _Canvas:
    image: Image.Image
    factor: float
    board: Board
    taken: list[tuple[int, int, int, int]] = field(default_factory=list)

    def at(self, point: Point) -> tuple[int, int]:
        return round(point[0] * self.factor), round(point[1] * self.factor)

    def fits(self, box: tuple[int, int, int, int]) -> bool:
        return not any(box[0] < b[2] and b[0] < box[2] and box[1] < b[3] and b[1] < box[3] for b in self.taken)

    def label(
        self, centre: tuple[int, int], text: str, fill: Colour, ink: Colour, scale: int = 1, force: bool = False
    ) -> bool:
        """A label unless it would cover another one (`force`: always, for what must be seen)."""
        width = text_size(text, scale)[0]
        box = (centre[0] - width // 2 - 3, centre[1] - 7 * scale, centre[0] + width // 2 + 3, centre[1] + 7 * scale)
        if not force and not self.fits(box):
            return False
        self.taken.append(label(self.image, centre, text, fill, ink, scale))
        return True


def _board_size(installed: InstalledMap) -> tuple[int, int]:
    held = properties.read(installed.read("map.properties") or b"")
    points = [p for shapes in installed.board.polygons.values() for shape in shapes for p in shape]
    width = _number(held.get("map.width")) or max((p[0] for p in points), default=1)
    height = _number(held.get("map.height")) or max((p[1] for p in points), default=1)
    return width, height


def board_scale(installed: InstalledMap) -> float:
    """The factor the map is drawn at: scaled down to fit MAX_SIZE, never up."""
    width, height = _board_size(installed)
    return min(1.0, MAX_SIZE[0] / width, MAX_SIZE[1] / height)


def _star(canvas: _Canvas, centre: tuple[int, int]) -> None:
    import math

    from PIL import ImageDraw

    points = []
    for i in range(10):
        radius = 12 if i % 2 == 0 else 5
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((centre[0] + round(radius * math.cos(angle)), centre[1] + round(radius * math.sin(angle))))
    ImageDraw.Draw(canvas.image).polygon(points, fill=WHITE, outline=BLACK, width=2)
    canvas.taken.append((centre[0] - 12, centre[1] - 12, centre[0] + 12, centre[1] + 12))


def _ring(canvas: _Canvas, centre: tuple[int, int], weight: int) -> None:
    from PIL import ImageDraw

    radius = 7 if weight == 1 else 10
    box = (centre[0] - radius, centre[1] - radius, centre[0] + radius, centre[1] + radius)
    ImageDraw.Draw(canvas.image).ellipse(box, fill=WHITE, outline=BLACK, width=2 if weight > 1 else 3)
    if weight > 1:
        text = str(weight)
        draw_text(canvas.image, (centre[0] - text_size(text, 1)[0] // 2 + 1, centre[1] - 6), text, BLACK)
    canvas.taken.append(box)


def draw_board(
    spec: Spec, installed: InstalledMap, title: str, highlights: Sequence[Highlight] | None = None
) -> Image.Image:
    """The starting board of `spec` on `installed`, with a title and a legend.

    With `highlights` (a diff, even when empty) the board is paler and they are outlined and listed.
    """
    from PIL import Image, ImageDraw

    width, height = _board_size(installed)
    factor = board_scale(installed)
    board = Image.new("RGB", (max(1, round(width * factor)), max(1, round(height * factor))), BACKGROUND)
    canvas = _Canvas(board, factor, installed.board)
    colours = player_colours(spec, installed)
    pale = 0.55 if highlights is not None else 0.0
    draw = ImageDraw.Draw(board)
    geometry = installed.board
    for name, shapes in sorted(geometry.polygons.items()):
        territory = spec.territories.get(name)
        if territory is None:
            fill = NOT_IN_GAME
        elif territory.sea:
            fill = SEA
        elif territory.options.get("isImpassable") is True:
            fill = (140, 130, 120)
        else:
            fill = colours.get(territory.owner or NEUTRAL, UNOWNED)
        for shape in shapes:
            draw.polygon([canvas.at(p) for p in shape], fill=_pale(fill, pale), outline=(60, 60, 60))
    marked = {h.territory: index for index, h in enumerate(highlights or (), 1)}
    for name in sorted(marked):
        for shape in geometry.polygons.get(name, []):
            draw.line([canvas.at(p) for p in [*shape, shape[0]]], fill=HIGHLIGHT, width=4, joint="curve")
    _markers(spec, canvas, colours)
    for name in sorted(marked, key=marked.__getitem__):  # over everything, beside the markers if it can
        x, y = canvas.at(geometry.centers.get(name, (0, 0)))
        text = str(marked[name])
        for dx, dy in ((0, 0), (0, -24), (0, 24), (-30, 0), (30, 0), (-30, -24), (30, 24), (0, 0)):
            if canvas.label((x + dx, y + dy), text, HIGHLIGHT, WHITE, scale=2, force=(dx, dy) == (0, 0)):
                break
    return _framed(spec, board, title, colours, highlights)


def _markers(spec: Spec, canvas: _Canvas, colours: dict[str, Colour]) -> None:
    """Capitals and victory cities, then production values, then unit counts where they fit."""
    for name, territory in sorted(spec.territories.items()):
        capital = territory.options.get("capital")
        if isinstance(capital, str):
            _star(canvas, canvas.at(_spot(canvas, name, "capitals")))
        weight = _number(territory.options.get("victoryCity"))
        if weight > 0:
            _ring(canvas, canvas.at(_spot(canvas, name, "victory_cities")), weight)
    for name, territory in sorted(spec.territories.items()):
        production = _number(territory.options.get("production"))
        if production > 0:
            canvas.label(canvas.at(_spot(canvas, name, "production_places")), str(production), WHITE, BLACK)
    for name, territory in sorted(spec.territories.items()):
        counts = [(owner, sum(units.values())) for owner, units in territory.units.items() if sum(units.values())]
        if not counts:
            continue
        x, y = canvas.at(_spot(canvas, name, "centers"))
        texts = [str(n) for _, n in counts]
        total = sum(text_size(t, 1)[0] + 10 for t in texts)
        left = x - total // 2
        for (owner, _), text in zip(counts, texts, strict=True):
            width = text_size(text, 1)[0] + 10
            fill = colours.get(owner, UNOWNED)
            canvas.label((left + width // 2, y + 12), text, fill, _ink(fill))
            left += width


def _spot(canvas: _Canvas, name: str, kind: str) -> Point:
    """Where the map puts a territory's marker of `kind`, else its centre."""
    found: Point | None = getattr(canvas.board, kind).get(name)
    return found or canvas.board.centers.get(name, (0, 0))


def _framed(
    spec: Spec, board: Image.Image, title: str, colours: dict[str, Colour], highlights: Sequence[Highlight] | None
) -> Image.Image:
    """The board under a title, above a legend of the players (and the list of highlights)."""
    from PIL import Image

    columns = 2 if highlights else 1
    # Long rows wrap within their column (never cut at the picture's edge).
    room = (board.width // columns - 36) // text_size("x", 2)[0]
    rows = [wrapped for row in _legend_rows(spec, highlights) for wrapped in _wrap(row, room)]
    line = 26
    top = TOP
    per_column = (len(rows) + columns - 1) // columns
    image = Image.new("RGB", (board.width, top + board.height + 16 + per_column * line + 10), WHITE)
    draw_text(image, (12, 10), title, BLACK, 2)
    image.paste(board, (0, top))
    y0 = top + board.height + 12
    for index, (swatch, text) in enumerate(rows):
        x = 12 + (index // per_column) * (board.width // columns)
        y = y0 + (index % per_column) * line
        if swatch is not None:
            label(image, (x + 10, y + 9), "  ", colours.get(swatch, HIGHLIGHT), BLACK)
        draw_text(image, (x + 26, y), text, BLACK, 2)
    return image


def _legend_rows(spec: Spec, highlights: Sequence[Highlight] | None) -> list[tuple[str | None, str]]:
    if highlights is not None:
        if not highlights:
            return [(None, "No territory differs: owners, production, units and attachments are the same.")]
        return [(None, text) for text in _highlight_rows(highlights)]
    rows: list[tuple[str | None, str]] = []
    for player in spec.players:
        held = [t for t in spec.territories.values() if t.owner == player and not t.sea]
        production = sum(_number(t.options.get("production")) for t in held)
        units = sum(sum(t.units.get(player, {}).values()) for t in spec.territories.values())
        rows.append((player, f"{player}: {len(held)} territories, production {production}, {units} units"))
    rows.append((None, "star: capital   ring: victory city (weight)   white box: production   coloured box: units"))
    return rows


def _highlight_rows(highlights: Sequence[Highlight]) -> list[str]:
    """One row per change; a run of numbers with the same change is one row ("1-64. 1 Sea Zone ...")."""
    rows: list[str] = []
    start = 0
    for end in range(1, len(highlights) + 1):
        if end < len(highlights) and highlights[end].words == highlights[start].words:
            continue
        words = ", ".join(highlights[start].words)
        first, last = highlights[start].territory, highlights[end - 1].territory
        if end - start == 1:
            rows.append(f"{start + 1}. {first}: {words}")
        else:
            rows.append(f"{start + 1}-{end}. {first} ... {last} ({end - start} territories): {words}")
        start = end
    return rows


def _wrap(row: tuple[str | None, str], room: int) -> list[tuple[str | None, str]]:
    """`row` as lines of at most `room` characters, broken at spaces; continuation lines indented."""
    swatch, text = row
    lines: list[str] = []
    while len(text) > room > 8:
        cut = text.rfind(" ", 0, room)
        cut = cut if cut > room // 2 else room
        lines.append(text[:cut])
        text = "   " + text[cut:].lstrip()
    return [(swatch if i == 0 else None, line) for i, line in enumerate([*lines, text])]
