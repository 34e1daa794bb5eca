"""Mistakes the engine accepts silently and that break play: found here, before anyone plays.

Each check names what goes wrong in a game, since the engine itself says nothing (see the
measured cases in the engine notes): negative stats, property values outside their range, a
player who can never buy or has no capital, a victory threshold no one can reach, units placed
where they cannot be.
"""

from __future__ import annotations

from typing import Any

from generator.diagnostics import Diagnostic, Severity, key_path
from generator.locate import locate
from generator.model import Property, Spec

# UnitAttachment numbers that must not be negative; -1 is not "unlimited" for any of these.
NON_NEGATIVE_UNIT_STATS = (
    "movement", "attack", "defense", "attackRolls", "defenseRolls", "transportCost", "transportCapacity",
    "carrierCost", "carrierCapacity", "hitPoints", "airAttack", "airDefense", "bombard", "blockade",
)  # fmt: skip


def _stat(options: dict[str, Any], name: str) -> int:
    value = options.get(name, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _flag(options: dict[str, Any], name: str) -> bool:
    return options.get(name) is True


def check_sanity(spec: Spec, tree: Any) -> list[Diagnostic]:
    found: list[Diagnostic] = []

    def report(path: tuple[str | int, ...], message: str, severity: Severity = Severity.ERROR) -> None:
        found.append(Diagnostic(message, locate(tree, path), key_path(path), severity))

    for name, unit in spec.units.items():
        for stat in NON_NEGATIVE_UNIT_STATS:
            if _stat(unit.options, stat) < 0:
                report(("units", name, stat), f"{stat} must not be negative (the engine accepts it silently)")
    for name, prop in spec.properties.items():
        if isinstance(prop, Property) and isinstance(prop.value, int) and not isinstance(prop.value, bool):
            low, high = prop.min, prop.max
            if (low is not None and prop.value < low) or (high is not None and prop.value > high):
                report(("properties", name, "value"), f"value {prop.value} is outside its range {low}..{high}")
    _check_players(spec, report)
    _check_victory(spec, report)
    _check_placements(spec, report)
    return found


def _check_players(spec: Spec, report: Any) -> None:
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


def _check_victory(spec: Spec, report: Any) -> None:
    total = sum(_stat(t.options, "victoryCity") for t in spec.territories.values())
    if not total:
        return
    for name, prop in spec.properties.items():
        value = prop.value if isinstance(prop, Property) else prop
        if name.endswith(" VCs") and isinstance(value, int) and not isinstance(value, bool) and value > total:
            path = ("properties", name) + (("value",) if isinstance(prop, Property) else ())
            report(path, f"needs {value} victory cities but the map has only {total}: no one can win this way")


def _check_placements(spec: Spec, report: Any) -> None:
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
