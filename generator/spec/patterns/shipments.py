"""Units that arrive by rule rather than by purchase: free units placed once at a step of a round,
and lend-lease tokens a donor gets every turn and ships to a sea zone, where they are paid out."""

from __future__ import annotations

from typing import Any, ClassVar, TypedDict

from pydantic import Field

from generator.spec.numbers import Count
from generator.spec.patterns.base import Part, Pattern, PatternError, Units, Uses, placement


class FreeUnitsData(TypedDict):
    ledger: list[str]
    player: str
    triggers_on: str
    round: str  # the condition of the round
    rounds: int
    trigger: str
    after: list[list[str]]
    placement: list[Any]


class FreeUnits(Pattern):
    """Units a player gets for nothing, placed by the game after one of its steps in one round."""

    collection: ClassVar[str] = "free_units"
    noun: ClassVar[str] = "free units"
    example: ClassVar[str] = """\
free_units:
  Germans:
    player: Germans
    after: germanPlace
    place: {Germany: [ssPanzer, heavyTank, mechInfantry, mechInfantry], 5 Sea Zone: [cruiser]}
    triggers_on: Germans
"""

    player: str = Field(description="Who gets them.")
    round: Count = Field(default=1, description="The round they come in.")
    after: str = Field(description="The step after which they are placed (the player's Mobilize).")
    place: dict[str, Units] = Field(description="Where they go: {territory: units}.")
    triggers_on: str = Field(description="The player the trigger is attached to.")

    def values(self, name: str, uses: Uses) -> FreeUnitsData:
        return {
            "ledger": self.ledger, "player": self.player, "triggers_on": self.triggers_on,
            "round": f"conditionAttachmentRound{self.round}", "rounds": self.round,
            "trigger": f"triggerAttachmentFreeUnits{name}", "after": [["after", self.after]],
            "placement": [entry for territory, units in self.place.items() for entry in placement(territory, units)],
        }  # fmt: skip


class Delivery(Part):
    player: str = Field(description="Who is paid when a token arrives.")
    at: dict[str, str] = Field(description="The sea zone it arrives in, by short name: {SZ4: 4 Sea Zone}.")


class Route(TypedDict):
    """One token's way to one destination: arrived there, paid, unloaded."""

    arrived: str
    count: int
    zone: str
    player: str
    paid: str
    unloaded: str


class LendLeaseData(TypedDict):
    ledger: list[str]
    donor: str
    token: str
    triggers_on: str
    owns: str | None
    granted_if: list[str]
    territory: str
    placement: list[Any]
    granted: str
    granted_after: list[list[str]]
    delivered_after: list[list[str]]
    resource: str
    amount: int
    routes: list[Route]


