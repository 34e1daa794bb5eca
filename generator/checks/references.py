"""What a spec means, checked: references, symmetry, names the 1.9 DTD accepts, the rule ledger.

Reports every problem and never raises; structure was checked by the model (spec.validation).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache
from pathlib import PurePath

from pydantic import BaseModel

from generator.catalog import load_catalog
from generator.checks.context import CheckContext, SpecTree
from generator.checks.names import check as check_names
from generator.checks.proofs import check_proofs
from generator.diagnostics import Diagnostic, did_you_mean
from generator.paths import path_component_problem
from generator.spec.kinds import KINDS
from generator.spec.model import Spec, WithOptions
from generator.spec.option_values import option_writes
from generator.targets import Target

# Relationship types the engine creates in every game (self, null, the default war and alliance).
BUILTIN_RELATIONSHIP_TYPES = tuple(load_catalog("1.9")["parser"]["builtinNames"]["relationshipType"])
# The 1.9 DTD declares these names as ID: one namespace, XML Names only.
_XML_NAME = re.compile(r"[A-Za-z_:][A-Za-z0-9_:.\-]*")


class _Checker:
    """The context every check of this module reads (checks.context), and the problems found."""

    def __init__(self, ctx: CheckContext) -> None:
        self.ctx = ctx
        self.spec = ctx.spec
        self.target = ctx.target
        self.variant = ctx.name
        self.found: list[Diagnostic] = []

    def error(self, path: tuple[str | int, ...], message: str, *, key: bool = False) -> None:
        self.found.append(self.ctx.at.problem(path, message, key=key))

    def ref(
        self, path: tuple[str | int, ...], name: str, kind: str, known: Iterable[str], *, key: bool = False
    ) -> None:
        names = list(known)
        if name not in names:
            self.error(path, f"unknown {kind} '{name}'{did_you_mean(name, names)}", key=key)


def check_spec(
    spec: Spec, tree: SpecTree, target: Target = "portable", variant: str | None = None, *, names: bool = True
) -> list[Diagnostic]:
    """Every reference and naming problem of a resolved spec, located in the file that set it.

    `variant` is the variant's name, when the spec is one: a ledger proof's scenarios must run on it.
    `names`: also every name's characters (checks.names); a caller that checks them first, to keep
    other checks quiet about a broken name, says False (the registry checks names on their own).
    """
    ctx = CheckContext(spec, tree, target, variant)
    return check(ctx) + (check_names(ctx) if names else [])


def check(ctx: CheckContext) -> list[Diagnostic]:
    """Every reference of the spec to a thing it must define, and what a spec's meaning needs."""
    c = _Checker(ctx)
    for check_part in _CHECKS:
        check_part(c)
    return c.found


def _check_players(c: _Checker) -> None:
    """A player's frontiers, resources, held units, technologies and relationships exist."""
    spec = c.spec
    for name, player in spec.players.items():
        if player.production_frontier is not None:
            where: tuple[str | int, ...] = ("players", name, "production_frontier")
            c.ref(where, player.production_frontier, "production frontier", spec.production_frontiers)
        if player.repair_frontier is not None:
            where = ("players", name, "repair_frontier")
            c.ref(where, player.repair_frontier, "repair frontier", spec.repair_frontiers)
        for resource in player.resources:
            c.ref(("players", name, "resources", resource), resource, "resource", spec.resources, key=True)
        for unit in player.held_units:
            c.ref(("players", name, "held_units", unit), unit, "unit", spec.units, key=True)
        for category, techs in player.tech_categories.items():
            for index, tech in enumerate(techs):
                where = ("players", name, "tech_categories", category, index)
                c.ref(where, tech, "technology", spec.technologies or {})
        for other, relation in player.relationships.items():
            at: tuple[str, ...] = ("players", name, "relationships", other)
            c.ref(at, other, "player", spec.players, key=True)
            kind = relation if isinstance(relation, str) else relation.type
            where_type = at if isinstance(relation, str) else (*at, "type")
            c.ref(where_type, kind, "relationship type", [*spec.relationship_types, *BUILTIN_RELATIONSHIP_TYPES])


def _check_resources(c: _Checker) -> None:
    """The players a resource is shown to exist."""
    for name, kept in c.spec.resources.items():
        for index, viewer in enumerate(kept.displayed_for or []):
            c.ref(("resources", name, "displayed_for", index), viewer, "player", c.spec.players)


def _check_territories(c: _Checker) -> None:
    """Owners, units and borders exist; a border is listed on both sides and never to itself."""
    spec, territories = c.spec, c.spec.territories
    for name, territory in territories.items():
        if territory.owner is not None:
            c.ref(("territories", name, "owner"), territory.owner, "player", spec.players)
        for index, other in enumerate(territory.connections):
            path: tuple[str | int, ...] = ("territories", name, "connections", index)
            if other == name:
                c.error(path, "a territory cannot border itself")
            elif other not in territories:
                c.ref(path, other, "territory", territories)
            elif name not in territories[other].connections:
                c.error(
                    path,
                    f"'{other}' does not list '{name}' in its connections; borders are listed on both sides",
                )
        for owner, counts in territory.units.items():
            if owner != "Neutral":
                c.ref(("territories", name, "units", owner), owner, "player", spec.players, key=True)
            for unit in counts:
                c.ref(("territories", name, "units", owner, unit), unit, "unit", spec.units, key=True)
        for index, damaged in enumerate(territory.damaged_units):
            where: tuple[str | int, ...] = ("territories", name, "damaged_units", index)
            c.ref((*where, "unit"), damaged.unit, "unit", spec.units)
            if damaged.owner is not None:
                c.ref((*where, "owner"), damaged.owner, "player", spec.players)


