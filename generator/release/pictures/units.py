"""The unit pictures a package carries, drawn with Pillow from the plan of checks.unit_art.

A derived picture is the source unit's picture of the same player with a mark (a yellow badge
with black letters, sized so its capitals stay about 11 pixels tall on the board at the map's
`units.scale`), and the outline or tint the spec asks for. A drawn file is fitted into the map's
unit size (`units.width` x `units.height`, 48 x 48 unless the map says otherwise). A damage form
the source lacks is drawn over it: `_hit` darkened with a red slash, `_disabled` in grey.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from generator.checks.board import art_plan
from generator.checks.unit_art import Recipe, Source
from generator.checks.unit_owners import DISABLED, HIT
from generator.checks.variant import CheckedVariant
from generator.diagnostics import Diagnostic
from generator.installed_map import InstalledMap, MapLookup, stock_units_folder
from generator.release.package import properties
from generator.release.pictures.png import draw_text, hex_colour, png_bytes, text_size
from generator.spec.resolve import Rules

if TYPE_CHECKING:
    from PIL import Image

MARK_FILL = (255, 221, 51)  # the badge: black on yellow reads on every nation's colours
BOARD_CAPITALS = 11  # pixels the mark's capitals should measure on the board


@dataclass(frozen=True)
class UnitSize:
    width: int = 48
    height: int = 48
    scale: float = 1.0  # the map draws every unit picture at this scale


def unit_size(installed: InstalledMap, map_keys: Mapping[str, str]) -> UnitSize:
    """The map's unit picture size and scale: its map.properties, with the spec's keys over them."""
    held = properties.read(installed.read("map.properties") or b"")
    held.update(map_keys)

    def number(key: str, default: float) -> float:
        try:
            value = float(held.get(key, default))
        except ValueError:
            return default
        return value if 0 < value < 10_000 else default

    return UnitSize(int(number("units.width", 48)), int(number("units.height", 48)), number("units.scale", 1.0))


def _open(data: bytes) -> Image.Image:
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        image.load()
        return image.convert("RGBA")


def _fit(image: Image.Image, size: UnitSize) -> Image.Image:
    from PIL import Image

    ratio = min(size.width / image.width, size.height / image.height)
    inner = (max(1, round(image.width * ratio)), max(1, round(image.height * ratio)))
    canvas = Image.new("RGBA", (size.width, size.height), (0, 0, 0, 0))
    resized = image.resize(inner, Image.Resampling.LANCZOS)
    canvas.alpha_composite(resized, ((size.width - inner[0]) // 2, (size.height - inner[1]) // 2))
    return canvas


def _tint(image: Image.Image, colour: str) -> Image.Image:
    from PIL import Image

    rgb = image.convert("RGB")
    mixed = Image.blend(rgb, Image.new("RGB", image.size, hex_colour(colour)), 0.45)
    mixed.putalpha(image.getchannel("A"))
    return mixed


def _outline(image: Image.Image, colour: str) -> Image.Image:
    from PIL import Image, ImageFilter

    solid = image.getchannel("A").point(lambda a: 255 if a > 64 else 0)
    rim = solid.filter(ImageFilter.MaxFilter(5))
    out = Image.new("RGBA", image.size, (0, 0, 0, 0))
    out.paste((*hex_colour(colour), 255), (0, 0), rim)
    out.alpha_composite(image)
    return out


def _damaged(image: Image.Image, damage: str) -> Image.Image:
    from PIL import ImageDraw, ImageEnhance

    alpha = image.getchannel("A")
    if damage == DISABLED:
        grey = image.convert("L").convert("RGB")
        out = ImageEnhance.Brightness(grey).enhance(0.8)
        out.putalpha(alpha)
        return out
    out = ImageEnhance.Brightness(image.convert("RGB")).enhance(0.6)
    out.putalpha(alpha)
    box = alpha.getbbox() or (0, 0, image.width, image.height)
    width = max(2, image.width // 16)
    ImageDraw.Draw(out).line([(box[2] - 1, box[1]), (box[0], box[3] - 1)], fill=(220, 20, 20, 255), width=width)
    return out


def _mark(image: Image.Image, mark: str, scale: float) -> None:
    """The mark in a yellow badge in the bottom-right corner, as large as fits and reads on the board."""
    from PIL import ImageDraw

    wanted = max(1, round(BOARD_CAPITALS / (7 * scale)))
    k = max([f for f in range(1, wanted + 1) if text_size(mark, f)[0] + 4 <= image.width] or [1])
    width = text_size(mark, k)[0] - k
    right, bottom = image.width - 1, image.height - 1
    box = (right - width - 2 * k - 2, bottom - 7 * k - 2 * k - 2, right, bottom)
    ImageDraw.Draw(image).rectangle(box, fill=(*MARK_FILL, 255), outline=(0, 0, 0, 255))
    draw_text(image, (box[0] + k + 1, box[1] + k + 1 - 2 * k), mark, (0, 0, 0), k)


def render(recipe: Recipe, source: bytes, size: UnitSize) -> bytes:
    """One picture of a recipe, from the bytes of its source picture."""
    image = _open(source)
    if recipe.fit:
        image = _fit(image, size)
    if recipe.tint:
        image = _tint(image, recipe.tint)
    if recipe.outline:
        image = _outline(image, recipe.outline)
    if recipe.damage in (HIT, DISABLED):
        image = _damaged(image, recipe.damage)
    if recipe.mark:
        _mark(image, recipe.mark, size.scale)
    return png_bytes(image)


def _source_bytes(source: Source, installed: InstalledMap, stock: Path | None) -> bytes | None:
    if source.kind == "map":
        return installed.picture(source.player, source.name)
    if source.kind == "stock":
        path = stock / source.player / f"{source.name}.png" if stock is not None else None
        return path.read_bytes() if path is not None and path.is_file() else None
    return Path(source.name).read_bytes()


def unit_pictures(
    compiled: CheckedVariant, rules: Rules, installed: InstalledMap, maps: MapLookup
) -> tuple[dict[str, bytes], list[Diagnostic]]:
    """`units/<player>/<name>.png` -> PNG for every picture the variant's plan makes on this map."""
    from PIL import Image, UnidentifiedImageError

    plan = art_plan(compiled.spec, compiled.resolved, rules, installed, maps)
    spec_keys = compiled.spec.map_files.get("map", {})
    keys = {k: str(v).lower() if isinstance(v, bool) else str(v) for k, v in spec_keys.items()}
    size = unit_size(installed, keys)
    stock = stock_units_folder()
    made: dict[str, bytes] = {}
    problems: list[Diagnostic] = []  # the plan's own were reported when the variant was checked
    for (player, name), recipe in sorted(plan.pictures.items()):
        data = _source_bytes(recipe.source, installed, stock)
        if data is None:
            continue  # the plan only names sources it found; a map changed meanwhile is not ours to fix
        try:
            made[f"units/{player}/{name}.png"] = render(recipe, data, size)
        except (OSError, ValueError, SyntaxError, UnidentifiedImageError, Image.DecompressionBombError) as exc:
            problems.append(Diagnostic(f"{recipe.source.name}: not a picture Pillow can read ({exc})"))
    return made, problems
