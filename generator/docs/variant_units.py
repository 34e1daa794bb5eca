"""A shipped variant's units and production frontiers, on its page: what a mod restates without
the repository open.

Every unit type with its kind, its attack, defense and movement, and what buys it; a sheet of
every unit's picture for each player (pictures.unit_sheets); and each production frontier with
its rules in their order (the order the purchase screen shows and a mod restates), who buys from
it, what each rule makes and costs.
"""

from __future__ import annotations

from generator.docs.markdown import cell, code, prose, table
from generator.emit.build import Compiled
from generator.spec.model import Spec

UNITS_SHEETS = "units/all"  # under pictures.IMAGES: one sheet of every unit per variant


def _amounts(amounts: dict[str, int]) -> str:
    return ", ".join(f"{count} {name}" for name, count in amounts.items())


def _kind(options: dict[str, object]) -> str:
    def flag(name: str) -> bool:
        return str(options.get(name, "")).lower() == "true"

    return "air" if flag("isAir") else "sea" if flag("isSea") else "land"


def _bought_with(spec: Spec, unit: str) -> str:
    """The production rules that make `unit`, each with its cost."""
    rules = [(name, rule) for name, rule in spec.production_rules.items() if unit in rule.result]
    return ", ".join(f"{_amounts(rule.cost)} ({code(name)})" for name, rule in rules) or "not bought"


def units_section(item: Compiled, sheet: str) -> list[str]:
    """`## Units`: every unit type in a table, then the sheet of their pictures at `sheet`."""
    spec, name = item.spec, item.name
    rows = [
        [
            code(unit),
            _kind(entry.options),
            *(cell(str(entry.options.get(stat, 0))) for stat in ("attack", "defense", "movement")),
            _bought_with(spec, unit),
        ]
        for unit, entry in spec.units.items()
    ]
    players = ", ".join(spec.players)
    return [
        "## Units",
        "",
        *table(["unit", "kind", "attack", "defense", "movement", "bought with"], rows),
        "",
        prose(
            f"Each unit's picture for each player ({players}), as the client shows them: the map's, "
            "the engine's stock art, or the one the package draws (a blank: no picture of it for that player)."
        ),
        "",
        f"![{name}: every unit's picture for each player]({sheet})",
        "",
    ]


def frontiers_section(item: Compiled) -> list[str]:
    """`## Production frontiers`: each frontier's rules in order, who buys from it."""
    spec = item.spec
    lines = [
        "## Production frontiers",
        "",
        prose(
            "Each frontier's rules in the order the purchase screen lists them; a mod that restates a frontier "
            "(`production_frontiers: {name: [rule, ...]}`) writes the whole list."
        ),
        "",
    ]
    for frontier, rules in spec.production_frontiers.items():
        buyers = [player for player, entry in spec.players.items() if entry.production_frontier == frontier]
        who = f"Bought from by {', '.join(buyers)}." if buyers else "No player buys from it at the start."
        rows = [
            [code(rule), _amounts(spec.production_rules[rule].result), _amounts(spec.production_rules[rule].cost)]
            for rule in rules
            if rule in spec.production_rules
        ]
        lines += [f"### {prose(frontier)}", "", prose(who), "", *table(["rule", "makes", "costs"], rows), ""]
    return lines