def _check_rules(c: _Checker) -> None:
    """Production and repair rules cost resources and make units or resources; frontiers list rules."""
    spec = c.spec
    made_things = [*spec.units, *spec.resources]
    for collection, rules in (("production_rules", spec.production_rules), ("repair_rules", spec.repair_rules)):
        for name, rule in rules.items():
            for resource in rule.cost:
                c.ref((collection, name, "cost", resource), resource, "resource", spec.resources, key=True)
            for made in rule.result:
                c.ref((collection, name, "result", made), made, "unit or resource", made_things, key=True)
    for name, listed in spec.production_frontiers.items():
        for index, rule_name in enumerate(listed):
            c.ref(("production_frontiers", name, index), rule_name, "production rule", spec.production_rules)
    for name, listed in spec.repair_frontiers.items():
        for index, rule_name in enumerate(listed):
            c.ref(("repair_frontiers", name, index), rule_name, "repair rule", spec.repair_rules)


def _check_sequence(c: _Checker) -> None:
    """A step's delegate, player and the steps it is placed after or before exist."""
    spec = c.spec
    for name, step in spec.sequence.items():
        c.ref(("sequence", name, "delegate"), step.delegate, "delegate", spec.delegates)
        if step.player is not None:
            c.ref(("sequence", name, "player"), step.player, "player", spec.players)
        for anchor_key in ("after", "before"):
            anchor = getattr(step, anchor_key)
            if anchor is not None:
                c.ref(("sequence", name, anchor_key), anchor, "step", spec.sequence)


def _check_for_19(c: _Checker) -> None:
    """Engine 1.9 reads names as XML IDs and needs the game's version."""
    if c.target not in ("1.9", "portable"):
        return
    _check_ids(c)
    if c.spec.game.version is None:
        c.error(("game",), 'engine 1.9 needs game.version (e.g. version: "1.0")')


def _check_proofs(c: _Checker) -> None:
    """The ledger's proofs name scenarios and facts that exist (checks.proofs)."""

    def written_here(path: tuple[str | int, ...]) -> bool:
        mark = c.ctx.at.mark(path)
        return mark is not None and PurePath(mark.file).parent.name == c.variant

    for path, message, key in check_proofs(c.spec, c.variant, written_here):
        c.error(path, message, key=key)


def _check_file_names(c: _Checker) -> None:
    """Names that become folders and files of a package must not lead anywhere else."""
    if c.spec.game.map:  # empty in a game with no mapName property, which the engine allows
        problem = path_component_problem(c.spec.game.map, "map name")
        if problem:
            c.error(("game", "map"), f"{problem}; it names the map's folder and zip")
    for file in c.spec.map_files:
        problem = path_component_problem(file, "map file name")
        if problem:
            c.error(("map_files", file), f"{problem}; it becomes <name>.properties in the map", key=True)


Where = tuple["Where", str | int] | None  # a place as a chain (parent chain, key), spelled out when used
_LEDGER_FIELDS = ("ledger", "ledger_options", "rule_ledger")


