"""The units per nation on a page: each unit a nation can own, with its picture, numbers and price.

A nation's units are those it can come to own (checks.unit_owners: what it starts with, buys, is
given or captures); the price is what its own production frontier asks (a unit it cannot buy has
none), the count what it holds at the start.
"""

from __future__ import annotations

from dataclasses import dataclass

from generator.checks.unit_owners import unit_owners
from generator.checks.variant import CheckedVariant
from generator.installed_map import InstalledMap
from generator.release.pictures.board import player_colours
from generator.release.site.art import UnitArt
from generator.release.site.board import hex_of, written_at
from generator.spec.model import NEUTRAL, Spec
from generator.spec.option_values import OptionValue

NUMBERS = ("attack", "defense", "movement")


@dataclass(frozen=True)
class UnitFacts:
    name: str
    picture: str | None
    numbers: tuple[int, int, int]  # attack, defence, movement
    cost: str  # "3 PUs" (its nation's frontier), "" when it cannot buy it
    at_start: int
    options: tuple[str, ...]  # the options set to true as the spec names them, then the others: "transportCost 2"
    written: tuple[str, ...]


@dataclass
class Nation:
    name: str
    colour: str
    alliances: str
    resources: str  # "24 PUs"
    territories: int
    production: int
    units: list[UnitFacts]

    @property
    def at_start(self) -> int:
        return sum(u.at_start for u in self.units)


def _amount(value: OptionValue) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _said(value: OptionValue) -> str:
    return ", ".join(map(str, value)) if isinstance(value, list) else str(value)


def _costs(spec: Spec, player: str) -> dict[str, str]:
    """What the player's frontier asks for each unit it sells: '3 PUs', or '12 PUs for 2'."""
    frontier = spec.players[player].production_frontier if player in spec.players else None
    costs: dict[str, str] = {}
    for rule_name in spec.production_frontiers.get(frontier or "", []):
        rule = spec.production_rules.get(rule_name)
        if rule is None:
            continue
        price = ", ".join(f"{n} {resource}" for resource, n in rule.cost.items())
        for unit, n in rule.result.items():
            if unit in spec.units:
                costs.setdefault(unit, price if n == 1 else f"{price} for {n}")
    return costs


def _held(spec: Spec, player: str) -> dict[str, int]:
    """Units of `player` at the start: on the board (damaged ones too) and bought, not yet placed."""
    held = dict(spec.players[player].held_units) if player in spec.players else {}
    for territory in spec.territories.values():
        for unit, n in territory.units.get(player, {}).items():
            held[unit] = held.get(unit, 0) + n
        for damaged in territory.damaged_units:
            if (damaged.owner or territory.owner or NEUTRAL) == player:
                held[damaged.unit] = held.get(damaged.unit, 0) + damaged.quantity
    return held


def nations(checked: CheckedVariant, art: UnitArt, installed: InstalledMap) -> list[Nation]:
    """Every player (and the neutral units, when there are any) with the units it can own."""
    spec, tree = checked.spec, checked.resolved.tree
    colours = player_colours(spec, installed)
    owners = unit_owners(spec)
    found: list[Nation] = []
    for player in [*spec.players, NEUTRAL]:
        mine = [unit for unit in spec.units if player in owners.get(unit, set())]
        if player == NEUTRAL and not mine:
            continue
        costs, held = _costs(spec, player), _held(spec, player)
        units = []
        for name in mine:
            options = spec.units[name].options
            attack, defense, movement = (_amount(options.get(n, 0)) for n in NUMBERS)
            flags = [o for o, v in options.items() if v is True]
            others = [f"{o} {_said(v)}" for o, v in options.items() if not (o in NUMBERS or isinstance(v, bool))]
            units.append(
                UnitFacts(
                    name, art.url(player, name), (attack, defense, movement), costs.get(name, ""),
                    held.get(name, 0), (*flags, *others), written_at(tree, ["units", name]),
                )
            )  # fmt: skip
        own = [t for t in spec.territories.values() if t.owner == player and not t.sea]
        info = spec.players.get(player)
        resources = ", ".join(f"{n} {r}" for r, n in info.resources.items()) if info is not None else ""
        found.append(
            Nation(
                player, hex_of(colours.get(player, colours[NEUTRAL])), ", ".join(info.alliances) if info else "",
                resources, len(own), sum(_amount(t.options.get("production", 0)) for t in own), units,
            )
        )  # fmt: skip
    return found