class LendLease(Pattern):
    """A donor's lend-lease: a token placed every turn, shipped by transport, paid out where it lands."""

    collection: ClassVar[str] = "lend_lease"
    noun: ClassVar[str] = "lend-lease route"
    example: ClassVar[str] = """\
lend_lease:
  LendLease:
    donor: Americans
    code: Us
    token: lendLease
    granted_in: {EasternUS: Eastern United States}
    granted_after: americanPlace
    worth: {PUs: 10}
    delivered_after: americanNonCombatMove
    to: {ToRussia: {player: Russians, at: {SZ4: 4 Sea Zone}}}
    triggers_on: Germans
"""

    donor: str = Field(description="The player who ships.")
    code: str | None = Field(
        default=None, description="What the donor's names start with (Us: conditionAttachmentUsOwnsEasternUS)."
    )
    token: str = Field(description="The unit that stands for a shipment.")
    tokens: Count = Field(
        default=1, description="Tokens placed each turn; as many are paid out per sea zone each turn."
    )
    granted_in: dict[str, str] = Field(description="Where the tokens appear each turn (while the donor holds it).")
    granted_if: list[str] | None = Field(
        default=None, description="Conditions for the tokens to appear instead of holding granted_in (needs no code)."
    )
    granted_after: str = Field(description="The step after which they appear.")
    worth: dict[str, Count] = Field(description="What a delivered token pays: {PUs: 10}.")
    delivered_after: str = Field(description="The step after which tokens that arrived are paid and removed.")
    to: dict[str, Delivery] = Field(description="Each destination, by name.")
    triggers_on: str = Field(description="The player every attachment is attached to.")
    # Names, for a game whose attachments already have theirs (the engine knows them by name).
    grant_trigger: str | None = Field(
        default=None, description="The granting trigger's name after 'triggerAttachment'."
    )
    paid_suffix: str = Field(default="Paid", description="What a paying trigger's name ends with.")

    def values(self, name: str, uses: Uses) -> LendLeaseData:
        for field in ("granted_in", "worth"):
            if len(getattr(self, field)) != 1:
                raise PatternError("give exactly one entry", field)
        for key, delivery in self.to.items():
            if len(delivery.at) != 1:
                raise PatternError("give exactly one sea zone", "to", key, "at")
        if self.granted_if is None and self.code is None:
            raise PatternError(
                "give the donor's code (for the condition that it holds granted_in) or granted_if", "code"
            )
        if not 1 <= self.tokens <= len(_ORDINALS):
            raise PatternError(f"between 1 and {len(_ORDINALS)} tokens a turn", "tokens")
        [(short, territory)] = self.granted_in.items()
        [(resource, amount)] = self.worth.items()
        owns = f"conditionAttachment{self.code}Owns{short}"
        routes: list[Route] = []
        for key, delivery in self.to.items():
            [(zone_name, zone)] = delivery.at.items()
            for count, (times, nth) in enumerate(_ORDINALS[: self.tokens], 1):
                arrived = f"conditionAttachment{times}{name}In{zone_name}"
                routes.append({
                    "arrived": arrived, "count": count, "zone": zone, "player": delivery.player,
                    "paid": f"triggerAttachment{nth}{name}{key}{self.paid_suffix}",
                    "unloaded": f"triggerAttachment{nth}{name}{key}Unloaded",
                })  # fmt: skip
        return {
            "ledger": self.ledger, "donor": self.donor, "token": self.token, "triggers_on": self.triggers_on,
            "owns": None if self.granted_if is not None else owns, "granted_if": self.granted_if or [owns],
            "territory": territory, "placement": placement(territory, {self.token: self.tokens}),
            "granted": f"triggerAttachment{self.grant_trigger or name + 'Granted'}",
            "granted_after": [["after", self.granted_after]], "delivered_after": [["after", self.delivered_after]],
            "resource": resource, "amount": amount, "routes": routes,
        }  # fmt: skip


# The k-th token a turn: its conditions' and its triggers' names start with these.
_ORDINALS = [("", ""), ("Two", "Second"), ("Three", "Third")]


class Conversion(TypedDict):
    """One unit converted in one place: the condition that so many stand there, the trigger that swaps one."""

    built: str
    convert: str
    territory: str
    count: int


class NationalBuildData(TypedDict):
    ledger: list[str]
    player: str
    unit: str
    becomes: str
    triggers_on: str
    when: list[list[str]]
    conversions: list[Conversion]


class NationalBuild(Pattern):
    """A unit bought under its own rule (a national build) that becomes a regular unit once placed.

    The game converts it after the given steps: for each of up to `up_to` such units in a place, a
    condition that so many stand there and a trigger that swaps one.
    """

    collection: ClassVar[str] = "national_builds"
    noun: ClassVar[str] = "national build"
    example: ClassVar[str] = """\
national_builds:
  Patriots:
    player: Japanese
    unit: patriotInfantry
    becomes: infantry
    at: Japan
    up_to: 3
    after: [japaneseTurnPlace]
    triggers_on: Germans
"""

    player: str = Field(description="Who builds it.")
    unit: str = Field(description="The unit its production rule makes.")
    becomes: str = Field(description="The unit it is on the board.")
    at: str | dict[str, str] = Field(description="Where it is placed: a territory, or several by short name.")
    up_to: Count = Field(default=1, description="How many are converted in a place each time (at most).")
    after: list[str] = Field(description="The steps after which they are converted (the player's Mobilize).")
    triggers_on: str = Field(description="The player every attachment is attached to.")

    def values(self, name: str, uses: Uses) -> NationalBuildData:
        places = {"": self.at} if isinstance(self.at, str) else self.at
        conversions: list[Conversion] = []
        for short, territory in places.items():
            for count in range(1, self.up_to + 1):
                suffix = f"{short}{count if self.up_to > 1 else ''}"
                conversions.append({
                    "built": f"conditionAttachmentBuilt{name}{suffix}",
                    "convert": f"triggerAttachmentConvert{name}{suffix}", "territory": territory, "count": count,
                })  # fmt: skip
        return {
            "ledger": self.ledger, "player": self.player, "unit": self.unit, "becomes": self.becomes,
            "triggers_on": self.triggers_on, "when": [["after", step] for step in self.after],
            "conversions": conversions,
        }  # fmt: skip
