"""Which player can own which unit type, and which picture names the engine asks for.

A unit type needs a picture for every player that can come to own one: by buying it (the player's
production frontier, and the frontiers a trigger or Industrial Technology switches to), at the
start (territories, held and damaged units), from a trigger (`placement`, `purchase`), from a unit
that creates it, or by capture (infrastructure changes hands with its territory). Both engines
name the picture `units/<player>/<unit>[suffixes].png`, the suffixes saying which technologies the
player has (`_r`, `_lr`, `_jp`, `_hb`, `_ss`, `_it`, `rockets` for an aaGun) and whether the unit
is damaged (`_hit`) or disabled (`_disabled`): UnitImageFactory.getBaseImageName in 1.9 and 2.x.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from generator.spec.model import NEUTRAL, Attachment, Property, Spec, Unit
from generator.spec.option_values import option_writes

# The built-in advances that change a unit's picture, by their property names, and the names the
# engines also accept for them (display names, normalised: lower case, letters and digits only).
PICTURE_ADVANCES = {
    "jetpower": "jetPower", "supersub": "superSub", "supersubs": "superSub", "longrangeair": "longRangeAir",
    "longrangeaircraft": "longRangeAir", "heavybomber": "heavyBomber", "rocket": "rocket", "rockets": "rocket",
    "rocketsadvance": "rocket", "aaradar": "aARadar", "industrialtechnology": "industrialTechnology",
    "increasedfactoryproduction": "increasedFactoryProduction",
}  # fmt: skip
# Left out, `technologies` means the engine's built-in advances (WW2V3 adds its own set).
DEFAULT_ADVANCES = {"jetPower", "superSub", "longRangeAir", "rocket", "industrialTechnology", "heavyBomber"}
V3_ADVANCES = {"aARadar", "increasedFactoryProduction"}
# Damage forms: the engine appends one of these after the technology suffixes.
HIT, DISABLED = "_hit", "_disabled"
_AA_KINDS = ("isAAforCombatOnly", "isAAforBombingThisUnitOnly", "isAAforFlyOverOnly")
_DAMAGE_TO_UNITS = "Damage From Bombing Done To Units Instead Of Territories"


def _true(value: object) -> bool:
    return value is True or (isinstance(value, str) and value.lower() == "true")


def _number(value: object) -> int:
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return value
    return int(value) if isinstance(value, str) and re.fullmatch(r"-?\d+", value) else 0


def _tokens(value: object) -> Iterator[str]:
    """Every ':'-separated part of every option an option value writes."""
    for text, _count in option_writes(value) or []:
        yield from text.split(":")


def _advance(name: str, spec: Spec) -> str | None:
    """The built-in advance a technology name stands for, when it is one that changes pictures."""
    tech = spec.technologies.get(name) if spec.technologies else None
    key = re.sub(r"[^a-z0-9]", "", ((tech.tech if tech and tech.tech else None) or name).lower())
    return PICTURE_ADVANCES.get(key)


def _property(spec: Spec, name: str) -> bool:
    prop = spec.properties.get(name)
    return _true(prop.value if isinstance(prop, Property) else prop)


def _player_attachments(spec: Spec, suffix: str) -> Iterator[tuple[str, str, Attachment]]:
    """(player, name, attachment) of every player attachment whose class ends with `suffix`."""
    for player, entry in spec.players.items():
        for name, attachment in entry.attachments.items():
            if (attachment.java_class(name) or "").endswith(suffix):
                yield player, name, attachment


def _trigger_players(player: str, attachment: Attachment, spec: Spec) -> set[str]:
    named = {p for p in _tokens(attachment.options.get("players", [])) if p in spec.players}
    return named or {player}


def player_advances(spec: Spec) -> dict[str, set[str]]:
    """Per player, the picture-changing advances the game can give them (researched, set or granted)."""
    found: dict[str, set[str]] = {p: set() for p in spec.players}
    for name, entry in spec.players.items():
        if spec.technologies is None:
            found[name] |= DEFAULT_ADVANCES | (V3_ADVANCES if _property(spec, "WW2V3") else set())
        for techs in entry.tech_categories.values():
            found[name] |= {a for t in techs if (a := _advance(t, spec))}
    for owner, _, attachment in _player_attachments(spec, ".TechAttachment"):
        found[owner] |= {a for key, v in attachment.options.items() if _true(v) and (a := _advance(key, spec))}
    for owner, _, attachment in _player_attachments(spec, ".TriggerAttachment"):
        granted = {a for t in _tokens(attachment.options.get("tech", [])) if (a := _advance(t, spec))}
        for target in _trigger_players(owner, attachment, spec):
            found[target] |= granted
    return found


def _units_of_frontier(spec: Spec, frontier: str) -> set[str]:
    units: set[str] = set()
    for rule in spec.production_frontiers.get(frontier, []):
        if rule in spec.production_rules:
            units |= {u for u in spec.production_rules[rule].result if u in spec.units}
    return units


def unit_owners(spec: Spec) -> dict[str, set[str]]:
    """Per unit type, every player (and `Neutral`) that can come to own one."""
    owners = _owners(spec)
    return {u: sure | maybe for u, (sure, maybe) in owners.items()}


def uncertain_owners(spec: Spec) -> dict[str, set[str]]:
    """Per unit type, the players that own one only if a game goes so: by capturing it (infrastructure
    taken with its territory). A missing picture there is a warning, not an error: real maps leave
    such pictures out and are played."""
    return {u: maybe - sure for u, (sure, maybe) in _owners(spec).items() if maybe - sure}


def _owners(spec: Spec) -> dict[str, tuple[set[str], set[str]]]:
    """Per unit type: the players sure to be able to own one, and those who may by capture."""
    owners: dict[str, set[str]] = {u: set() for u in spec.units}
    advances = player_advances(spec)
    for name, player in spec.players.items():
        frontier = player.production_frontier
        if frontier is not None:
            # Industrial Technology switches a player to `<frontier>IndustrialTechnology`.
            switched = f"{frontier}IndustrialTechnology" if "industrialTechnology" in advances[name] else None
            for other in spec.production_frontiers:
                if other in (frontier, switched):
                    for unit in _units_of_frontier(spec, other):
                        owners[unit].add(name)
        for unit in player.held_units:
            owners.setdefault(unit, set()).add(name)
    for territory in spec.territories.values():
        for owner, counts in territory.units.items():
            for unit in counts:
                owners.setdefault(unit, set()).add(owner)
        for damaged in territory.damaged_units:
            owners.setdefault(damaged.unit, set()).add(damaged.owner or territory.owner or NEUTRAL)
    for owner, _, attachment in _player_attachments(spec, ".TriggerAttachment"):
        targets = _trigger_players(owner, attachment, spec)
        for option in ("placement", "purchase"):
            for unit in (t for t in _tokens(attachment.options.get(option, [])) if t in spec.units):
                owners[unit] |= targets
        for frontier in _tokens(attachment.options.get("frontier", [])):
            for unit in _units_of_frontier(spec, frontier):
                owners[unit] |= targets
        # `productionRule: frontier:rule` adds a rule to a frontier (a tech's heavy tank): its
        # units can be bought by the trigger's players ("-rule" removes one, granting nothing).
        for text, _count in option_writes(attachment.options.get("productionRule", [])) or []:
            rule = text.rsplit(":", 1)[-1]
            if rule in spec.production_rules:
                for unit in (u for u in spec.production_rules[rule].result if u in spec.units):
                    owners[unit] |= targets
    sure = _made_by_makers(spec, {u: set(o) for u, o in owners.items()}, set())
    captors = _captors(spec)
    maybe = {u: set(o) for u, o in sure.items()}
    for unit_name, unit_type in spec.units.items():
        if _flags(unit_type).captured and owners.get(unit_name):  # only what is on the board can be taken
            maybe[unit_name] |= captors - _destroyed_when_captured_by(unit_type)
    maybe = _made_by_makers(spec, maybe, captors)
    return {u: (sure[u], maybe[u]) for u in spec.units}


def _made_by_makers(spec: Spec, owners: dict[str, set[str]], captors: set[str]) -> dict[str, set[str]]:
    """`owners` with what units make: a unit that creates others gives them its owners; one that
    changes when captured becomes the captor's."""
    changed = True
    while changed:
        changed = False
        for maker, kind in spec.units.items():
            for made in (t for t in _tokens(kind.options.get("createsUnitsList", [])) if t in spec.units):
                if not owners[maker] <= owners[made]:
                    owners[made] |= owners[maker]
                    changed = True
            for made in (t for t in _tokens(kind.options.get("whenCapturedChangesInto", [])) if t in spec.units):
                if not captors <= owners[made]:
                    owners[made] |= captors
                    changed = True
    return owners


