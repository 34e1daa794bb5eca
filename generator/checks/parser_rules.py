"""The game parser's own refusals that no other check of the spec makes, found in the spec.

Beside the attachments' options (checks/engine_rules.py), an engine refuses a game for what its
parser builds: a frontier that lists a rule twice (`ProductionFrontier.addRule`: "Rule already
added"), a technology whose `tech` names no built-in advance, or that names one and has abilities
of its own (`TechAbilityAttachment.validate`), a unit placed with as many hits as it has hit points,
a rule with no cost or no result (2.x), a canal on other than two sea zones. Each check here
answers one `spec_check` entry of `generator/catalog/engine-checks-<engine>.json` (by words of its
message, `PARSER_CHECKS`), so it runs for the engines whose catalog has that entry and no other.
Each yields the key path to blame and what is wrong there, in our words; engine_rules quotes the
engine's message beside it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

from generator.catalog.checks import load_checks
from generator.checks.engine_reading import game_properties, read_attachment
from generator.diagnostics import did_you_mean
from generator.spec.kinds import ATTACHMENT_PACKAGE
from generator.spec.model import DELEGATE_PACKAGE, ProductionRule, Spec
from generator.spec.option_values import option_writes
from generator.targets import EngineName

Path = tuple[str | int, ...]
_PRODUCTION = "production_frontiers"
Found = Iterator[tuple[Path, str]]


@dataclass(frozen=True)
class EngineFacts:
    """What a finder here (and in checks.in_play_rules) reads of an engine's engine-checks catalog."""

    engine: EngineName
    delegates: frozenset[str]  # the delegate classes it can make (1.9: qualified names, 2.x: short)
    builtin_techs: tuple[str, ...]  # its built-in advances, in the catalog's order


@cache
def engine_facts(engine: EngineName) -> EngineFacts:
    data = load_checks(engine)
    return EngineFacts(engine, frozenset(data["delegates"]), tuple(data["builtinTechs"]))


def _run_counts(spec: Spec, _: EngineFacts) -> Found:
    for name, step in spec.sequence.items():
        if step.max_run_count is not None and step.max_run_count <= 0:
            yield ("sequence", name, "max_run_count"), "max_run_count must be 1 or more (leave it out for no limit)"


def _units_without_attachment(spec: Spec, _: EngineFacts) -> Found:
    for name, unit in spec.units.items():
        attached = any(a.java_class(n) == ATTACHMENT_PACKAGE + "UnitAttachment" for n, a in unit.attachments.items())
        if not unit.options and not attached:
            says = f"{name} has no options, so no unitAttachment: every unit type needs one (give it at least movement)"
            yield ("units", name), says


def _unknown_delegates(spec: Spec, facts: EngineFacts) -> Found:
    """Delegate classes the engine cannot make (1.9 names them qualified, 2.x short)."""
    known = facts.delegates
    for name, delegate in spec.delegates.items():
        java = delegate.java_class
        if java not in known and java.removeprefix(DELEGATE_PACKAGE) not in known:
            short = sorted({k.removeprefix(DELEGATE_PACKAGE) for k in known})
            says = f"no delegate class '{delegate.class_}' in the engine{did_you_mean(delegate.class_, short)}"
            yield ("delegates", name, "class"), says


def _listed_twice(frontiers: dict[str, list[str]], collection: str) -> Found:
    # The engine adds a frontier's rules one by one and throws on the second of one name.
    for name, rules in frontiers.items():
        for index, rule in enumerate(rules):
            if rule in rules[:index]:
                says = f"{rule} is listed twice in frontier {name} (first as item {rules.index(rule)}): list it once"
                yield (collection, name, index), says


def _unknown_advances(spec: Spec, facts: EngineFacts) -> Found:
    builtin = facts.builtin_techs
    for name, tech in (spec.technologies or {}).items():
        if tech.tech is not None and tech.tech.strip() and tech.tech not in builtin:
            says = (
                f"tech '{tech.tech}' is not one of the engine's built-in advances{did_you_mean(tech.tech, builtin)} "
                f"({', '.join(builtin)}); leave tech out for an advance of your own"
            )
            yield ("technologies", name, "tech"), says


