"""Stage 3, model: the typed spec. Unknown keys are errors; every problem is located (spec.validation).

The spec is keyed by name everywhere (units, territories, players, steps...), so a child variant
overrides or removes one entry without copying the rest. Attachment options use TripleA's own
option names. Each kind of game object has one main attachment whose options sit directly under
the object (a unit's UnitAttachment, a territory's TerritoryAttachment, a relationship type's,
a territory effect's, a technology's TechAbilityAttachment); further attachments go under
`attachments:` with their TripleA name.

Option values: a scalar is one `<option>`; a list of scalars is one option joined by ':'; a
mapping `{value: .., count: ..}` is one option with its `count` attribute; a list whose items are lists or such
mappings is the option repeated, once per item (TripleA accumulates repeated options).
"""

from __future__ import annotations

import math
import re
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from generator.spec.kinds import ATTACHMENT_PACKAGE, class_from_name
from generator.spec.numbers import JAVA_INT_MAX, Count, EngineInt
from generator.spec.patterns import (
    AdvantageSchedule,
    FreeUnits,
    LendLease,
    NationalAdvantage,
    NationalAttack,
    NationalBuild,
    Treaty,
    Turns,
)

Scalar = bool | int | str
OptionValue = Any  # checked by `option_writes`; the shapes are described in the module docstring

DELEGATE_PACKAGE = "games.strategy.triplea.delegate."
NEUTRAL = "Neutral"  # owner key for units that belong to no player

LedgerClaims = list[str]
# Rule id -> the element's options that rule stands on, for an element that serves several rules:
# a claim it narrows covers those options only (the mutation sweep attributes an edit by them).
LedgerOptions = dict[str, list[str]]