def _captors(spec: Spec) -> set[str]:
    """The players who can take territory: those who have a step of their own (a hidden player
    who never moves captures nothing)."""
    return {step.player for step in spec.sequence.values() if step.player in spec.players}


def _destroyed_when_captured_by(unit: Unit) -> set[str]:
    """Players a unit is destroyed by rather than taken by (`destroyedWhenCapturedBy: BY:p1:p2`;
    `FROM:...` names the owners it is taken from, no captor)."""
    players: set[str] = set()
    for text, _count in option_writes(unit.options.get("destroyedWhenCapturedBy", [])) or []:
        parts = text.split(":")
        if parts[0] != "FROM":
            players |= set(parts[1:] if parts[0] == "BY" else parts)
    return players


@dataclass(frozen=True)
class Flags:
    """What of a unit type decides its picture names (the engines' setters applied: isAA, isFactory)."""

    air: bool
    bomber: bool
    sub: bool
    fights: bool
    rocket: bool
    anti_air: bool
    produces: bool
    hits: bool
    disables: bool
    captured: bool


def _flags(unit: Unit, damage_to_units: bool = False) -> Flags:
    o = unit.options
    aa = _true(o.get("isAA"))
    factory = _true(o.get("isFactory"))
    damaged = factory or _true(o.get("canBeDamaged"))
    return Flags(
        air=_true(o.get("isAir")),
        bomber=_true(o.get("isStrategicBomber")),
        sub=_true(o.get("isSub")),
        fights=_number(o.get("attack")) > 0 or _number(o.get("defense")) > 0,
        rocket=aa or _true(o.get("isRocket")),
        anti_air=aa or any(_true(o.get(k)) for k in _AA_KINDS),
        produces=factory or _true(o.get("canProduceUnits")),
        hits=_number(o.get("hitPoints")) > 1 or _true(o.get("isTwoHit")) or (damaged and damage_to_units),
        disables=damaged and damage_to_units and _number(o.get("maxOperationalDamage")) >= 0,
        captured=aa or factory or _true(o.get("isInfrastructure")) or bool(o.get("canBeCapturedOnEnteringBy")),
    )