def _elements(spec: Spec) -> list[tuple[Where, BaseModel]]:
    """Every element (model) of the spec with its place, parents before what they hold, in field
    order: what `ledger:` claims and `ledger_options` are read from. One walk serves both, and it
    goes only into what can hold an element (a game holds tens of thousands of plain values)."""
    found: list[tuple[Where, BaseModel]] = []

    def walk(value: object, where: Where) -> None:
        if isinstance(value, BaseModel):
            found.append((where, value))
            for name, key in _held_fields(type(value)):
                walk(getattr(value, name), (where, key))
        elif isinstance(value, dict):
            for key, item in value.items():
                if isinstance(item, BaseModel | dict | list):
                    walk(item, (where, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                if isinstance(item, BaseModel | dict | list):
                    walk(item, (where, index))

    walk(spec, None)
    return found


@cache
def _held_fields(model: type[BaseModel]) -> tuple[tuple[str, str], ...]:
    """(attribute, key) of the fields of `model` that may hold elements (all but the ledger's own)."""
    return tuple((n, f.alias or n) for n, f in model.model_fields.items() if n not in _LEDGER_FIELDS)


def _spelled(where: Where) -> tuple[str | int, ...]:
    parts: list[str | int] = []
    while where is not None:
        where, key = where
        parts.append(key)
    return tuple(reversed(parts))


def _claims(elements: list[tuple[Where, BaseModel]]) -> Iterator[tuple[tuple[str | int, ...], str]]:
    """(key path of the claim, ledger id) for every `ledger:` claim anywhere in the spec."""
    for where, element in elements:
        claims = getattr(element, "ledger", None)
        if claims:
            path = _spelled(where)
            for index, rule_id in enumerate(claims):
                yield (*path, "ledger", index), rule_id


def _narrowed(elements: list[tuple[Where, BaseModel]]) -> Iterator[tuple[tuple[str | int, ...], BaseModel]]:
    """(key path, element) for every element whose `ledger_options` narrows its claims."""
    for where, element in elements:
        if getattr(element, "ledger_options", None):
            yield _spelled(where), element


def _check_ledger_options(c: _Checker, elements: list[tuple[Where, BaseModel]]) -> None:
    """`ledger_options` narrows claims the element makes, to options the element sets."""
    for path, element in _narrowed(elements):
        fields = type(element).model_fields
        written = {(fields[n].alias or n) if n in fields else n for n in element.model_fields_set}
        written -= {"ledger", "ledger_options"}
        claims = list(getattr(element, "ledger", []))
        for rule_id, options in element.ledger_options.items():  # type: ignore[attr-defined]
            at = (*path, "ledger_options", rule_id)
            if rule_id not in claims:
                c.error(at, f"'{rule_id}' is not claimed by this element: add it to its `ledger` list", key=True)
            for index, option in enumerate(options):
                if option not in written:
                    c.error(
                        (*at, index),
                        f"'{rule_id}' is narrowed to option '{option}', which this element does not set"
                        f"{did_you_mean(option, sorted(written))}",
                    )


def _check_ledger(c: _Checker) -> None:
    """Claims name real ledger entries; every rule graded exact/approximate is implemented somewhere."""
    ledger = c.spec.rule_ledger
    claimed: set[str] = set()
    elements = _elements(c.spec)
    _check_ledger_options(c, elements)
    for path, rule_id in _claims(elements):
        claimed.add(rule_id)
        c.ref(path, rule_id, "rule-ledger id", ledger)
    for rule_id, entry in ledger.items():
        grades = [entry.fidelity.grade] + ([entry.fidelity_2x.grade] if entry.fidelity_2x else [])
        if rule_id not in claimed and any(g != "notes-only" for g in grades):
            c.error(
                ("rule_ledger", rule_id),
                f"rule '{rule_id}' is graded {'/'.join(sorted(set(grades) - {'notes-only'}))} but no spec element "
                f"implements it (add `ledger: [{rule_id}]` to the elements that do)",
                key=True,
            )


def _check_attachments(c: _Checker) -> None:
    """Every attachment has a known class and every option value a shape that can be written."""
    for kind in KINDS:
        for owner, entry in kind.entries(c.spec).items():
            if isinstance(entry, WithOptions):
                _check_option_shapes(c, (kind.collection, owner), entry.options)
            for name, attachment in entry.attachments.items():
                path = (kind.collection, owner, "attachments", name)
                if attachment.java_class(name) is None:
                    c.error(path, "cannot tell the attachment's class from its name; add `class:`", key=True)
                _check_option_shapes(c, path, attachment.options)


def _check_option_shapes(c: _Checker, path: tuple[str | int, ...], options: Mapping[str, object]) -> None:
    for key, value in options.items():
        if option_writes(value) is None:
            c.error(
                (*path, key),
                "an option value is a scalar, a list of scalars, {value: .., count: ..}, "
                "or a list of lists / {value, count} mappings (the option repeated)",
            )


def _check_ids(c: _Checker) -> None:
    """Engine 1.9 treats these names as XML IDs: XML Names, unique across all kinds."""
    spec = c.spec
    kinds: list[tuple[str, Iterable[str]]] = [
        ("resources", spec.resources),
        ("units", spec.units),
        ("players", spec.players),
        ("delegates", spec.delegates),
        ("sequence", spec.sequence),
        ("production_rules", spec.production_rules),
        ("production_frontiers", spec.production_frontiers),
        ("repair_rules", spec.repair_rules),
        ("repair_frontiers", spec.repair_frontiers),
        ("relationship_types", spec.relationship_types),
        ("territory_effects", spec.territory_effects),
        ("technologies", spec.technologies or {}),
    ]
    owner_of: dict[str, str] = {}
    for collection, names in kinds:
        for name in names:
            path = (collection, name)
            if not _XML_NAME.fullmatch(name):
                c.error(
                    path,
                    f"'{name}' is not a valid XML name (letters, digits, '_', '-', '.'; "
                    "no spaces; not starting with a digit), which engine 1.9 requires",
                    key=True,
                )
            if name in owner_of:
                c.error(
                    path,
                    f"'{name}' is also the name of an entry in {owner_of[name]}; "
                    "engine 1.9 needs these names to be unique across kinds",
                    key=True,
                )
            else:
                owner_of[name] = collection


# Every check of a spec's meaning, in the order its problems are found.
_CHECKS: tuple[Callable[[_Checker], None], ...] = (
    _check_players,
    _check_resources,
    _check_territories,
    _check_rules,
    _check_sequence,
    _check_attachments,
    _check_file_names,
    _check_for_19,
    _check_ledger,
    _check_proofs,
)
