"""The facts `triplea-forge diff` compares: a resolved spec as flat, name-keyed records of text.

Every input (a variant, a variant at a git revision, any game XML through the importer) becomes a
`Spec` first and then these facts, so what is compared never depends on where it came from or on
the order things were written in. Values are the text the engine reads (`option_writes`,
`xml_value`): `attack: 1` and `attack: "1"` are the same fact. Only the order of the steps (play
order) and of a production frontier's rules (display order) is kept, because only there does the
engine's meaning depend on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from generator.diff.pattern_facts import drop_made, made_paths, pattern_facts, plural
from generator.spec.kinds import ATTACHMENT_ORDER, WITH_MAIN, class_from_name
from generator.spec.model import Attachment, ProductionRule, Property, Spec
from generator.spec.option_values import Scalar, option_writes, xml_value
from generator.spec.patterns import PATTERNS

DASH = "\N{EN DASH}"  # between the two ends of a connection or relationship
Value = str | tuple[str, ...]
Entity = dict[str, Value]
Key = tuple[str, ...]
Facts = dict[str, dict[Key, Entity]]


@dataclass(frozen=True)
class Domain:
    """One group of the report: what its entries are called and how their fields read."""

    id: str  # as in the JSON report
    title: str
    noun: str  # one entry, for collapsed lines ("12 territories changed production")
    plural: str
    options: bool = False  # fields are attachment options: true/false reads as gains/loses
    counts: bool = False  # a missing number is 0 (units at start)
    renames: bool = False  # a removed and an added entry with the same content is a rename
    ordered: bool = False  # entry order is meaningful (steps: play order)
    key_style: str = "plain"  # how a key tuple is written: plain, pair, owned, file


DOMAINS: tuple[Domain, ...] = (
    Domain("game", "Game", "setting", "settings"),
    # Rule patterns: the rules as the spec states them, before the plumbing they make.
    *(Domain(p.collection, plural(p.noun).capitalize(), p.noun, plural(p.noun)) for p in PATTERNS),
    Domain("players", "Players", "player", "players"),
    Domain("alliances", "Alliances", "alliance", "alliances"),
    Domain("relationships", "Relationships", "relationship", "relationships", key_style="pair"),
    Domain("relationship_types", "Relationship types", "relationship type", "relationship types", options=True),
    Domain("resources", "Resources", "resource", "resources"),
    Domain("units", "Units", "unit", "units", options=True, renames=True),
    Domain("production_rules", "Production rules", "production rule", "production rules", renames=True),
    Domain("production_frontiers", "Production frontiers", "frontier", "frontiers"),
    Domain("repair_rules", "Repair rules", "repair rule", "repair rules", renames=True),
    Domain("repair_frontiers", "Repair frontiers", "repair frontier", "repair frontiers"),
    Domain("territories", "Territories", "territory", "territories", options=True, renames=True),
    Domain("connections", "Connections", "connection", "connections", key_style="pair"),
    Domain("starting_units", "Units at start", "placement", "placements", counts=True, key_style="owned"),
    Domain("territory_effects", "Territory effects", "territory effect", "territory effects", options=True),
    Domain("technologies", "Technologies", "technology", "technologies", options=True),
    Domain("delegates", "Delegates", "delegate", "delegates"),
    Domain("steps", "Turn order and steps", "step", "steps", renames=True, ordered=True),
    Domain("properties", "Game properties", "property", "properties"),
    Domain("conditions", "Conditions", "condition", "conditions", options=True, renames=True, key_style="owned"),
    Domain("triggers", "Triggers", "trigger", "triggers", options=True, renames=True, key_style="owned"),
    Domain(
        "user_actions", "User actions", "user action", "user actions", options=True, renames=True, key_style="owned"
    ),
    Domain(
        "politics",
        "Political actions",
        "political action",
        "political actions",
        options=True,
        renames=True,
        key_style="owned",
    ),
    Domain(
        "attachments", "Other attachments", "attachment", "attachments", options=True, renames=True, key_style="owned"
    ),
    Domain("map_files", "Map files", "map file entry", "map file entries", key_style="file"),
    Domain("ledger", "Rule ledger", "ledger entry", "ledger entries"),
)
DOMAIN = {d.id: d for d in DOMAINS}
# Where an attachment beyond an object's main one is reported, by its class's short name.
_DOMAIN_OF_CLASS = {
    "RulesAttachment": "conditions",
    "TriggerAttachment": "triggers",
    "UserActionAttachment": "user_actions",
    "PoliticalActionAttachment": "politics",
}
# Fields whose order is meaningful (a frontier's rules are shown to the buyer in this order).
ORDERED_FIELDS = frozenset({"rules"})


def key_text(domain: Domain, key: Key) -> str:
    """How a key reads in a report line."""
    if domain.key_style == "pair":
        return f" {DASH} ".join(key)
    if domain.key_style == "owned":
        return f"{key[1]} ({key[0]})"
    if domain.key_style == "file":
        return f"{key[0]}.properties: {key[1]}"
    return key[0]


def _text(value: Any) -> str:
    return xml_value(value) if isinstance(value, bool | int | str | list) else str(value)


class Names:
    """Renames found so far (old name -> new name), applied to the older side's every reference.

    Option values reference other objects by name inside ':'-joined text, so each part is renamed.
    """

    def __init__(self, renamed: dict[str, str] | None = None) -> None:
        self.renamed = dict(renamed or {})

    def __call__(self, name: str) -> str:
        return self.renamed.get(name, name)

    def text(self, value: str) -> str:
        if not self.renamed:
            return value
        return ":".join(self.renamed.get(part, part) for part in value.split(":"))


def option_fields(options: dict[str, Any], n: Names) -> Entity:
    """Attachment options as the engine receives them; a repeated option is a set of writes."""
    out: Entity = {}
    for name, raw in options.items():
        writes = option_writes(raw)
        if writes is None:  # a shape the build would refuse: compare what was written
            out[name] = _text(raw)
            continue
        texts = [n.text(v) if c is None else f"{n.text(v)} (count {c})" for v, c in writes]
        # The engine accumulates repeated options; their order carries no meaning.
        out[name] = texts[0] if len(texts) == 1 else tuple(sorted(texts))
    return out


def _amounts(amounts: dict[str, int], n: Names) -> str:
    return ", ".join(f"{count} {what}" for what, count in sorted((n(w), c) for w, c in amounts.items()))


def _rule(rule: ProductionRule, n: Names) -> Entity:
    return {"cost": _amounts(rule.cost, n), "result": _amounts(rule.result, n)}


def _bounded(prop: Property) -> bool:
    return prop.editable or prop.min is not None or prop.max is not None


def _property(prop: Scalar | Property) -> Entity:
    if not isinstance(prop, Property):
        prop = Property(value=prop)
    text = xml_value(prop.value)
    # Multi-line text goes into CDATA as HTML, where runs of whitespace mean one space.
    out: Entity = {"value": " ".join(text.split()) if "\n" in text else text}
    if prop.editable:
        out["editable"] = "true"
    if prop.choices is not None:
        out["choices"] = ",".join(prop.choices)
    elif isinstance(prop.value, int) and not isinstance(prop.value, bool) and _bounded(prop):
        # Written as a <number> with these bounds (the renderer's defaults), which the engine checks.
        out["min"] = str(prop.min if prop.min is not None else 0)
        out["max"] = str(prop.max if prop.max is not None else max(prop.value, 0))
    if prop.constant is not None:
        out["constant"] = xml_value(prop.constant)
    return out


def _attachment_domain(name: str, attachment: Attachment, n: Names) -> tuple[str, Entity]:
    java = attachment.java_class(name) or ""
    short = java.rsplit(".", 1)[-1]
    entity = option_fields(attachment.options, n)
    inferred = class_from_name(name)
    if short != inferred:
        entity = {"class": short, **entity}
    return _DOMAIN_OF_CLASS.get(short, "attachments"), entity


def facts_of(spec: Spec, n: Names | None = None, made: set[tuple[str | int, ...]] | None = None) -> Facts:
    """Every fact of `spec`, by domain and key; names renamed by `n` (for the older side). What
    pattern uses make (`made`: its tree paths, found when not given) is left to the uses."""
    n = n or Names()
    made = made_paths(spec) if made is None else made
    facts: Facts = {d.id: {} for d in DOMAINS}
    game = facts["game"]
    for label, raw in (
        ("name", spec.game.name),
        ("version", spec.game.version),
        ("map", spec.game.map),
        ("minimum engine version", spec.game.minimum_version),
        ("dice sides", spec.dice_sides),
        ("round offset", spec.round_offset),
    ):
        if raw is not None:
            game[(label,)] = {"value": str(raw)}
    game[("technologies",)] = {"value": "the engine's built-in advances" if spec.technologies is None else "listed"}
    order = turn_order(spec)
    if order:
        game[("turn order",)] = {"value": order}
    if spec.notes.strip():
        # Notes are HTML: runs of whitespace mean one space.
        game[("notes",)] = {"value": " ".join(spec.notes.split())}
    _players(spec, facts, n)
    for name, resource in spec.resources.items():
        viewers = resource.displayed_for
        facts["resources"][(n(name),)] = {} if viewers is None else {"displayed for": tuple(viewers) or "nobody"}
    for kind in WITH_MAIN:  # territories have facts of their own (below)
        if kind.collection == "territories":
            continue
        for name, entry in kind.entries(spec).items():
            options = option_fields(entry.options, n)
            tech = getattr(entry, "tech", None)
            facts[kind.collection][(n(name),)] = {"tech": tech, **options} if tech else options
    for domain, rules in (("production_rules", spec.production_rules), ("repair_rules", spec.repair_rules)):
        facts[domain].update({(n(name),): _rule(rule, n) for name, rule in rules.items()})
    for domain, frontiers in (
        ("production_frontiers", spec.production_frontiers),
        ("repair_frontiers", spec.repair_frontiers),
    ):
        facts[domain].update({(n(name),): {"rules": tuple(map(n, rules))} for name, rules in frontiers.items()})
    _territories(spec, facts, n)
    for name, delegate in spec.delegates.items():
        shown = {"display": delegate.display} if delegate.display is not None else {}
        facts["delegates"][(n(name),)] = {"class": delegate.class_.rsplit(".", 1)[-1], **shown}
    _steps(spec, facts, n)
    facts["properties"].update({(name,): _property(prop) for name, prop in spec.properties.items()})
    for file, entries in spec.map_files.items():
        facts["map_files"].update({(file, k): {"value": xml_value(v)} for k, v in entries.items()})
    _attachments(spec, facts, n)
    _ledger(spec, facts, n, made)
    facts.update(pattern_facts(spec))
    drop_made(made, facts, n)
    return facts


def _players(spec: Spec, facts: Facts, n: Names) -> None:
    members: dict[str, list[str]] = {}
    for name, player in spec.players.items():
        entity: Entity = {}
        for flag, on in (("optional", player.optional), ("can be disabled", player.can_be_disabled)):
            if on:
                entity[flag] = "true"
        if player.hidden:
            entity["hidden"] = "true"
        if player.default_type != "Human":
            entity["default type"] = player.default_type
        for label, text in (
            ("colour", player.color and player.color.upper()),
            ("production frontier", player.production_frontier and n(player.production_frontier)),
            ("repair frontier", player.repair_frontier and n(player.repair_frontier)),
            ("starting resources", _amounts(player.resources, n)),
            ("held units", _amounts(player.held_units, n)),
        ):
            if text:
                entity[label] = text
        for category, techs in player.tech_categories.items():
            entity[f"tech category {category}"] = tuple(sorted(map(n, techs)))
        facts["players"][(name,)] = entity
        for alliance in player.alliances:
            members.setdefault(alliance, []).append(name)
        for other, relation in player.relationships.items():
            kind, started = (relation, 0) if isinstance(relation, str) else (relation.type, relation.round)
            rel: Entity = {"type": kind, **({"round": str(started)} if started else {})}
            facts["relationships"][tuple(sorted((name, other)))] = rel
    for alliance, names in members.items():
        facts["alliances"][(alliance,)] = {"members": tuple(sorted(names))}


def _territories(spec: Spec, facts: Facts, n: Names) -> None:
    for original, territory in spec.territories.items():
        name = n(original)
        entity: Entity = {"sea zone": "true"} if territory.sea else {}
        if territory.owner:
            entity["owner"] = territory.owner
        entity.update(option_fields(territory.options, n))
        facts["territories"][(name,)] = entity
        for other in territory.connections:
            facts["connections"][tuple(sorted((name, n(other))))] = {}
        for owner, counts in territory.units.items():
            placed = {n(unit): str(count) for unit, count in counts.items() if count > 0}
            if placed:
                facts["starting_units"].setdefault((owner, name), {}).update(placed)
        for d in territory.damaged_units:
            group = facts["starting_units"].setdefault((d.owner or "Neutral", name), {})
            group[f"damaged {n(d.unit)}"] = f"{d.quantity} (hits {d.hits}, damage {d.damage})"


def turn_order(spec: Spec) -> str:
    """Whose turn comes when in a round: each run of one player's steps, in play order.

    A run of bid steps reads "Russians bid"; a run whose steps are all played once (maxRunCount 1)
    is an opening turn.
    """
    runs: list[tuple[str, bool, bool]] = []  # player, every step a bid, every step played once
    for name in spec.ordered_steps():
        step = spec.sequence[name]
        if step.player is None:
            continue
        delegate = spec.delegates.get(step.delegate)
        bid = delegate is not None and delegate.class_.rsplit(".", 1)[-1].startswith("Bid")
        once = step.max_run_count == 1
        if runs and runs[-1][0] == step.player:
            runs[-1] = (step.player, runs[-1][1] and bid, runs[-1][2] and once)
        else:
            runs.append((step.player, bid, once))
    return ", ".join(
        f"{player} bid" if bid else f"{player} (opening turn)" if once else player for player, bid, once in runs
    )


def step_identities(
    spec: Spec,
    made: set[tuple[str | int, ...]] = frozenset(),  # type: ignore[assignment]
) -> list[tuple[str, tuple[str, str, int]]]:
    """(step name, what the step does) in play order: its player, its delegate's class, and how
    many steps of that player and class came before it in the round. Two sides' steps with one
    identity are one step, whatever their names. Steps a pattern makes are the pattern's (left out)."""
    seen: dict[tuple[str, str], int] = {}
    out = []
    for name in spec.ordered_steps():
        step = spec.sequence[name]
        delegate = spec.delegates.get(step.delegate)
        kind = (step.player or "", delegate.class_.rsplit(".", 1)[-1] if delegate else step.delegate)
        seen[kind] = seen.get(kind, 0) + 1
        if ("sequence", name) not in made:
            out.append((name, (*kind, seen[kind])))
    return out