def _abilities_of_named_advances(spec: Spec, _: EngineFacts) -> Found:
    # A technology that names a built-in advance takes that advance's own abilities; the engine's
    # TechAbilityAttachment.validate refuses one of its own on it (checked for both engines: 1.9
    # validates while parsing, 2.x when the game is selected).
    for name, tech in (spec.technologies or {}).items():
        if tech.tech is None or not tech.tech.strip():
            continue
        abilities = ATTACHMENT_PACKAGE + "TechAbilityAttachment"
        attached = [n for n, a in tech.attachments.items() if a.java_class(n) == abilities]
        blamed: Path | None = None
        if tech.options:
            blamed = ("technologies", name, next(iter(tech.options)))
        elif attached:
            blamed = ("technologies", name, "attachments", attached[0])
        if blamed is not None:
            says = (
                f"{name} names the built-in advance {tech.tech} (tech), which takes that advance's abilities: it "
                f"cannot have abilities of its own; leave tech out to make an advance of your own, or the "
                f"abilities to use {tech.tech}'s"
            )
            yield blamed, says


def _hits_beyond_hit_points(spec: Spec, facts: EngineFacts) -> Found:

    engine = facts.engine
    properties = game_properties(spec, engine)
    for territory, entry in spec.territories.items():
        for index, damaged in enumerate(entry.damaged_units):
            unit = spec.units.get(damaged.unit)
            if unit is None or damaged.hits == 0:
                continue  # an unknown unit is the reference checks'
            unit_attachment = read_attachment(engine, "UnitAttachment", damaged.unit, unit.options, properties)
            hit_points = unit_attachment.value("hitPoints")
            if isinstance(hit_points, int) and damaged.hits > hit_points - 1:
                says = (
                    f"{damaged.unit} has {hit_points} hit point{'s' * (hit_points != 1)}: it can start with at most "
                    f"{max(hit_points - 1, 0)} hit{'s' * (hit_points != 2)} taken"
                )
                yield ("territories", territory, "damaged_units", index, "hits"), says


def _empty(spec: Spec, part: str, collections: tuple[str, ...]) -> Found:
    for collection in collections:
        rules: dict[str, ProductionRule] = getattr(spec, collection)
        for name, rule in rules.items():
            if not getattr(rule, part):
                what = "costs nothing" if part == "cost" else "makes nothing"
                yield (collection, name, part), f"rule {name} {what}: give it at least one {part}"


def canal_carriers(spec: Spec) -> dict[str, list[Path]]:
    """Each canal's name -> the canalName of every territory that carries it (the engines count them)."""
    carriers: dict[str, list[Path]] = {}
    for territory, entry in spec.territories.items():
        for name, attachment in entry.attachments.items():
            if attachment.java_class(name) != ATTACHMENT_PACKAGE + "CanalAttachment":
                continue
            writes = option_writes(attachment.options.get("canalName")) or []
            for canal, _count in writes[-1:]:
                carriers.setdefault(canal, []).append(("territories", territory, "attachments", name, "canalName"))
    return carriers


def _canals(spec: Spec, _: EngineFacts) -> Found:
    # CanalAttachment.validate counts the territories carrying a canal of each name: exactly two.
    for canal, places in canal_carriers(spec).items():
        if len(places) != 2:
            where = f"{len(places)} territor{'y' if len(places) == 1 else 'ies'}"
            says = f"canal '{canal}' is on {where}: a canal joins exactly two sea zones"
            yield from ((place, says) for place in places)


# Words of the engine's message (after "Class: " where two classes say the same) -> what in the spec fails it.
PARSER_CHECKS: dict[str, Callable[[Spec, EngineFacts], Found]] = {
    "maxRunCount must be positive": _run_counts,
    "does not have unit attachments": _units_without_attachment,
    "is not a delegate": _unknown_delegates,
    "ProductionFrontier: Rule already added": lambda spec, _: _listed_twice(spec.production_frontiers, _PRODUCTION),
    "RepairFrontier: Rule already added": lambda spec, _: _listed_twice(spec.repair_frontiers, "repair_frontiers"),
    "is not a valid technology": _unknown_advances,
    "naming a hardcoded tech": _abilities_of_named_advances,
    "hitsTaken": _hits_beyond_hit_points,
    "No costs for production rule": lambda spec, _: _empty(spec, "cost", ("production_rules",)),
    "No costs for repair rule": lambda spec, _: _empty(spec, "cost", ("repair_rules",)),
    "No results for rule": lambda spec, _: _empty(spec, "result", ("production_rules", "repair_rules")),
    "Wrong number of sea zones": _canals,
}
