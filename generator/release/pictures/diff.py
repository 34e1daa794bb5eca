"""`diff --picture`: where on the board two revisions of a game differ, in short words per territory.

Compares the two sides territory by territory: owner, production and the other TerritoryAttachment
options (capital, victory city...), units at the start (per owner and type), the territory's other
attachments, its borders, and whether it is in the game at all. The board of the newer side is
drawn with those territories outlined and numbered (release.board_picture).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from generator.installed_map import InstalledMap
from generator.release.pictures.board import Highlight, draw_board
from generator.spec.model import Spec, Territory

if TYPE_CHECKING:
    from PIL import Image

# Options that read best in their own words; other changed options are named as they are.
_WORDS = {"production": "production", "victoryCity": "victory city", "capital": "capital"}


def _units(territory: Territory | None) -> dict[tuple[str, str], int]:
    if territory is None:
        return {}
    counts = {(owner, unit): n for owner, units in territory.units.items() for unit, n in units.items() if n}
    for damaged in territory.damaged_units:
        key = (damaged.owner or territory.owner or "Neutral", damaged.unit)
        counts[key] = counts.get(key, 0) + damaged.quantity
    return counts


def _shown(value: Any) -> str:
    return "none" if value is None else str(value).lower() if isinstance(value, bool) else str(value)


def _natural(name: str) -> list[tuple[int, str]]:
    """Sort key that puts '2 Sea Zone' before '10 Sea Zone'."""
    return [(int(part), "") if part.isdigit() else (0, part) for part in re.split(r"(\d+)", name)]


def territory_changes(old: Spec, new: Spec) -> list[Highlight]:
    """Every territory whose owner, options, units, attachments or borders differ, in name order."""
    found: list[Highlight] = []
    for name in sorted(set(old.territories) | set(new.territories), key=_natural):
        before, after = old.territories.get(name), new.territories.get(name)
        words: list[str] = []
        if before is None or after is None:
            found.append(Highlight(name, ["added" if before is None else "removed"]))
            continue
        if before.owner != after.owner:
            words.append(f"owner {_shown(before.owner)} -> {_shown(after.owner)}")
        if before.sea != after.sea:
            words.append("sea" if after.sea else "land")
        old_options, new_options = before.options, after.options
        for option in sorted(set(old_options) | set(new_options)):
            if option in ("ledger",) or old_options.get(option) == new_options.get(option):
                continue
            was, now = _shown(old_options.get(option)), _shown(new_options.get(option))
            words.append(f"{_WORDS.get(option, option)} {was} -> {now}" if len(was + now) <= 24 else option)
        old_units, new_units = _units(before), _units(after)
        if old_units != new_units:
            delta = sum(new_units.values()) - sum(old_units.values())
            words.append(f"units {delta:+d}" if delta else "units")
        if before.attachments != after.attachments:
            words.append("attachments")
        if set(before.connections) != set(after.connections):
            words.append("borders")
        if words:
            found.append(Highlight(name, words))
    return found


def diff_picture(old: Spec, new: Spec, installed: InstalledMap, title: str) -> Image.Image:
    """The newer board, paler, with every changed territory outlined, numbered and listed."""
    changes = [h for h in territory_changes(old, new) if h.territory in installed.board.polygons]
    return draw_board(new, installed, title, changes)
