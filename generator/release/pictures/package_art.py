"""The pictures a package adds to the map's art: unit pictures the map lacks and a preview per game.

Unit pictures are shared by every game of the map (the engines look them up by player and unit
name only), so two variants drawing one name differently is an error, as for `.properties` keys.
Each game's starting board becomes `previews/<variant>.png`, shown in description.html; a package
of one game also makes it the map's `preview.png`, the picture TripleA's map list shows.
"""

from __future__ import annotations

from collections.abc import Mapping

from generator.checks.variant import CheckedVariant
from generator.diagnostics import Diagnostic
from generator.installed_map import InstalledMap, MapLookup
from generator.release.pictures.board import draw_board
from generator.release.pictures.png import png_bytes
from generator.release.pictures.units import unit_pictures
from generator.spec.locate import locate
from generator.spec.model import Spec
from generator.spec.resolve import Rules


def preview_title(spec: Spec) -> str:
    version = f" {spec.game.version}" if spec.game.version else ""
    return f"{spec.game.name}{version}: the board at the start"


def preview(spec: Spec, installed: InstalledMap) -> bytes:
    """The starting board of one game as PNG bytes."""
    return png_bytes(draw_board(spec, installed, preview_title(spec)))


def shared_unit_pictures(
    compiled: Mapping[str, CheckedVariant], rules: Rules, installed: InstalledMap, maps: MapLookup
) -> tuple[dict[str, bytes], list[Diagnostic]]:
    """Every variant's unit pictures, relative to the map's content root; a clash is an error."""
    pictures: dict[str, bytes] = {}
    made_by: dict[str, str] = {}
    problems: list[Diagnostic] = []
    for variant, item in sorted(compiled.items()):
        made, found = unit_pictures(item, rules, installed, maps)
        problems += found
        for rel, data in sorted(made.items()):
            if rel in pictures and pictures[rel] != data:
                unit = rel.rsplit("/", 1)[-1].split("_")[0].removesuffix(".png")
                mark = locate(item.resolved.tree, ["units", unit, "image"])
                message = (
                    f"{rel}: variant '{made_by[rel]}' draws it differently; unit pictures are shared by every game "
                    "of the map, so give the unit the same `image:` in both (or another name)"
                )
                problems.append(Diagnostic(message, mark, f"units.{unit}.image"))
                continue
            pictures[rel] = data
            made_by.setdefault(rel, variant)
    return pictures, problems


def previews(compiled: Mapping[str, CheckedVariant], installed: InstalledMap) -> dict[str, bytes]:
    """`previews/<variant>.png` per game, and `preview.png` when the package holds one game."""
    made = {f"previews/{name}.png": preview(item.spec, installed) for name, item in sorted(compiled.items())}
    if len(made) == 1:
        made["preview.png"] = next(iter(made.values()))
    return made
