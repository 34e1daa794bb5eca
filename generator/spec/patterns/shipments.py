"""Units that arrive by rule rather than by purchase: free units placed once at a step of a round,
and lend-lease tokens a donor gets every turn and ships to a sea zone, where they are paid out."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field

from generator.spec.patterns.base import Pattern, PatternError, Units, Uses, placement


class _Part(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class FreeUnits(Pattern):
    """Units a player gets for nothing, placed by the game after one of its steps in one round."""

    collection: ClassVar[str] = "free_units"
    noun: ClassVar[str] = "free units"
    template: ClassVar[str] = "patterns/free_units.yaml.j2"
    example: ClassVar[str] = """\
free_units:
  Germans:
    player: Germans
    after: germanPlace
    place: {Germany: [ssPanzer, heavyTank, mechInfantry, mechInfantry], 5 Sea Zone: [cruiser]}
    triggers_on: Germans
"""

    player: str = Field(description="Who gets them.")
    round: int = Field(default=1, description="The round they come in.")
    after: str = Field(description="The step after which they are placed (the player's Mobilize).")
    place: dict[str, Units] = Field(description="Where they go: {territory: units}.")
    triggers_on: str = Field(description="The player the trigger is attached to.")

    def values(self, name: str, uses: Uses) -> dict[str, Any]:
        return {
            "ledger": self.ledger, "player": self.player, "triggers_on": self.triggers_on,
            "round": f"conditionAttachmentRound{self.round}", "rounds": self.round,
            "trigger": f"triggerAttachmentFreeUnits{name}", "after": [["after", self.after]],
            "placement": [entry for territory, units in self.place.items() for entry in placement(territory, units)],
        }  # fmt: skip


class Delivery(_Part):
    player: str = Field(description="Who is paid when a token arrives.")
    at: dict[str, str] = Field(description="The sea zone it arrives in, by short name: {SZ4: 4 Sea Zone}.")


class LendLease(Pattern):
    """A donor's lend-lease: a token placed every turn, shipped by transport, paid out where it lands."""

    collection: ClassVar[str] = "lend_lease"
    noun: ClassVar[str] = "lend-lease route"
    template: ClassVar[str] = "patterns/lend_lease.yaml.j2"
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
    code: str = Field(description="What the donor's names start with (Us: conditionAttachmentUsOwnsEasternUS).")
    token: str = Field(description="The unit that stands for a shipment.")
    granted_in: dict[str, str] = Field(description="Where a token appears each turn while the donor holds it.")
    granted_after: str = Field(description="The step after which it appears.")
    worth: dict[str, int] = Field(description="What a delivered token pays: {PUs: 10}.")
    delivered_after: str = Field(description="The step after which tokens that arrived are paid and removed.")
    to: dict[str, Delivery] = Field(description="Each destination, by name.")
    triggers_on: str = Field(description="The player every attachment is attached to.")

    def values(self, name: str, uses: Uses) -> dict[str, Any]:
        for field in ("granted_in", "worth"):
            if len(getattr(self, field)) != 1:
                raise PatternError("give exactly one entry", field)
        for key, delivery in self.to.items():
            if len(delivery.at) != 1:
                raise PatternError("give exactly one sea zone", "to", key, "at")
        [(short, territory)] = self.granted_in.items()
        [(resource, amount)] = self.worth.items()
        owns = f"conditionAttachment{self.code}Owns{short}"
        routes = []
        for key, delivery in self.to.items():
            [(zone_name, zone)] = delivery.at.items()
            routes.append({
                "arrived": f"conditionAttachment{name}In{zone_name}", "zone": zone, "player": delivery.player,
                "paid": f"triggerAttachment{name}{key}Paid", "unloaded": f"triggerAttachment{name}{key}Unloaded",
            })  # fmt: skip
        return {
            "ledger": self.ledger, "donor": self.donor, "token": self.token, "triggers_on": self.triggers_on,
            "owns": owns, "territory": territory, "granted": f"triggerAttachment{name}Granted",
            "granted_after": [["after", self.granted_after]], "delivered_after": [["after", self.delivered_after]],
            "resource": resource, "amount": amount, "routes": routes,
        }  # fmt: skip
