"""What the templates need, computed from a `Spec`: flat, ordered, already stringified.

Templates only fill in these values; every decision (order, defaults, class names, which
attachments exist, how a value is written) is made here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from markupsafe import Markup

from generator.spec.kinds import ATTACHMENT_ORDER, ATTACHMENT_PACKAGE, WITH_MAIN
from generator.spec.model import NEUTRAL, HasAttachments, Property, Spec
from generator.spec.option_values import Scalar, option_writes, xml_value

ENGINE_LOADER = "games.strategy.triplea.TripleA"
# Attachments that name other attachments (conditions, triggers) come after the plain ones.
_LATE_CLASSES = ("RulesAttachment", "TriggerAttachment", "PoliticalActionAttachment", "UserActionAttachment")
_SCALARS = (bool, int, str)  # what `option_values.xml_value` writes as it is


@dataclass(frozen=True)
class OptionView:
    name: str
    value: str
    count: str | None = None


@dataclass(frozen=True)
class AttachmentView:
    name: str
    attach_to: str
    java_class: str
    type: str
    options: list[OptionView]


@dataclass(frozen=True)
class StepView:
    name: str
    delegate: str
    player: str | None
    display: str | None
    max_run_count: int | None
    properties: list[tuple[str, str]]


@dataclass(frozen=True)
class PlayerView:
    name: str
    optional: bool
    can_be_disabled: bool
    default_type: str
    hidden: bool


@dataclass(frozen=True)
class PlacementView:
    unit: str
    territory: str
    quantity: int
    owner: str | None
    hits: int = 0
    damage: int = 0


@dataclass(frozen=True)
class PropertyView:
    name: str
    value: str
    editable: bool
    kind: str | None  # 'boolean', 'number', 'string', 'list' or None (no type element)
    min: int | None = None
    max: int | None = None
    choices: str | None = None
    cdata: Markup | None = None  # long text, written as <value><![CDATA[...]]></value>


Rule = tuple[str, list[tuple[str, int]], list[tuple[str, int]]]


@dataclass
class GameView:
    name: str
    version: str | None
    minimum_version: str | None
    dice_sides: int | None
    round_offset: int | None
    territories: list[tuple[str, bool]] = field(default_factory=list)
    connections: list[tuple[str, str]] = field(default_factory=list)
    resources: list[tuple[str, str | None]] = field(default_factory=list)  # name, isDisplayedFor
    players: list[PlayerView] = field(default_factory=list)
    alliances: list[tuple[str, str]] = field(default_factory=list)
    units: list[str] = field(default_factory=list)
    relationship_types: list[str] = field(default_factory=list)
    territory_effects: list[str] = field(default_factory=list)
    delegates: list[tuple[str, str, str | None]] = field(default_factory=list)
    steps: list[StepView] = field(default_factory=list)
    production_rules: list[Rule] = field(default_factory=list)
    repair_rules: list[Rule] = field(default_factory=list)
    repair_frontiers: list[tuple[str, list[str]]] = field(default_factory=list)
    frontiers: list[tuple[str, list[str]]] = field(default_factory=list)
    player_frontiers: list[tuple[str, str]] = field(default_factory=list)
    player_repairs: list[tuple[str, str]] = field(default_factory=list)
    technologies: list[tuple[str, str | None]] = field(default_factory=list)
    player_techs: list[tuple[str, list[tuple[str, list[str]]]]] = field(default_factory=list)
    has_technology: bool = False
    attachments: list[AttachmentView] = field(default_factory=list)
    owners: list[tuple[str, str]] = field(default_factory=list)
    placements: list[PlacementView] = field(default_factory=list)
    held_units: list[tuple[str, str, int]] = field(default_factory=list)
    resources_given: list[tuple[str, str, int]] = field(default_factory=list)
    relationships: list[tuple[str, str, str, int]] = field(default_factory=list)
    properties: list[PropertyView] = field(default_factory=list)
    loader: str = ENGINE_LOADER

    @property
    def has_production(self) -> bool:
        return bool(self.production_rules or self.frontiers or self.repair_rules)


def cdata(text: str) -> Markup:
    """`text` as CDATA content; a ']]>' inside is split across two sections so it cannot end early."""
    return Markup(text.replace("]]>", "]]]]><![CDATA[>"))


def _options(options: dict[str, object]) -> list[OptionView]:
    out = []
    for key, raw in options.items():
        # Most options are one scalar or one list of scalars: one <option>, written as `xml_value` writes it.
        if isinstance(raw, _SCALARS) or (isinstance(raw, list) and all(isinstance(v, _SCALARS) for v in raw)):
            out.append(OptionView(key, xml_value(raw), None))
            continue
        writes = option_writes(raw)
        assert writes is not None, "validate reports badly shaped option values before rendering"
        out += [OptionView(key, value, count) for value, count in writes]
    return out


def _property(name: str, prop: Scalar | Property) -> PropertyView:
    if not isinstance(prop, Property):
        prop = Property(value=prop)
    value = xml_value(prop.value)
    if prop.choices is not None:
        return PropertyView(name, value, prop.editable, "list", choices=",".join(prop.choices))
    if isinstance(prop.value, bool):
        return PropertyView(name, value, prop.editable, "boolean")
    if isinstance(prop.value, int) and (prop.editable or prop.min is not None or prop.max is not None):
        low = prop.min if prop.min is not None else 0
        high = prop.max if prop.max is not None else max(prop.value, 0)
        return PropertyView(name, value, prop.editable, "number", low, high)
    kind = "string" if prop.editable or (isinstance(prop.value, str) and java_int(value)) else None
    return PropertyView(name, value, prop.editable, kind, cdata=cdata(value) if "\n" in value else None)


def java_int(text: str) -> bool:
    """Whether the engine reads a property value without a type as a number (Integer.parseInt)."""
    return re.fullmatch(r"[+-]?[0-9]+", text) is not None and -(2**31) <= int(text) < 2**31


def _rules(rules: dict[str, object]) -> list[Rule]:
    return [(n, list(r.cost.items()), list(r.result.items())) for n, r in rules.items()]  # type: ignore[attr-defined]


def build_view(spec: Spec, notes: str | None = None) -> GameView:
    """Everything the game XML template prints, in output order; `notes` is the rendered notes body."""
    g = GameView(spec.game.name, spec.game.version, spec.game.minimum_version, spec.dice_sides, spec.round_offset)
    g.territories = [(name, t.sea) for name, t in spec.territories.items()]
    seen: set[frozenset[str]] = set()
    for name, territory in spec.territories.items():
        for other in territory.connections:
            pair = frozenset((name, other))
            if pair not in seen:
                seen.add(pair)
                g.connections.append((name, other))
    # isDisplayedFor (2.x): the players who see a resource; NONE for nobody.
    g.resources = [(n, _viewers(r.displayed_for)) for n, r in spec.resources.items()]
    g.players = [
        PlayerView(n, p.optional, p.can_be_disabled, p.default_type, p.hidden) for n, p in spec.players.items()
    ]
    g.alliances = [(name, a) for name, p in spec.players.items() for a in p.alliances]
    g.units = list(spec.units)
    g.relationship_types = list(spec.relationship_types)
    g.territory_effects = list(spec.territory_effects)
    g.delegates = [(name, d.java_class, d.display) for name, d in spec.delegates.items()]
    for name in spec.ordered_steps():
        step = spec.sequence[name]
        props = [(k, xml_value(v)) for k, v in step.properties.items()]
        g.steps.append(StepView(name, step.delegate, step.player, step.display, step.max_run_count, props))
    g.production_rules = _rules(dict(spec.production_rules))
    g.repair_rules = _rules(dict(spec.repair_rules))
    g.frontiers = list(spec.production_frontiers.items())
    g.repair_frontiers = list(spec.repair_frontiers.items())
    players = spec.players.items()
    g.player_frontiers = [(n, p.production_frontier) for n, p in players if p.production_frontier]
    g.player_repairs = [(n, p.repair_frontier) for n, p in players if p.repair_frontier]
    g.has_technology = spec.technologies is not None
    g.technologies = [(name, t.tech) for name, t in (spec.technologies or {}).items()]
    g.player_techs = [(n, list(p.tech_categories.items())) for n, p in players if p.tech_categories]
    g.attachments = _attachments(spec)
    g.owners = [(name, t.owner) for name, t in spec.territories.items() if t.owner]
    for name, t in spec.territories.items():
        for owner, counts in t.units.items():
            who = None if owner == NEUTRAL and owner not in spec.players else owner
            g.placements += [PlacementView(u, name, c, who) for u, c in counts.items() if c > 0]
        for d in t.damaged_units:
            g.placements.append(PlacementView(d.unit, name, d.quantity, d.owner, d.hits, d.damage))
    g.held_units = [(n, unit, count) for n, p in players for unit, count in p.held_units.items()]
    g.resources_given = [(n, resource, amount) for n, p in players for resource, amount in p.resources.items()]
    for name, player in players:
        for other, relation in player.relationships.items():
            kind, started = (relation, 0) if isinstance(relation, str) else (relation.type, relation.round)
            g.relationships.append((name, other, kind, started))
    for name, prop in spec.properties.items():
        g.properties.append(_property(name, prop))
        # Its own <property> element: the engine keeps both and reads the editable one, whichever comes first.
        if isinstance(prop, Property) and prop.constant is not None:
            g.properties.append(_property(name, prop.constant))
    # Text stays text: a map name the engine would read as a number is marked as a string.
    g.properties.append(PropertyView("mapName", spec.game.map, False, "string" if java_int(spec.game.map) else None))
    notes = spec.notes if notes is None else notes
    if notes:
        g.properties.append(PropertyView("notes", "", False, None, cdata=cdata(notes)))
    return g


def _viewers(players: list[str] | None) -> str | None:
    return None if players is None else ":".join(players) or "NONE"


def _attachments(spec: Spec) -> list[AttachmentView]:
    """All attachments, in an order the engine accepts (a referenced attachment comes first)."""
    plain: list[AttachmentView] = []
    for kind in WITH_MAIN:
        main_class = ATTACHMENT_PACKAGE + str(kind.main_class)
        for target, entry in kind.entries(spec).items():
            if entry.options:
                plain.append(AttachmentView(str(kind.main), target, main_class, kind.type, _options(entry.options)))
    extra: list[AttachmentView] = []
    for kind in ATTACHMENT_ORDER:
        owners: dict[str, HasAttachments] = kind.entries(spec)
        for target, entry in owners.items():
            for name, attachment in entry.attachments.items():
                java = attachment.java_class(name)
                assert java is not None, "validate reports attachments without a class before rendering"
                extra.append(AttachmentView(name, target, java, kind.type, _options(attachment.options)))
    early = [a for a in extra if not a.java_class.endswith(_LATE_CLASSES)]
    late = [a for a in extra if a.java_class.endswith(_LATE_CLASSES)]
    return plain + early + _dependency_order(late)


def _dependency_order(attachments: list[AttachmentView]) -> list[AttachmentView]:
    """Stable order in which an attachment comes after every attachment its options name."""
    by_name: dict[str, list[int]] = {}
    for index, a in enumerate(attachments):
        by_name.setdefault(a.name, []).append(index)
    needs: list[set[int]] = []
    names = by_name.keys()
    for index, a in enumerate(attachments):
        # Every ':'-separated token of every option value that names an attachment (set operations in C:
        # games with thousands of conditions and triggers have hundreds of thousands of tokens).
        named = set(":".join(o.value for o in a.options).split(":")) & names if a.options else set()
        needs.append({j for t in named for j in by_name[t] if j != index})
    placed: list[int] = []
    done: set[int] = set()
    visiting: set[int] = set()

    def place(index: int) -> None:
        if index in done or index in visiting:
            return  # a reference cycle keeps spec order; the engine reports it if it matters
        visiting.add(index)
        for dep in sorted(needs[index]):
            place(dep)
        visiting.discard(index)
        done.add(index)
        placed.append(index)

    for index in range(len(attachments)):
        place(index)
    return [attachments[i] for i in placed]
