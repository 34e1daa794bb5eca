"""Where every unit picture of a game comes from, and which are missing: the plan the package draws.

For each (player, unit type) pair that can exist (checks.unit_owners) and each picture name the
engines ask for, the picture is the spec's `image:` when it gives one, else the map's own, else the
engine's stock art. A form a map or the stock art lacks (a tech or damage form) is made from the
nearest picture they have. A pair with no picture at all is an error naming the fix. Nothing here
draws: the package turns each `Recipe` into a PNG (release.unit_pictures).
"""

from __future__ import annotations

import hashlib
import re
import struct
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Literal

from generator.checks.context import SpecTree
from generator.checks.unit_owners import Form, picture_forms, player_advances, uncertain_owners, unit_owners
from generator.diagnostics import Diagnostic, Mark, Severity, did_you_mean, key_path
from generator.installed_map import InstalledMap
from generator.paths import UnreadableFile, inside, read_regular_file
from generator.spec.locate import locate
from generator.spec.model import Spec
from generator.spec.unit_image import UnitImage

MAX_PICTURE_BYTES = 8 << 20
MAX_PICTURE_SIDE = 1024
_PNG = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True)
class Source:
    """A picture to start from: a map's or the stock art's `<player>/<name>.png`, or a drawn file."""

    kind: Literal["map", "stock", "file"]
    player: str
    name: str  # the picture's name, or the file's path


@dataclass(frozen=True)
class Recipe:
    """How the package makes one picture."""

    source: Source
    damage: str = ""  # a damage form the source lacks, drawn over it
    mark: str = ""
    outline: str | None = None
    tint: str | None = None
    fit: bool = False  # a drawn file: fitted into the map's unit size


@dataclass
class ArtPlan:
    pictures: dict[tuple[str, str], Recipe] = field(default_factory=dict)  # (player, name) -> recipe
    problems: list[Diagnostic] = field(default_factory=list)


def default_mark(unit: str) -> str:
    """A unit name's initials: heavyTank -> HT, factory12 -> F12, cruiser -> C."""
    digits = re.search(r"\d+$", unit)
    letters = unit[0].upper() + "".join(c for c in unit[1:] if c.isupper())
    return (letters[: 3 - len(digits[0])] + digits[0]) if digits else letters[:3]


