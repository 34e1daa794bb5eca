"""Units that arrive by rule rather than by purchase: free units placed once at a step of a round,
and lend-lease tokens a donor gets every turn and ships to a sea zone, where they are paid out."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from generator.spec.numbers import Count
from generator.spec.patterns.base import Made, Part, Pattern, PatternError, Text, Units, Uses, attachments, placement


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

    player: Text = Field(description="Who gets them.")
    round: Count = Field(default=1, description="The round they come in.")
    after: Text = Field(description="The step after which they are placed (the player's Mobilize).")
    place: dict[Text, Units] = Field(description="Where they go: {territory: units}.")
    triggers_on: Text = Field(description="The player the trigger is attached to.")

    def make(self, name: str, uses: Uses) -> Made:
        ledger, round_ = self.ledger, f"conditionAttachmentRound{self.round}"
        places = [entry for territory, units in self.place.items() for entry in placement(territory, units)]
        placing = {
            "ledger": ledger, "conditions": [round_], "players": [self.player], "placement": places,
            "when": [["after", self.after]], "uses": 1,
        }  # fmt: skip
        made = {round_: {"rounds": self.round}, f"triggerAttachmentFreeUnits{name}": placing}
        return [attachments(self.triggers_on, made)]


class Delivery(Part):
    player: Text = Field(description="Who is paid when a token arrives.")
    at: dict[Text, Text] = Field(description="The sea zone it arrives in, by short name: {SZ4: 4 Sea Zone}.")


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

    donor: Text = Field(description="The player who ships.")
    code: Text | None = Field(
        default=None, description="What the donor's names start with (Us: conditionAttachmentUsOwnsEasternUS)."
    )
    token: Text = Field(description="The unit that stands for a shipment.")
    tokens: Count = Field(
        default=1, description="Tokens placed each turn; as many are paid out per sea zone each turn."
    )
    granted_in: dict[Text, Text] = Field(description="Where the tokens appear each turn (while the donor holds it).")
    granted_if: list[Text] | None = Field(
        default=None, description="Conditions for the tokens to appear instead of holding granted_in (needs no code)."
    )
    granted_after: Text = Field(description="The step after which they appear.")
    worth: dict[Text, Count] = Field(description="What a delivered token pays: {PUs: 10}.")
    delivered_after: Text = Field(description="The step after which tokens that arrived are paid and removed.")
    to: dict[Text, Delivery] = Field(description="Each destination, by name.")
    triggers_on: Text = Field(description="The player every attachment is attached to.")
    # Names, for a game whose attachments already have theirs (the engine knows them by name).
    grant_trigger: Text | None = Field(
        default=None, description="The granting trigger's name after 'triggerAttachment'."
    )
    paid_suffix: Text = Field(default="Paid", description="What a paying trigger's name ends with.")

    def make(self, name: str, uses: Uses) -> Made:
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
        ledger, donor, delivered = self.ledger, self.donor, [["after", self.delivered_after]]
        made: dict[str, Any] = {}
        owns = f"conditionAttachment{self.code}Owns{short}"
        if self.granted_if is None:  # granted while the donor holds the place
            made[owns] = {"ledger": ledger, "players": [donor], "directOwnershipTerritories": [territory]}
        made[f"triggerAttachment{self.grant_trigger or name + 'Granted'}"] = {
            "ledger": ledger, "conditions": self.granted_if or [owns], "players": [donor],
            "placement": placement(territory, {self.token: self.tokens}), "when": [["after", self.granted_after]],
        }  # fmt: skip
        for key, delivery in self.to.items():  # per destination and token: arrived there, paid, unloaded
            [(zone_name, zone)] = delivery.at.items()
            for count, (times, nth) in enumerate(_ORDINALS[: self.tokens], 1):
                arrived = f"conditionAttachment{times}{name}In{zone_name}"
                made[arrived] = {
                    "ledger": ledger, "players": [donor], "directPresenceTerritories": [zone],
                    "unitPresence": {"value": [self.token], "count": count},
                }  # fmt: skip
                made[f"triggerAttachment{nth}{name}{key}{self.paid_suffix}"] = {
                    "ledger": ledger, "conditions": [arrived], "players": [delivery.player], "resource": resource,
                    "resourceCount": amount, "when": delivered,
                }  # fmt: skip
                made[f"triggerAttachment{nth}{name}{key}Unloaded"] = {
                    "ledger": ledger, "conditions": [arrived], "players": [donor],
                    "removeUnits": [[zone, self.token]], "when": delivered,
                }  # fmt: skip
        return [attachments(self.triggers_on, made)]


# The k-th token a turn: its conditions' and its triggers' names start with these.
_ORDINALS = [("", ""), ("Two", "Second"), ("Three", "Third")]


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

    player: Text = Field(description="Who builds it.")
    unit: Text = Field(description="The unit its production rule makes.")
    becomes: Text = Field(description="The unit it is on the board.")
    at: Text | dict[Text, Text] = Field(description="Where it is placed: a territory, or several by short name.")
    up_to: Count = Field(default=1, description="How many are converted in a place each time (at most).")
    after: list[Text] = Field(description="The steps after which they are converted (the player's Mobilize).")
    triggers_on: Text = Field(description="The player every attachment is attached to.")

    def make(self, name: str, uses: Uses) -> Made:
        places = {"": self.at} if isinstance(self.at, str) else self.at
        when = [["after", step] for step in self.after]
        made: dict[str, Any] = {}
        for short, territory in places.items():  # per place and unit: so many placed there, and one swapped
            for count in range(1, self.up_to + 1):
                suffix = f"{short}{count if self.up_to > 1 else ''}"
                built = f"conditionAttachmentBuilt{name}{suffix}"
                made[built] = {
                    "ledger": self.ledger, "players": [self.player], "directPresenceTerritories": [territory],
                    "unitPresence": {"value": [self.unit], "count": count},
                }  # fmt: skip
                made[f"triggerAttachmentConvert{name}{suffix}"] = {
                    "ledger": self.ledger, "conditions": [built], "players": [self.player],
                    "removeUnits": [[territory, self.unit]], "placement": [[territory, self.becomes]], "when": when,
                }  # fmt: skip
        return [attachments(self.triggers_on, made)]
