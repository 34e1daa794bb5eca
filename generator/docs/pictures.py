"""The site's pictures, made by the same code as the package and `diff --picture`: byte-identical each run.

Each shipped variant's starting board (as `preview` and the package draw it), one `diff --picture`,
a sheet per variant of the unit pictures its new units get (as the package makes them), and one of
every unit's pictures.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from generator.diagnostics import Diagnostic, Severity
from generator.docs.variant_units import UNITS_SHEETS
from generator.emit.build import Compiled
from generator.errors import TripleaForgeError
from generator.installed_map import InstalledMap, MapLookup, stock_units_folder
from generator.release.package.folder import compiled_by_name
from generator.release.pictures.diff import diff_picture
from generator.release.pictures.package_art import previews, shared_unit_pictures
from generator.release.pictures.png import draw_text, png_bytes, text_size
from generator.spec.resolve import Rules

IMAGES = "docs/images/generated"
DIFF_SIDES = ("aarhe", "aarhe-phase1")  # the revision the how-to on `diff` reviews
CELL = 62  # a unit picture's square on the sheet (the Revised map's pictures are 48 x 48), a 9-letter name wide


class DocsError(TripleaForgeError):
    """The pictures could not be made (the variants do not build against the base map)."""


@dataclass
class Made:
    """The variants compiled once against the base map, and what the pages need of them."""

    compiled: dict[str, Compiled]
    installed: InstalledMap
    files: dict[str, bytes] = field(default_factory=dict)  # repository path -> bytes
    new_units: dict[str, list[str]] = field(default_factory=dict)  # variant -> units shown on its sheet
    unit_sheets: dict[str, str] = field(default_factory=dict)  # variant -> the sheet of all its units


def new_units(compiled: Mapping[str, Compiled]) -> dict[str, list[str]]:
    """Per variant, the unit types with pictures of their own (`image:`) that its parent does not draw alike."""
    found: dict[str, list[str]] = {}
    for name, item in sorted(compiled.items()):
        parent = compiled.get(item.spec.extends or "")
        units = [
            unit
            for unit, spec in item.spec.units.items()
            if spec.image is not None
            and (parent is None or unit not in parent.spec.units or parent.spec.units[unit].image != spec.image)
        ]
        if units:
            found[name] = units
    return found


def _picture(rel: str, pictures: Mapping[str, bytes], board: InstalledMap) -> bytes | None:
    """A unit picture as the client finds it: the package's, the map's, else the engine's stock art."""
    found = pictures.get(rel) or board.read(rel)
    stock = stock_units_folder()
    if found is None and stock is not None and (stock / rel.removeprefix("units/")).is_file():
        found = (stock / rel.removeprefix("units/")).read_bytes()
    return found


def _sheet(item: Compiled, units: list[str], pictures: Mapping[str, bytes], stock: InstalledMap) -> bytes:
    """One row per unit: its name, then each player's picture (blank where no player of that name owns one)."""
    from io import BytesIO

    from PIL import Image

    players = list(item.spec.players)
    label_width = max(text_size(u, 2)[0] for u in units) + 16
    header = text_size("X", 1)[1] + 12
    width = label_width + CELL * len(players) + 8
    height = header + CELL * len(units) + 8
    sheet = Image.new("RGB", (width, height), (255, 255, 255))
    for column, player in enumerate(players):
        shown = player[: CELL // 6 - 1]
        draw_text(sheet, (label_width + column * CELL + 2, 6), shown, (60, 60, 60))
    for row, unit in enumerate(units):
        top = header + row * CELL
        draw_text(sheet, (8, top + CELL // 2 - 10), unit, (20, 20, 20), scale=2)
        for column, player in enumerate(players):
            data = _picture(f"units/{player}/{unit}.png", pictures, stock)
            if data is None:
                continue
            with Image.open(BytesIO(data)) as picture:
                tile = picture.convert("RGBA")
            tile.thumbnail((CELL - 4, CELL - 4))
            left = label_width + column * CELL + (CELL - tile.width) // 2
            sheet.paste(tile, (left, top + (CELL - tile.height) // 2), tile)
    return png_bytes(sheet)


def make_pictures(rules: Rules, base_map: Path) -> Made:
    """Every picture of the site, by repository path (IMAGES/...)."""
    installed = InstalledMap(base_map.name, base_map)
    if not installed.valid:
        raise DocsError(f"{base_map}: not a TripleA map (no polygons.txt in it or its map/ folder)")
    maps = MapLookup(base_map=base_map, search=[])
    compiled, problems = compiled_by_name(rules, rules.variants(), "portable", maps)
    pictures, found = shared_unit_pictures(compiled, rules, installed, maps)
    errors = [p for p in [*problems, *found] if p.severity is Severity.ERROR]
    if errors:
        raise DocsError(_said(errors))
    made = Made(compiled, installed)
    for rel, data in previews(compiled, installed).items():
        if rel.startswith("previews/"):
            made.files[f"{IMAGES}/{rel}"] = data
    old, new = (compiled[side] for side in DIFF_SIDES)
    title = f"{DIFF_SIDES[0]} -> {DIFF_SIDES[1]}: where the board differs"
    made.files[f"{IMAGES}/diff-{DIFF_SIDES[0]}-{DIFF_SIDES[1]}.png"] = png_bytes(
        diff_picture(old.spec, new.spec, installed, title)
    )
    made.new_units = new_units(compiled)
    for variant, units in made.new_units.items():
        made.files[f"{IMAGES}/units/{variant}.png"] = _sheet(compiled[variant], units, pictures, installed)
    # Every unit, for the variant's page (docs.variant_units); ancestors first, so a variant whose
    # units look as its parent's shows the parent's sheet (lhtr's is revised's) rather than a copy.
    for variant, item in sorted(compiled.items(), key=lambda pair: (len(pair[1].resolved.chain), pair[0])):
        sheet = _sheet(item, list(item.spec.units), pictures, installed)
        parent = made.unit_sheets.get(item.spec.extends or "")
        if parent is not None and made.files[parent] == sheet:
            made.unit_sheets[variant] = parent
            continue
        made.unit_sheets[variant] = f"{IMAGES}/{UNITS_SHEETS}/{variant}.png"
        made.files[made.unit_sheets[variant]] = sheet
    return made


def _said(problems: list[Diagnostic]) -> str:
    return "; ".join(p.message for p in problems[:5])