@dataclass
class _Planner:
    spec: Spec
    tree: SpecTree
    installed: InstalledMap
    stock: frozenset[tuple[str, str]] | None
    folder_of: Callable[[Mark | None], Path | None]  # the variant folder of a spec file
    rules_root: Path
    from_xml: bool = False  # checking a game XML rather than a spec
    reads: dict[Path, str] | None = None  # where to record the SHA-256 of each picture file read
    plan: ArtPlan = field(default_factory=ArtPlan)
    files: dict[tuple[str, ...], Path | None] = field(default_factory=dict)

    def report(self, path: list[str | int], message: str, severity: Severity = Severity.ERROR) -> None:
        mark = locate(self.tree, path)
        self.plan.problems.append(Diagnostic(message, mark, key_path(path), severity))

    def have(self, player: str, name: str) -> Source | None:
        """The map's picture, else the engine's; None when neither has it."""
        if (player, name) in self.installed.unit_pictures:
            return Source("map", player, name)
        if self.stock is not None and (player, name) in self.stock:
            return Source("stock", player, name)
        return None

    def nearest(self, player: str, unit: str, form: Form) -> tuple[Source, str] | None:
        """The nearest existing picture for `form`, and the damage form still to draw over it."""
        for candidate in form.simpler(unit):
            found = self.have(player, candidate.name)
            if found is not None:
                return found, form.damage if candidate.damage != form.damage else ""
        return None

    def file(self, unit: str, path: list[str | int], value: str) -> Path | None:
        """A drawn picture's path, checked once: inside the rules folder, a PNG of sensible size."""
        key = (unit, *map(str, path))
        if key not in self.files:
            written = locate(self.tree, ["units", unit, "image"])
            shorthand = path == ["file"] and written == locate(self.tree, ["units", unit, "image", "file"])
            where: list[str | int] = ["units", unit, "image", *([] if shorthand else path)]  # `image: x.png`
            self.files[key] = self._check_file(where, value)
        return self.files[key]

    def _check_file(self, path: list[str | int], value: str) -> Path | None:
        mark = locate(self.tree, path)
        folder = self.folder_of(mark)
        pure = PurePosixPath(value)
        if not value or pure.is_absolute() or "\\" in value or folder is None:
            self.report(path, f"{value!r}: give the picture's path relative to the variant's folder, with '/'")
            return None
        target = folder / Path(*pure.parts)
        if not inside(target, self.rules_root):
            self.report(path, f"{value!r} leads outside the rules folder; keep pictures beside the specs")
            return None
        try:
            data = read_regular_file(target, MAX_PICTURE_BYTES)
        except UnreadableFile as exc:
            self.report(path, f"{value!r}: {exc}")
            return None
        if self.reads is not None:  # what the checks said depends on these bytes (emit.cache)
            self.reads[target] = hashlib.sha256(data).hexdigest()
        if data[:8] != _PNG or data[12:16] != b"IHDR":
            self.report(path, f"{value!r} is not a PNG picture")
            return None
        width, height = struct.unpack(">II", data[16:24])
        if not (0 < width <= MAX_PICTURE_SIDE and 0 < height <= MAX_PICTURE_SIDE):
            self.report(path, f"{value!r} is {width}x{height} pixels; a unit picture has at most {MAX_PICTURE_SIDE}")
            return None
        return target

    def own_file(self, unit: str, image: UnitImage, player: str) -> Path | Literal[False] | None:
        """The drawn file `image` gives `player`; False when it gives none (derived or not theirs)."""
        if player in image.players:
            return self.file(unit, ["players", player], image.players[player])
        if image.file is not None:
            return self.file(unit, ["file"], image.file)
        return False

    def image(self, name: str, image: UnitImage) -> None:
        """An `image:` entry on its own: its files, its players, the unit it derives from."""
        for player in sorted(image.players):
            if player not in self.spec.players:
                hint = did_you_mean(player, self.spec.players)
                self.report(["units", name, "image", "players", player], f"unknown player '{player}'{hint}")
            else:
                self.file(name, ["players", player], image.players[player])
        if image.file is not None:
            self.file(name, ["file"], image.file)
        base = image.from_
        if base is not None and (base not in self.spec.units or base == name):
            why = "itself" if base == name else f"unknown unit '{base}'{did_you_mean(base, self.spec.units)}"
            self.report(["units", name, "image", "from"], f"cannot derive {name}'s pictures from {why}")

    def unit(self, name: str, players: set[str], advances: dict[str, set[str]], uncertain: set[str]) -> None:
        image = self.spec.units[name].image
        missing: list[str] = []
        for player in sorted(players):
            forms = picture_forms(self.spec, name, advances.get(player, set()))
            own = self.own_file(name, image, player) if image is not None else False
            if own is None:
                continue  # reported where the file is named
            if own is not False:
                drawn = Source("file", "", str(own))
                for form in forms:
                    self.plan.pictures[(player, form.name)] = Recipe(drawn, form.damage, fit=True)
            elif image is not None and image.from_ is not None:
                self.derived(name, image, player, forms)
            elif self.have(player, name) is None:
                if self.stock is not None:
                    missing.append(player)
            else:
                for form in forms[1:]:  # a tech or damage form the map and the stock art lack
                    found = self.nearest(player, name, form) if self.have(player, form.name) is None else None
                    if found is not None:
                        self.plan.pictures[(player, form.name)] = Recipe(*found)
        sure = [p for p in missing if p not in uncertain]
        if sure:
            self.missing(name, sure)
        if len(sure) < len(missing):
            self.missing(name, [p for p in missing if p in uncertain], Severity.WARNING)

    def derived(self, name: str, image: UnitImage, player: str, forms: list[Form]) -> None:
        base = image.from_
        assert base is not None
        where: list[str | int] = ["units", name, "image", "from"]
        if base not in self.spec.units or base == name:
            return  # reported with the entry
        mark = default_mark(name) if image.mark is None else image.mark
        if not (mark or image.outline or image.tint):
            self.report(where, f"{name} would look just like {base}: give a mark, an outline or a tint")
            return
        outline, tint = image.outline, image.tint
        other = self.spec.units[base].image
        drawn = self.own_file(base, other, player) if other is not None else False
        if drawn is None:
            return
        if drawn is not False:
            for form in forms:
                source = Source("file", "", str(drawn))
                self.plan.pictures[(player, form.name)] = Recipe(source, form.damage, mark, outline, tint, fit=True)
            return
        if other is not None and other.from_ is not None:
            self.report(where, f"{base}'s pictures are derived themselves; derive from a unit with pictures of its own")
            return
        for form in forms:
            found = self.nearest(player, base, Form(base, form.suffixes, form.damage))
            if found is None:
                if self.stock is None:
                    message = f"{base} for {player} is not in the map, and the engine's stock art is not installed here"
                    self.report(where, message, Severity.WARNING)
                else:
                    message = f"{base} has no picture for {player} (units/{player}/{base}.png): nothing to derive from"
                    self.report(where, message)
                return
            self.plan.pictures[(player, form.name)] = Recipe(found[0], found[1], mark, outline, tint)

    def missing(self, name: str, players: list[str], severity: Severity = Severity.ERROR) -> None:
        similar = _similar_unit(self.spec, name, players, self)
        fix = f"image: {{from: {similar}, mark: {default_mark(name)}}}" if similar else f"image: {name}.png"
        who = ", ".join(players) + (" (if they capture one)" if severity is Severity.WARNING else "")
        if self.from_xml:  # a game XML has no `image:`: the map needs the pictures
            remedy = f"add units/<player>/{name}.png to the map, or import the game and give units.{name} `{fix}`"
        else:
            remedy = (
                f"add `{fix}` to units.{name} (derived from each player's {similar or 'picture of another unit'}) "
                f"or `image: {name}.png` (drawn)"
            )
        message = (
            f"no picture of {name} for {who}: units/<player>/{name}.png is in neither the map "
            f"'{self.installed.name}' nor the engine's stock art; {remedy}" + self._case_hint(name, players)
        )
        where = locate(self.tree, ["units", name], key=True)
        self.plan.problems.append(Diagnostic(message, where, f"units.{name}", severity))

    def _case_hint(self, name: str, players: list[str]) -> str:
        """A picture whose name differs only in case: it works where file names ignore case only."""
        wanted = {(p, name.lower()) for p in players}
        found = sorted(f"units/{p}/{n}.png" for p, n in self.installed.unit_pictures if (p, n.lower()) in wanted)
        return f"; {', '.join(found)} differs in case only (file names are case-sensitive on Linux)" if found else ""