@dataclass(frozen=True)
class Form:
    """One picture name the engine may ask for: `<stem><suffixes><damage>.png`."""

    stem: str
    suffixes: tuple[str, ...] = ()
    damage: str = ""

    @property
    def name(self) -> str:
        return self.stem + "".join(self.suffixes) + self.damage

    def simpler(self, unit: str) -> Iterator[Form]:
        """This form, then the forms to fall back on, nearest first (damage, then suffixes, dropped)."""
        stems = [self.stem] + ([unit] if self.stem != unit else [])
        for stem in stems:
            for keep in range(len(self.suffixes), -1, -1):
                for damage in dict.fromkeys([self.damage, ""]):
                    yield Form(stem, self.suffixes[:keep], damage)


def picture_forms(spec: Spec, unit_name: str, advances: set[str]) -> list[Form]:
    """Every picture name of `unit_name` the engines can ask for, for a player with `advances`."""
    unit = spec.units[unit_name]
    f = _flags(unit, _property(spec, _DAMAGE_TO_UNITS))
    stems = [unit_name]
    optional: list[str] = []  # suffixes in the engine's order; each may be there or not
    if unit_name == "aaGun":
        if f.rocket and "rocket" in advances:
            stems.append("rockets")
        if f.anti_air and "aARadar" in advances:
            optional.append("_r")
    else:
        if f.rocket and "rocket" in advances:
            optional.append("_rockets")
        if f.anti_air and "aARadar" in advances:
            optional.append("_r")
    if f.air and "longRangeAir" in advances:
        optional.append("_lr")
    if f.air and not f.bomber and f.fights and "jetPower" in advances:
        optional.append("_jp")
    if f.air and f.bomber and "heavyBomber" in advances:
        optional.append("_hb")
    if f.sub and f.fights and "superSub" in advances:
        optional.append("_ss")
    if (unit_name == "factory" or f.produces) and advances & {"industrialTechnology", "increasedFactoryProduction"}:
        optional.append("_it")
    damages = [""] + ([HIT] if f.hits else []) + ([DISABLED] if f.disables else [])
    forms = []
    for stem in stems:
        for size in range(len(optional) + 1):
            for chosen in itertools.combinations(optional, size):
                forms += [Form(stem, chosen, damage) for damage in damages]
    return sorted(set(forms), key=lambda form: (form.name != unit_name, form.name))
