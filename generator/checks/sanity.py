"""Mistakes the engine accepts silently and that break play: found here, before anyone plays.

Each check names what goes wrong in a game, since the engine itself says nothing (see the
measured cases in the engine notes): negative stats, property values outside their range, a
player who can never buy or has no capital, a victory threshold no one can reach, units placed
where they cannot be, a unit type that names itself in a set of unit types (engine 1.9 then
cannot copy the game).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

from generator.checks.context import CheckContext, Path, SpecTree
from generator.checks.options import attachments_of
from generator.diagnostics import Diagnostic, Severity, did_you_mean
from generator.spec.model import Property, Spec
from generator.spec.option_values import option_writes
from generator.targets import TARGET_ENGINES, Target

# UnitAttachment numbers that must not be negative; -1 is not "unlimited" for any of these.
NON_NEGATIVE_UNIT_STATS = (
    "movement", "attack", "defense", "attackRolls", "defenseRolls", "transportCost", "transportCapacity",
    "carrierCost", "carrierCapacity", "hitPoints", "airAttack", "airDefense", "bombard", "blockade",
)  # fmt: skip


# TerritoryAttachment numbers that must not be negative: a territory producing less than nothing.
NON_NEGATIVE_TERRITORY_STATS = ("production", "productionOnly", "unitProduction")


def _stat(options: Mapping[str, object], name: str) -> int:
    value = options.get(name, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _flag(options: Mapping[str, object], name: str) -> bool:
    return options.get(name) is True


class _Report(Protocol):
    """Says one problem at a key path of the spec (an error unless `severity` says otherwise)."""

    def __call__(self, path: Path, message: str, severity: Severity = ..., /) -> None: ...


def check_sanity(spec: Spec, tree: SpecTree, target: Target = "portable") -> list[Diagnostic]:
    """`check` for a spec checked outside a variant (a game XML: importer.validate)."""
    return check(CheckContext(spec, tree, target))


def check(ctx: CheckContext) -> list[Diagnostic]:
    """Mistakes the engine accepts without a word: negative stats, players who cannot buy or have no
    capital, unreachable victories, misplaced units, unit types engine 1.9 cannot copy."""
    spec, target = ctx.spec, ctx.target
    found: list[Diagnostic] = []

    def report(path: Path, message: str, severity: Severity = Severity.ERROR) -> None:
        found.append(ctx.at.problem(path, message, severity))

    for name, unit in spec.units.items():
        for stat in NON_NEGATIVE_UNIT_STATS:
            if _stat(unit.options, stat) < 0:
                report(("units", name, stat), f"{stat} must not be negative (the engine accepts it silently)")
    for name, territory in spec.territories.items():
        for stat in NON_NEGATIVE_TERRITORY_STATS:
            if _stat(territory.options, stat) < 0:
                report(("territories", name, stat), f"{stat} must not be negative (the engine accepts it silently)")
    for kind in ("production_rules", "repair_rules"):
        for name, rule in getattr(spec, kind).items():
            for part in ("cost", "result"):
                for item, amount in getattr(rule, part).items():
                    if amount < 0:
                        message = f"{part} of {item} is {amount}; it must not be negative (the engine takes it as is)"
                        report((kind, name, part, item), message)
    _check_players(spec, report)
    _check_victory(spec, report)
    _check_placements(spec, report)
    _check_unit_flags(spec, report, target)
    _check_orphan_rules(spec, report)
    _check_isolated(spec, report)
    if "1.9" in TARGET_ENGINES[target]:
        _check_copyable_in_19(spec, report)
    return found


def _check_players(spec: Spec, report: _Report) -> None:
    capitals = {c for t in spec.territories.values() if isinstance(c := t.options.get("capital"), str)}
    playing = {step.player for step in spec.sequence.values() if step.player}
    for name, player in spec.players.items():
        if name not in playing:
            continue
        buys = any(step.player == name and spec.delegates.get(step.delegate) is not None
                   and spec.delegates[step.delegate].java_class.endswith("PurchaseDelegate")
                   for step in spec.sequence.values())  # fmt: skip
        if buys and player.production_frontier is None:
            report(("players", name), f"{name} has a purchase step but no production_frontier: they can never buy",
                   Severity.WARNING)  # fmt: skip
        if capitals and name not in capitals:
            report(("players", name), f"no territory is the capital of {name} (capital: {name}); the engine "
                   "stops at their first technology or income step", Severity.WARNING)  # fmt: skip


# Rules of combat at sea: on a unit that is not a sea unit they do nothing. The engines refuse
# more on land and air units (isSea with isAir, canBombard, isCombatTransport; 1.9 also isSub):
# checks.engine_rules says so, with their message.
SEA_ONLY_FLAGS = {"1.9": ("isDestroyer",), "2.x": ("isSub", "isDestroyer")}


def _check_unit_flags(spec: Spec, report: _Report, target: Target) -> None:
    flags = [f for f in SEA_ONLY_FLAGS["2.x"] if all(f in SEA_ONLY_FLAGS[e] for e in TARGET_ENGINES[target])]
    for name, unit in spec.units.items():
        if not _flag(unit.options, "isSea"):
            for flag in flags:
                if _flag(unit.options, flag):
                    report(("units", name, flag), f"{flag} on {name}, which is not a sea unit (isSea): it does "
                           "nothing away from the sea", Severity.WARNING)  # fmt: skip


def _check_orphan_rules(spec: Spec, report: _Report) -> None:
    """A production rule in no frontier that no trigger adds to one: nobody can ever buy it."""
    in_frontiers = {rule for rules in spec.production_frontiers.values() for rule in rules}
    outside = [name for name in spec.production_rules if name not in in_frontiers]
    if not outside:  # the usual case: no need to read every option of every attachment
        return
    named = {
        word for _, _, _, options in attachments_of(spec) for value in options.values() for word in _names_in(value)
    }
    for name in outside:
        if name not in named and name.lstrip("-") not in named:
            report(("production_rules", name), f"{name} is in no production frontier and no trigger adds it "
                   "to one: nobody can buy it", Severity.WARNING)  # fmt: skip


def _check_isolated(spec: Spec, report: _Report) -> None:
    """A land territory that borders nothing: often a misspelt name that made a new territory."""
    bordering = {name for t in spec.territories.values() for name in t.connections}
    for name, territory in spec.territories.items():
        if territory.sea or territory.connections or name in bordering:
            continue
        others = [other for other in spec.territories if other != name]
        report(("territories", name), f"'{name}' borders nothing and is not a sea zone, so nothing can ever move "
               f"in or out{did_you_mean(name, others)}", Severity.WARNING)  # fmt: skip


def _check_victory(spec: Spec, report: _Report) -> None:
    total = sum(_stat(t.options, "victoryCity") for t in spec.territories.values())
    if not total:
        return
    for name, prop in spec.properties.items():
        value = prop.value if isinstance(prop, Property) else prop
        if name.endswith(" VCs") and isinstance(value, int) and not isinstance(value, bool) and value > total:
            path = ("properties", name) + (("value",) if isinstance(prop, Property) else ())
            # A warning: triggers may add victory cities later, and the engine plays the game anyway.
            message = f"needs {value} victory cities but the map has only {total}: no one can win this way"
            report(path, message, Severity.WARNING)


def _check_placements(spec: Spec, report: _Report) -> None:
    for name, territory in spec.territories.items():
        capacity = cost = 0
        for owner, counts in territory.units.items():
            for unit_name, count in counts.items():
                unit = spec.units.get(unit_name)
                if unit is None or count <= 0:
                    continue
                options = unit.options
                sea, air = _flag(options, "isSea"), _flag(options, "isAir")
                path = ("territories", name, "units", owner, unit_name)
                if sea and not territory.sea:
                    report(path, f"{unit_name} is a sea unit placed on land", Severity.WARNING)
                if territory.sea and not sea and not air:
                    cost += count * max(_stat(options, "transportCost"), 1)
                    if _stat(options, "transportCost") <= 0 or _flag(options, "isFactory"):
                        report(
                            path, f"{unit_name} is a land unit that cannot be carried, placed at sea", Severity.WARNING
                        )
                capacity += count * _stat(options, "transportCapacity") if sea else 0
        if territory.sea and cost > capacity:
            report(("territories", name, "units"), f"land units at sea need {cost} transport capacity, "
                   f"the ships here carry {capacity}", Severity.WARNING)  # fmt: skip


COPY_19 = "engine 1.9 cannot save or copy a game with this {what} (its AIs fail on their first purchase): "
# UnitAttachment options that engine 1.9 keeps as a hashed set or map of unit types.
UNIT_TYPE_SETS_19 = ("targetsAA", "willNotFireIfPresent", "bombingTargets", "createsUnitsList", "consumesUnits",
                     "repairsUnits", "givesMovement")  # fmt: skip


def _names_in(value: object) -> set[str]:
    """Every ':'-separated word of the `<option>` values a spec option writes."""
    return {word for text, _ in option_writes(value) or [] for word in text.split(":")}


def _check_copyable_in_19(spec: Spec, report: _Report) -> None:
    """A unit type that names itself in a set of unit types: engine 1.9 cannot copy the game data.

    The engine copies the game by Java serialization (its AIs on every purchase, and every save).
    Reading a unit type back, the Java runtime (17 here) sets its name only after its attachments are read;
    an attachment of that unit type that keeps the same unit type in a HashSet or HashMap (a
    support's `unitType`, a unit's `targetsAA`, `createsUnitsList`, ...) hashes it while it has
    no name yet, and UnitType.hashCode fails. Measured in lhtr.xml for each option here (and for
    `artillery: true` on an `artillerySupportable` unit type, whose implied support the engine
    makes the same way); the same options naming another unit type copy fine.
    """
    for name, unit in spec.units.items():
        options = unit.options
        if _flag(options, "artillery") and _flag(options, "artillerySupportable"):
            report(("units", name, "artillery"), COPY_19.format(what="unit") + f"{name} is both artillery and "
                   f"artillerySupportable, so it supports its own unit type", Severity.WARNING)  # fmt: skip
        for option in UNIT_TYPE_SETS_19:
            if name in _names_in(options.get(option)):
                reason = f"its {option} names {name}, the unit type it belongs to"
                report(("units", name, option), COPY_19.format(what="unit") + reason, Severity.WARNING)
        for attachment_name, attachment in unit.attachments.items():
            if not (attachment.java_class(attachment_name) or "").endswith(".UnitSupportAttachment"):
                continue
            if name in _names_in(attachment.options.get("unitType")):
                reason = f"it gives its bonus to {name}, the unit type it is attached to"
                message = COPY_19.format(what="support") + reason
                report(("units", name, "attachments", attachment_name, "unitType"), message, Severity.WARNING)