def _similar_unit(spec: Spec, name: str, players: list[str], planner: _Planner) -> str | None:
    """A unit of the same kind (air, sea, land) every one of `players` has a picture of; one whose
    name is part of `name` first (`t34Armour` from armour, `essexCarrier` from carrier)."""
    kind = _kind(spec.units[name].options)
    candidates = [
        other
        for other, unit in spec.units.items()
        if other != name
        and unit.image is None
        and _kind(unit.options) == kind
        and all(planner.have(p, other) for p in players)
    ]
    named = [other for other in candidates if other.lower() in name.lower()]
    return max(named, key=len) if named else (candidates[0] if candidates else None)


def _kind(options: Mapping[str, object]) -> str:
    for flag in ("isAir", "isSea"):
        if options.get(flag) is True:
            return flag
    return "land"


def plan_unit_art(
    spec: Spec,
    tree: SpecTree,
    installed: InstalledMap,
    stock: frozenset[tuple[str, str]] | None,
    folder_of: Callable[[Mark | None], Path | None],
    rules_root: Path,
    from_xml: bool = False,
    reads: dict[Path, str] | None = None,
) -> ArtPlan:
    """Every picture the package must make for `spec` on `installed`, and every picture missing.

    With `reads`, the SHA-256 of each picture file read is recorded there, by its path.
    """
    planner = _Planner(spec, tree, installed, stock, folder_of, rules_root, from_xml, reads)
    advances = player_advances(spec)
    for name, unit in spec.units.items():
        if unit.image is not None:
            planner.image(name, unit.image)
    uncertain = uncertain_owners(spec)
    for name, players in sorted(unit_owners(spec).items()):
        planner.unit(name, players, advances, uncertain.get(name, set()))
    return planner.plan
