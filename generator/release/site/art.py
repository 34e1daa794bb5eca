"""The unit pictures a variant's pages show: for each player and unit, the picture the engines draw.

That is the one the package makes (the spec's `image:`, or a form the map lacks: release.unit_pictures),
else the map's own, else the engine's stock art, the order in which checks.unit_art finds them. Only
the pictures a page shows are copied into the site.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from generator.checks.variant import CheckedVariant
from generator.diagnostics import Diagnostic
from generator.installed_map import InstalledMap, MapLookup, stock_units_folder
from generator.paths import UnreadableFile, read_regular_file
from generator.release.pictures.units import unit_pictures
from generator.spec.resolve import Rules

MAX_PICTURE = 8 << 20  # as checks.unit_art reads a picture


def _plain(name: str) -> bool:
    """A name that is one folder or file name in the site (never a way out of it)."""
    return bool(name) and name not in (".", "..") and "/" not in name and "\\" not in name and name.isprintable()


class UnitArt:
    """The pictures of one variant on its board, found once each and kept for the site."""

    def __init__(self, checked: CheckedVariant, rules: Rules, installed: InstalledMap, maps: MapLookup) -> None:
        self.made, self.problems = unit_pictures(checked, rules, installed, maps)
        self.installed = installed
        self.stock = stock_units_folder()
        self.used: dict[str, bytes] = {}  # the site's path of each picture shown -> its bytes
        self._missing: set[str] = set()

    def url(self, player: str, unit: str) -> str | None:
        """The picture's path, relative to the variant's pages (None: no engine would draw one)."""
        if not (_plain(player) and _plain(unit)):
            return None
        rel = f"units/{player}/{unit}.png"
        if rel not in self.used and rel not in self._missing:
            data = self.made.get(rel) or self.installed.picture(player, unit) or self._stock(player, unit)
            if data is None:
                self._missing.add(rel)
            else:
                self.used[rel] = data
        return quote(rel) if rel in self.used else None

    def _stock(self, player: str, unit: str) -> bytes | None:
        if self.stock is None:
            return None
        try:
            return read_regular_file(Path(self.stock, player, f"{unit}.png"), MAX_PICTURE)
        except UnreadableFile:
            return None

    def diagnostics(self) -> list[Diagnostic]:
        return list(self.problems)