def _steps(spec: Spec, facts: Facts, n: Names) -> None:
    for name in spec.ordered_steps():  # play order: the order of this domain's keys matters
        step = spec.sequence[name]
        entity: Entity = {"delegate": n(step.delegate)}
        for label, raw in (("player", step.player), ("display", step.display), ("max run count", step.max_run_count)):
            if raw is not None:
                entity[label] = str(raw)
        entity.update({f"property {k}": xml_value(v) for k, v in step.properties.items()})
        facts["steps"][(n(name),)] = entity


def _attachments(spec: Spec, facts: Facts, n: Names) -> None:
    for kind in ATTACHMENT_ORDER:
        for owner, entry in kind.entries(spec).items():
            for name, attachment in entry.attachments.items():
                domain, entity = _attachment_domain(name, attachment, n)
                facts[domain][(n(owner), n(name))] = entity


def _claims(spec: Spec, n: Names, made: set[tuple[str | int, ...]]) -> dict[str, list[str]]:
    """Which spec elements claim each ledger id (`ledger: [ids]`), as words; a pattern use claims
    for what it makes."""
    claims: dict[str, list[str]] = {}

    def claim(ids: list[str], label: str) -> None:
        for rule_id in ids:
            claims.setdefault(rule_id, []).append(label)

    for pattern in PATTERNS:
        for name, use in getattr(spec, pattern.collection).items():
            claim(use.ledger, f"{pattern.noun} {name}")
    for kind in ATTACHMENT_ORDER:
        for name, entry in kind.entries(spec).items():
            if (kind.collection, name) not in made:
                claim(entry.ledger, f"{kind.noun} {n(name)}")
            for attachment_name, attachment in entry.attachments.items():
                if (kind.collection, name, "attachments", attachment_name) not in made:
                    claim(attachment.ledger, f"{n(attachment_name)} ({n(name)})")
    for noun, key, collection in (
        ("production rule", "production_rules", spec.production_rules),
        ("repair rule", "repair_rules", spec.repair_rules),
        ("delegate", "delegates", spec.delegates),
        ("step", "sequence", spec.sequence),
    ):
        for name, item in collection.items():
            if (key, name) not in made:
                claim(item.ledger, f"{noun} {n(name)}")
    for name, prop in spec.properties.items():
        if isinstance(prop, Property):
            claim(prop.ledger, f"property {name}")
    return claims


def _ledger(spec: Spec, facts: Facts, n: Names, made: set[tuple[str | int, ...]]) -> None:
    claims = _claims(spec, n, made)
    for rule_id, entry in spec.rule_ledger.items():
        entity: Entity = {
            "section": entry.section,
            "source": entry.source,
            "summary": " ".join(entry.summary.split()),
            "grade": entry.fidelity.grade,
        }
        if entry.fidelity.note:
            entity["note"] = " ".join(entry.fidelity.note.split())
        if entry.fidelity_2x is not None:
            entity["grade 2.x"] = entry.fidelity_2x.grade
            if entry.fidelity_2x.note:
                entity["note 2.x"] = " ".join(entry.fidelity_2x.note.split())
        if entry.reading:
            entity["reading"] = " ".join(entry.reading.split())
        if entry.rationale:
            entity["rationale"] = " ".join(entry.rationale.split())
        if rule_id in claims:
            entity["claimed by"] = tuple(sorted(set(claims[rule_id])))
        facts["ledger"][(rule_id,)] = entity