def xml_value(value: Scalar | list[Scalar]) -> str:
    """How TripleA reads a spec value: booleans lower-case, lists joined by ':'."""
    if isinstance(value, list):
        return ":".join(xml_value(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)  # the shortest text that reads back as the same number
    return str(value)


def _is_scalar(value: Any) -> bool:
    # Decimals are options too (a territory effect's movementCostModifier: 0.5); NaN and infinity are not.
    return isinstance(value, bool | int | str) or (isinstance(value, float) and math.isfinite(value))


def _one_option(value: Any) -> tuple[str, str | None] | None:
    """(value text, count text) of one written option, or None when the shape is wrong."""
    if _is_scalar(value):
        return xml_value(value), None
    if isinstance(value, list) and all(_is_scalar(v) for v in value):
        return xml_value(value), None
    if isinstance(value, dict) and set(value) <= {"value", "count"} and "value" in value:
        inner, count = value["value"], value.get("count")
        if count is not None and not _is_scalar(count):
            return None  # `count` is free text to TripleA: a number, "each", "-reset-..." ...
        plain = _one_option(inner) if not isinstance(inner, dict) else None
        return (plain[0], None if count is None else xml_value(count)) if plain else None
    return None


def option_writes(value: Any) -> list[tuple[str, str | None]] | None:
    """Every `<option>` (value, count) one spec option writes, or None when its shape is wrong."""
    kind = type(value)  # most options are plain scalars: called for each by every stage
    if kind is str:
        return [(value, None)]
    if kind is bool:
        return [("true" if value else "false", None)]
    if kind is int:
        return [(str(value), None)]
    repeated = isinstance(value, list) and value and all(isinstance(v, list | dict) for v in value)
    items = value if repeated else [value]
    written = [_one_option(item) for item in items]
    return None if any(w is None for w in written) else [w for w in written if w is not None]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    ledger: LedgerClaims = []  # ids of the rule-ledger entries this element implements
    ledger_options: LedgerOptions = {}  # which options of the element a claim stands on, where not all


class WithOptions(BaseModel):
    """A spec entry whose unknown keys are attachment options (checked against the catalog)."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)

    # Ids of the rule-ledger entries this element implements.
    ledger: LedgerClaims = []
    ledger_options: LedgerOptions = {}

    @property
    def options(self) -> dict[str, OptionValue]:
        return dict(self.model_extra or {})


class Attachment(WithOptions):
    class_: str | None = Field(default=None, alias="class")

    def java_class(self, name: str) -> str | None:
        """Fully qualified class: explicit `class:` (short or qualified), else from the name."""
        short = self.class_
        if short is None:
            short = class_from_name(name)
        if short is None:
            return None
        return short if "." in short else ATTACHMENT_PACKAGE + short


class HasAttachments(WithOptions):
    # Further attachments by their TripleA name (the class follows from the name, or `class:`).
    attachments: dict[str, Attachment] = {}


class GameInfo(Strict):
    # The game's name, as TripleA lists it.
    name: str
    version: str | None = Field(default=None, pattern=r"^\d+(\.\d+){0,3}$")  # required by engine 1.9
    # The map the game is played on (a downloadedMaps folder name).
    map: str
    # <triplea minimumVersion>: engines older than this refuse the game (1.9 only knows it).
    minimum_version: str | None = None
    # The engines this variant is made for, when not both: a variant for "2.x" may use options
    # engine 1.9 lacks (build and validate then check it for 2.x only).
    target: Literal["portable", "1.9", "2.x"] | None = None


class Resource(Strict):
    # TripleA 2.x: the players who see it (isDisplayedFor); 1.9 ignores it.
    displayed_for: list[str] | None = None
    # Attachments of the resource, by their TripleA name.
    attachments: dict[str, Attachment] = {}


class Relationship(Strict):
    # The relationship type's name.
    type: str
    round: EngineInt = 0  # TripleA's roundValue: the round the relationship started


class Player(Strict):
    # TripleA's `optional` attribute of the player.
    optional: bool = False
    # TripleA's `canBeDisabled` attribute: the player may be disabled in the game set-up.
    can_be_disabled: bool = False
    # Who plays it by default in the game set-up.
    default_type: Literal["Human", "AI", "DoesNothing"] = "Human"
    # TripleA's `isHidden` attribute of the player.
    hidden: bool = False
    # Colour on the map, hex RRGGBB; packaged into map.properties as color.<player>.
    color: str | None = Field(default=None, pattern=r"^[0-9A-Fa-f]{6}$")
    # The alliances the player belongs to.
    alliances: list[str] = []
    # The production frontier the player buys from.
    production_frontier: str | None = None
    # The repair frontier the player repairs with.
    repair_frontier: str | None = None
    # Starting resources: {PUs: 24}.
    resources: dict[str, Count] = {}
    # Units bought before the game starts and not yet placed.
    held_units: dict[str, Count] = {}
    # Technologies this player can research, grouped in categories (TripleA's playerTech).
    tech_categories: dict[str, list[str]] = {}
    # Starting relationship to each other player, by relationship type (or {type, round}).
    relationships: dict[str, str | Relationship] = {}
    # Attachments of the player (rules, triggers, user actions...), by their TripleA name.
    attachments: dict[str, Attachment] = {}


_HEX_COLOUR = re.compile(r"[0-9A-Fa-f]{6}")
_MARK = re.compile(r"[A-Za-z0-9+#*-]{0,3}")


class UnitImage(BaseModel):
    """Where a unit type's pictures come from when neither the map nor the engine's stock art has them.

    `from: armour` derives each player's picture from that player's picture of another unit type,
    with a `mark` (up to 3 letters or digits; default: the name's initials), an `outline` and/or a
    `tint` colour telling the two apart; `file: x.png` (or `image: x.png`) ships a drawn picture for
    every player, `players: {Germans: y.png}` one per player. Paths are relative to the variant's
    folder. The package writes every form the engine asks for (damaged, disabled, after a tech).
    """

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, populate_by_name=True)

    from_: str | None = Field(default=None, alias="from")
    mark: str | None = None
    outline: str | None = None
    tint: str | None = None
    file: str | None = None
    players: dict[str, str] = {}

    @field_validator("outline", "tint")
    @classmethod
    def _colour(cls, value: str | None) -> str | None:
        if value is not None and not _HEX_COLOUR.fullmatch(value):
            raise ValueError(f'expected a colour as 6 hex digits RRGGBB (like "c00000"), got {value!r}')
        return value

    @field_validator("mark")
    @classmethod
    def _mark(cls, value: str | None) -> str | None:
        if value is not None and not _MARK.fullmatch(value):
            raise ValueError(f"a mark is up to 3 letters, digits or + # * -, drawn on the picture; got {value!r}")
        return value

    @model_validator(mode="after")
    def _one_source(self) -> UnitImage:
        if self.from_ is not None and self.file is not None:
            raise ValueError("give `from:` (derive each player's picture) or `file:` (a drawn one), not both")
        if self.from_ is None and self.file is None and not self.players:
            raise ValueError("say where the pictures come from: `from: <unit>`, `file: <png>` or `players:`")
        if self.from_ is None and (self.mark is not None or self.outline or self.tint):
            raise ValueError("mark, outline and tint apply to a derived picture (`from:`)")
        return self


class Unit(HasAttachments):
    """A unit type; its keys are UnitAttachment options, plus further `attachments`."""

    # Pictures for players the map and the engine have none for (see UnitImage); a text is `file:`.
    image: UnitImage | None = None

    @field_validator("image", mode="before", json_schema_input_type=UnitImage | str | None)
    @classmethod
    def _file_shorthand(cls, value: Any) -> Any:
        return {"file": value} if isinstance(value, str) else value


class DamagedUnits(Strict):
    unit: str
    owner: str | None = None
    quantity: int = Field(default=1, ge=1, le=JAVA_INT_MAX)
    hits: Count = 0  # hits taken (multi-hit units)
    damage: Count = 0  # bombing damage (factories)


class Territory(HasAttachments):
    """A territory; its keys are TerritoryAttachment options plus the territory's own facts."""

    # A sea zone.
    sea: bool = False
    # The player who owns it at the start (none: neutral).
    owner: str | None = None
    # Its neighbours; a border is listed on both sides.
    connections: list[str] = []
    # Starting units by owner; the owner `Neutral` places units that belong to no player.
    units: dict[str, dict[str, EngineInt]] = {}
    # Units that start damaged (hits taken, or bombing damage).
    damaged_units: list[DamagedUnits] = []

    @field_validator("units")
    @classmethod
    def _non_negative(cls, value: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
        for counts in value.values():
            for unit, count in counts.items():
                if count < 0:
                    raise ValueError(f"unit count for '{unit}' must not be negative")
        return value


class RelationshipType(HasAttachments):
    """A relationship type; its keys are RelationshipTypeAttachment options."""


class TerritoryEffect(HasAttachments):
    """A territory effect; its keys are TerritoryEffectAttachment options."""


class Technology(HasAttachments):
    """A technology; its keys are TechAbilityAttachment options."""

    # The built-in advance this name stands for (TripleA's techname `tech` attribute).
    tech: str | None = None


class ProductionRule(Strict):
    # A negative amount is refused by checks.sanity, which says what the engine would do with it.
    cost: dict[str, EngineInt]
    # What it makes: {infantry: 1} (or a resource).
    result: dict[str, EngineInt]


class Delegate(Strict):
    # The delegate's Java class (short names are in TripleA's delegate package).
    class_: str = Field(alias="class")
    # Its name in the client.
    display: str | None = None

    @property
    def java_class(self) -> str:
        return self.class_ if "." in self.class_ else DELEGATE_PACKAGE + self.class_


class Step(Strict):
    # The delegate the step runs (a key of `delegates`).
    delegate: str
    # The player whose step it is.
    player: str | None = None
    # Its name in the client.
    display: str | None = None
    # How many times the step runs in a game (TripleA's maxRunCount).
    max_run_count: EngineInt | None = None
    # The step's own properties (TripleA's stepProperty).
    properties: dict[str, Scalar | list[Scalar]] = {}
    # Move this (inherited) step: place it right after / before another step.
    after: str | None = None
    before: str | None = None


class Property(Strict):
    value: Scalar  # a number beyond Java's int is text to the engine, unless it is editable (checks.properties)
    # Shown in the game options, where players may change it.
    editable: bool = False
    # The smallest value players may choose (an editable number).
    min: EngineInt | None = None
    # The largest value players may choose (an editable number).
    max: EngineInt | None = None
    # The values players may choose from (an editable text).
    choices: list[str] | None = None


class Fidelity(Strict):
    # exact, approximate (with the difference in `note`) or notes-only (players enforce it).
    grade: Literal["exact", "approximate", "notes-only"]
    note: str = ""  # what differs from the seed, or how players enforce it


class _Facts(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class RuleFacts(_Facts):
    """What the engine holds for one production rule: its cost and what it makes."""

    cost: dict[str, int] | None = None
    result: dict[str, int] | None = None


class DumpFacts(_Facts):
    """Facts of the engine's own dump of the built game (`python -m generator.engine dump`).

    Keyed like the spec; values are written as the dump shows them. Under a unit, territory,
    territory effect, technology or relationship type: its main attachment's options, plus
    `attachments: {name: {option: value}}` for others; a territory also takes `owner`,
    `units` ({owner: {unit: count}}) and `connections` (neighbours it has, among others); a
    player takes `production_frontier`, `resources`, `alliances`, `attachments` and
    `tech_categories` ({category: [techs, by the engine's names]}, exactly). A frontier
    lists rules it holds; `steps` lists steps in play order (others may come between them);
    `sequence` gives a step's `delegate`, `player` or `maxRunCount`.
    """

    units: dict[str, dict[str, Any]] = {}
    territories: dict[str, dict[str, Any]] = {}
    players: dict[str, dict[str, Any]] = {}
    territory_effects: dict[str, dict[str, Any]] = {}
    technologies: dict[str, dict[str, Any]] = {}
    relationship_types: dict[str, dict[str, Any]] = {}
    production_rules: dict[str, RuleFacts] = {}
    production_frontiers: dict[str, list[str]] = {}
    properties: dict[str, Any] = {}
    steps: list[str] = []
    sequence: dict[str, dict[str, Any]] = {}


class Proof(_Facts):
    """How an enforced rule is shown in the real engine: scenarios that play it, facts of the dump.

    `dump` is one group of facts or a list of them; a variant that extends another and states
    its own facts as a list replaces the parent's (lists are replaced whole, mappings merged).
    """

    scenario: str | list[str] | None = None  # engine scenarios (generator/catalog/scenarios.py)
    dump: DumpFacts | list[DumpFacts] | None = None

    @property
    def facts(self) -> list[DumpFacts]:
        if self.dump is None:
            return []
        return [self.dump] if isinstance(self.dump, DumpFacts) else list(self.dump)

    @property
    def scenarios(self) -> list[str]:
        if self.scenario is None:
            return []
        return [self.scenario] if isinstance(self.scenario, str) else list(self.scenario)


class LedgerEntry(Strict):
    """One rule of a seed document, in our words, and how faithfully the game enforces it."""

    section: str  # grouped as the seed groups its rules
    source: str  # seed file and section
    # The rule in our words.
    summary: str
    # How faithfully TripleA 1.9 enforces it.
    fidelity: Fidelity
    fidelity_2x: Fidelity | None = None  # when current TripleA enforces it better than 1.9
    reading: str | None = None  # where the seed is wrong or ambiguous: the reading chosen
    rationale: str | None = None  # the designer's stated reason for the rule, in our words
    proof: Proof | None = None  # how the grade is shown in the real engine (exact/approximate rules)


class AttachmentTemplate(Strict):
    """An attachment made once per value of its loop, as TripleA 2.x's foreach (made by spec.expand)."""

    name: str | None = None  # the made attachments' name pattern, when it is not the key
    # The variable to loop over: `$variable$`.
    foreach: str = ""
    # What each attachment is attached to (`@variable@` stands for the loop's value).
    attach_to: str
    # The kind of object it is attached to.
    type: Literal["unitType", "territory", "player", "resource", "relationship", "territoryEffect", "technology"] = (
        "unitType"
    )
    # The attachment's class, when its name does not say it.
    class_: str | None = Field(default=None, alias="class")
    # The options of each attachment made.
    options: dict[str, Any] = {}


class Spec(Strict):
    """A resolved variant."""

    # The variant this one is made from: it holds only what it changes (see the merge rules).
    extends: str | None = None
    # The game's name, version and map.
    game: GameInfo
    # The game notes (HTML), shown in TripleA's notes pane; the rule ledger is added to them.
    notes: str = ""
    dice_sides: int | None = Field(default=None, ge=1, le=JAVA_INT_MAX)  # the engine rolls 1..dice_sides
    # Added to the round number the game shows (TripleA's round offset).
    round_offset: EngineInt | None = None
    # The resources players hold (PUs...).
    resources: dict[str, Resource] = {}
    # The players, in the order TripleA lists them.
    players: dict[str, Player] = {}
    # The unit types; their keys are UnitAttachment options.
    units: dict[str, Unit] = {}
    # The territories and sea zones; their keys are TerritoryAttachment options plus their own facts.
    territories: dict[str, Territory] = {}
    # The relationship types (war, allied, treaties...); their keys are RelationshipTypeAttachment options.
    relationship_types: dict[str, RelationshipType] = {}
    # The territory effects; their keys are TerritoryEffectAttachment options.
    territory_effects: dict[str, TerritoryEffect] = {}
    # Left out: the engine's six built-in advances. `{}`: no technologies at all.
    technologies: dict[str, Technology] | None = None
    # What players can buy: cost and result.
    production_rules: dict[str, ProductionRule] = {}
    # The lists of production rules players buy from, in display order.
    production_frontiers: dict[str, list[str]] = {}
    # What players can repair: cost and result.
    repair_rules: dict[str, ProductionRule] = {}
    # The lists of repair rules.
    repair_frontiers: dict[str, list[str]] = {}
    # The delegates the steps run, by name.
    delegates: dict[str, Delegate] = {}
    # The steps of a round, in play order.
    sequence: dict[str, Step] = {}
    # The game properties: a value, or {value, editable, min, max, choices}.
    properties: dict[str, Scalar | Property] = {}
    # Contents of the map's .properties files, by file name without '.properties'
    # (map, objectives, notifications, politicstext, actionstext, tooltips, production_tabs...).
    map_files: dict[str, dict[str, Scalar]] = {}
    # Every rule of the variant's rules document, by rule id (see the rule ledger).
    rule_ledger: dict[str, LedgerEntry] = {}
    # Made into attachments before the rest of the spec is read (generator/spec/expand.py).
    variables: dict[str, list[Scalar]] = {}
    # Attachments made once per value of a variable (TripleA 2.x foreach), written out for both engines.
    attachment_templates: dict[str, AttachmentTemplate] = {}
    # Rule patterns (generator/spec/patterns): each use is made into ordinary entries before the
    # model reads the spec; the uses stay, so a diff compares them instead of what they make.
    pattern_defaults: dict[str, Any] = Field(
        default={},
        description="Parameters given once for every rule pattern use that takes them and does not give them: "
        "{triggers_on: Germans}.",
    )
    turns: dict[str, Turns] = {}
    advantage_schedules: dict[str, AdvantageSchedule] = {}
    national_advantages: dict[str, NationalAdvantage] = {}
    treaties: dict[str, Treaty] = {}
    lend_lease: dict[str, LendLease] = {}
    free_units: dict[str, FreeUnits] = {}
    national_builds: dict[str, NationalBuild] = {}
    national_attacks: dict[str, NationalAttack] = {}

    def ordered_steps(self) -> list[str]:
        """Step names in play order, after applying `after:`/`before:` moves in spec order."""
        return play_order([(name, step.after, step.before) for name, step in self.sequence.items()])


def play_order(steps: list[tuple[str, str | None, str | None]]) -> list[str]:
    """Step names in play order: `(name, after, before)` in spec order, each move applied in turn."""
    order = [name for name, _, _ in steps]
    for name, after, before in steps:
        anchor = after or before
        if anchor is None or anchor not in order or anchor == name:
            continue
        order.remove(name)
        at = order.index(anchor)
        order.insert(at + 1 if after else at, name)
    return order
