"""The harness's report of one game, typed as the Java side (`ForgeHarness play`) writes it.

`game_report` validates a report once, where it arrives from the harness; the judging and the
summary then read typed fields. Only what Python reads is declared; every other key the harness
writes is kept as it is (a `--report` file holds the whole report). The keys are described in the
README (`triplea-forge check`, "The report").
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired

from pydantic import ConfigDict, TypeAdapter, ValidationError, with_config
from typing_extensions import TypedDict

from generator.errors import TripleaForgeError

Counts = dict[str, int]  # unit type -> how many
_KEEP = ConfigDict(extra="allow")  # keys not declared here are kept, not dropped


@with_config(_KEEP)
class Parse(TypedDict):
    error: str | None
    saxErrors: list[str]


@with_config(_KEEP)
class Entry(TypedDict):
    """Something the engine reported: an error (or a warning) on one of the harness's channels."""

    channel: str
    message: str
    step: NotRequired[str | None]
    round: NotRequired[int]
    player: NotRequired[str | None]


@with_config(_KEEP)
class PlayerInfo(TypedDict):
    name: str
    productionFrontier: str | None
    frontierRules: int
    purchaseSteps: list[str]
    placeSteps: list[str]
    steps: NotRequired[int]  # how many steps of the sequence are the player's


# The kinds of attachment that act on their own, as RuleActivity.java names them.
RuleKind = Literal["trigger", "objective", "userAction", "politicalAction"]


@with_config(_KEEP)
class RuleInfo(TypedDict):
    """A trigger, a national objective (a condition with an objectiveValue) or an action of the game."""

    name: str
    player: str
    kind: RuleKind


@with_config(_KEEP)
class GameInfo(TypedDict):
    players: list[PlayerInfo]
    actions: NotRequired[dict[str, list[str]]]  # player -> every user and political action
    rules: NotRequired[list[RuleInfo]]
    switches: NotRequired[dict[str, bool]]  # "Use Triggers", "National Objectives": the game's properties


@with_config(_KEEP)
class PurchaseStep(TypedDict):
    player: str
    pusBefore: int
    round: NotRequired[int]
    step: NotRequired[str]


@with_config(_KEEP)
class Units(TypedDict):
    """Units bought, placed or left waiting by a player in a step."""

    player: str
    units: Counts
    round: NotRequired[int]
    step: NotRequired[str]


@with_config(_KEEP)
class Battle(TypedDict):
    round: int


@with_config(_KEEP)
class ActionTaken(TypedDict):
    action: str
    round: NotRequired[int]
    player: NotRequired[str | None]
    removed: NotRequired[dict[str, Counts] | None]  # territory -> the units it took off the board
    frontiers: NotRequired[list[str] | None]  # players whose production frontier it changed
    error: NotRequired[str | None]


@with_config(_KEEP)
class ActionOpen(TypedDict):
    """An action open to the player of a step where the action policy acted (ActionPolicy)."""

    action: str
    round: int
    player: NotRequired[str | None]


@with_config(_KEEP)
class Placed(TypedDict):
    """Units a trigger placed in a territory, or removed from it."""

    player: str | None
    territory: str
    units: Counts


@with_config(_KEEP)
class Granted(TypedDict):
    """Units a trigger put in a player's hand (to place)."""

    player: str
    units: Counts


@with_config(_KEEP)
class Paid(TypedDict):
    player: str
    resource: str
    amount: int


@with_config(_KEEP)
class Gives(TypedDict):
    placements: NotRequired[list[Placed]]
    units: NotRequired[list[Granted]]
    removed: NotRequired[list[Placed]]
    resources: NotRequired[list[Paid]]


@with_config(_KEEP)
class RuleFiring(TypedDict):
    """A trigger that fired, or a national objective paid, in one step (RuleActivity.java)."""

    round: int
    step: str | None
    attachment: str
    kind: Literal["trigger", "objective"]
    gives: Gives
    player: NotRequired[str | None]  # the step's
    owner: NotRequired[str]  # the attachment's
    source: NotRequired[Literal["history", "uses"]]


@with_config(_KEEP)
class Replan(TypedDict):
    """A purchase the harness planned again: before the engine saw it (preempted: it would not fit at
    the prices in force) or after the engine refused it."""

    round: int
    player: str
    refused: Any
    preempted: NotRequired[bool]
    asked: NotRequired[Counts | None]
    bought: NotRequired[Counts | None]


@with_config(_KEEP)
class PlacementReplan(TypedDict):
    """A placement the engine refused the AI and the harness made elsewhere."""

    round: int
    player: str
    refused: Any
    asked: str  # the territory the AI chose
    placed: str  # where the harness placed the units
    units: Counts


# What became of a unit the rules pay for on delivery, as DeliveryLedger.java writes it.
Fate = Literal["delivered", "lost", "waiting"]


@with_config(_KEEP)
class Delivery(TypedDict):
    """One unit the rules pay for on delivery (a lend-lease token, cargo) and its fate (DeliveryLedger)."""

    unit: str
    fate: Fate
    player: NotRequired[str]
    atSea: NotRequired[bool]  # where it was last seen is a sea zone


@with_config(_KEEP)
class OwnerChange(TypedDict):
    territory: str


@with_config(_KEEP)
class PlayerRound(TypedDict):
    unplaced: NotRequired[Counts]


@with_config(_KEEP)
class Round(TypedDict):
    players: dict[str, PlayerRound]


@with_config(_KEEP)
class Timings(TypedDict):
    totalMs: NotRequired[int | float]
    rounds: NotRequired[list[int | float]]  # ms per round


@with_config(_KEEP)
class GameReport(TypedDict):
    """One game as the harness saw it; with `--rounds 0` only the parse, game and messages."""

    parse: Parse
    game: NotRequired[GameInfo]
    errors: NotRequired[list[Entry]]
    warnings: NotRequired[list[dict[str, Any]]]
    roundsCompleted: NotRequired[int]
    gameOver: NotRequired[bool]
    stoppedAt: NotRequired[str | None]
    rounds: NotRequired[list[Round]]
    actionsTaken: NotRequired[list[ActionTaken]]
    actionsOpen: NotRequired[list[ActionOpen]]
    ruleActivity: NotRequired[list[RuleFiring]]
    purchaseSteps: NotRequired[list[PurchaseStep]]
    purchases: NotRequired[list[Units]]
    placements: NotRequired[list[Units]]
    moves: NotRequired[list[dict[str, Any]]]
    unplaced: NotRequired[list[Units]]
    ownerChanges: NotRequired[list[OwnerChange]]
    battles: NotRequired[list[Battle]]
    purchaseReplans: NotRequired[list[Replan]]
    placementReplans: NotRequired[list[PlacementReplan]]
    deliveries: NotRequired[list[Delivery]]
    timings: NotRequired[Timings]


_ADAPTER: TypeAdapter[GameReport] = TypeAdapter(GameReport)


class UnreadableReport(TripleaForgeError):
    """A report that is not what the harness writes (a harness of another version, or a bug)."""


def game_report(raw: object) -> GameReport:
    """`raw` (the harness's JSON for one game) as a typed report; UnreadableReport names what is wrong."""
    try:
        return _ADAPTER.validate_python(raw)
    except ValidationError as exc:
        wrong = "; ".join(
            f"{'.'.join(str(part) for part in error['loc']) or 'the report'}: {error['msg']}"
            for error in exc.errors()[:5]
        )
        raise UnreadableReport(f"unreadable harness report ({wrong})") from None
