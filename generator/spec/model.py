"""Stage 3, model: the typed spec. Unknown keys are errors; every problem is located (spec.validation).

The spec is keyed by name everywhere (units, territories, players, steps...), so a child variant
overrides or removes one entry without copying the rest. Attachment options use TripleA's own
option names. Each kind of game object has one main attachment whose options sit directly under
the object (a unit's UnitAttachment, a territory's TerritoryAttachment, a relationship type's,
a territory effect's, a technology's TechAbilityAttachment); further attachments go under
`attachments:` with their TripleA name.

How an option's value is written (scalar, list, `{value, count}`, repeated) is spec.option_values';
the rule ledger's entries and the base every entry shares (its `ledger:` claims) are spec.ledger;
a unit's own pictures are spec.unit_image.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from generator.spec.kinds import ATTACHMENT_PACKAGE, class_from_name
from generator.spec.ledger import LedgerClaims, LedgerEntry, LedgerOptions, Strict
from generator.spec.numbers import JAVA_INT_MAX, Count, EngineInt
from generator.spec.option_values import OptionValue, Scalar
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
from generator.spec.unit_image import UnitImage
from generator.targets import Target

DELEGATE_PACKAGE = "games.strategy.triplea.delegate."
NEUTRAL = "Neutral"  # owner key for units that belong to no player


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
    # What a trigger, national objective or action must do when `check` plays the game: `fires`
    # (fires, pays or is taken), `offered` (is open to its player, or fires), `never` (none of these);
    # `check` fails at this line otherwise. Not an option of the engine's.
    expect: Literal["fires", "offered", "never"] | None = None

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
    target: Target | None = None


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
    # A constant of the same name the engine keeps beside this editable property (as a game XML
    # defining it twice does): the game reads the editable value, the engine's own export writes both.
    constant: Scalar | None = None


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
    # The game properties: a value, or {value, editable, min, max, choices, constant}.
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
