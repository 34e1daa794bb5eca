"""What the templates need, computed from a `Spec`: flat, ordered, already stringified.

Templates only fill in these values; every decision (order, defaults, class names, which
attachments exist, how a value is written) is made here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from markupsafe import Markup

from generator.model import Attachment, OptionValue, Property, Scalar, Spec

ENGINE_LOADER = "games.strategy.triplea.TripleA"


def xml_value(value: OptionValue) -> str:
    """How TripleA reads a spec value: booleans lower-case, lists joined by ':'."""
    if isinstance(value, list):
        return ":".join(xml_value(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


@dataclass(frozen=True)
class AttachmentView:
    name: str
    attach_to: str
    java_class: str
    type: str
    options: list[tuple[str, str]]


@dataclass(frozen=True)
class StepView:
    name: str
    delegate: str
    player: str | None
    display: str | None
    max_run_count: int | None
    properties: list[tuple[str, str]]


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


@dataclass
class GameView:
    name: str
    version: str
    dice_sides: int | None
    territories: list[tuple[str, bool]] = field(default_factory=list)
    connections: list[tuple[str, str]] = field(default_factory=list)
    resources: list[str] = field(default_factory=list)
    players: list[tuple[str, bool]] = field(default_factory=list)
    alliances: list[tuple[str, str]] = field(default_factory=list)
    units: list[str] = field(default_factory=list)
    delegates: list[tuple[str, str, str | None]] = field(default_factory=list)
    steps: list[StepView] = field(default_factory=list)
    production_rules: list[tuple[str, list[tuple[str, int]], list[tuple[str, int]]]] = field(default_factory=list)
    frontiers: list[tuple[str, list[str]]] = field(default_factory=list)
    player_frontiers: list[tuple[str, str]] = field(default_factory=list)
    attachments: list[AttachmentView] = field(default_factory=list)
    owners: list[tuple[str, str]] = field(default_factory=list)
    placements: list[tuple[str, str, int, str]] = field(default_factory=list)
    resources_given: list[tuple[str, str, int]] = field(default_factory=list)
    properties: list[PropertyView] = field(default_factory=list)
    loader: str = ENGINE_LOADER


def _attachment(name: str, attach_to: str, kind: str, attachment: Attachment) -> AttachmentView:
    java = attachment.java_class(name)
    assert java is not None, "validate reports attachments without a class before rendering"
    options = [(key, xml_value(value)) for key, value in attachment.options.items()]
    return AttachmentView(name, attach_to, java, kind, options)


def _flat(name: str, attach_to: str, kind: str, java_class: str, options: dict[str, OptionValue]) -> AttachmentView:
    return AttachmentView(name, attach_to, java_class, kind, [(k, xml_value(v)) for k, v in options.items()])


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
    kind = "string" if prop.editable else None
    return PropertyView(name, value, prop.editable, kind, cdata=cdata(value) if "\n" in value else None)


def cdata(text: str) -> Markup:
    """`text` as CDATA content; a ']]>' inside is split across two sections so it cannot end early."""
    return Markup(text.replace("]]>", "]]]]><![CDATA[>"))


def build_view(spec: Spec) -> GameView:
    """Everything the game XML template prints, in output order."""
    view = GameView(spec.game.name, spec.game.version, spec.dice_sides)
    view.territories = [(name, t.sea) for name, t in spec.territories.items()]
    seen: set[frozenset[str]] = set()
    for name, territory in spec.territories.items():
        for other in territory.connections:
            pair = frozenset((name, other))
            if pair not in seen:
                seen.add(pair)
                view.connections.append((name, other))
    view.resources = list(spec.resources)
    view.players = [(name, p.optional) for name, p in spec.players.items()]
    view.alliances = [(name, a) for name, p in spec.players.items() for a in p.alliances]
    view.units = list(spec.units)
    view.delegates = [(name, d.java_class, d.display) for name, d in spec.delegates.items()]
    for name in spec.ordered_steps():
        step = spec.sequence[name]
        props = [(k, xml_value(v)) for k, v in step.properties.items()]
        view.steps.append(StepView(name, step.delegate, step.player, step.display, step.max_run_count, props))
    view.production_rules = [
        (name, list(rule.cost.items()), list(rule.result.items())) for name, rule in spec.production_rules.items()
    ]
    view.frontiers = list(spec.production_frontiers.items())
    view.player_frontiers = [(name, p.production_frontier) for name, p in spec.players.items() if p.production_frontier]
    view.attachments = _attachments(spec)
    view.owners = [(name, t.owner) for name, t in spec.territories.items() if t.owner]
    view.placements = [
        (unit, name, count, owner)
        for name, t in spec.territories.items()
        for owner, counts in t.units.items()
        for unit, count in counts.items()
        if count > 0
    ]
    view.resources_given = [
        (name, resource, amount) for name, p in spec.players.items() for resource, amount in p.resources.items()
    ]
    view.properties = [_property(name, prop) for name, prop in spec.properties.items()]
    view.properties.append(PropertyView("mapName", spec.game.map, False, None))
    if spec.notes:
        view.properties.append(PropertyView("notes", "", False, None, cdata=cdata(spec.notes)))
    return view


def _attachments(spec: Spec) -> list[AttachmentView]:
    """Attachments in an order the engine accepts: owners' own first, then the rest by kind."""
    out: list[AttachmentView] = []
    for name, player in spec.players.items():
        out += [_attachment(a, name, "player", att) for a, att in player.attachments.items()]
    for name, resource in spec.resources.items():
        out += [_attachment(a, name, "resource", att) for a, att in resource.attachments.items()]
    unit_class = "games.strategy.triplea.attachments.UnitAttachment"
    for name, unit in spec.units.items():
        if unit.options:
            out.append(_flat("unitAttachment", name, "unitType", unit_class, unit.options))
    territory_class = "games.strategy.triplea.attachments.TerritoryAttachment"
    for name, territory in spec.territories.items():
        if territory.options:
            out.append(_flat("territoryAttachment", name, "territory", territory_class, territory.options))
    for name, unit in spec.units.items():
        out += [_attachment(a, name, "unitType", att) for a, att in unit.attachments.items()]
    for name, territory in spec.territories.items():
        out += [_attachment(a, name, "territory", att) for a, att in territory.attachments.items()]
    return out
