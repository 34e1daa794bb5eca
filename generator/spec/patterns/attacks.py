"""National attacks: a bonus a nation holds from its first turn on, as a hidden tech."""

from __future__ import annotations

from typing import Any, ClassVar, TypedDict

from pydantic import Field

from generator.spec.patterns.base import (
    Pattern,
    Uses,
)


class AttackData(TypedDict):
    ledger: list[str]
    tech: str
    bonus: dict[str, Any]  # the tech's options
    trigger: str
    triggers_on: str
    player: str
    conditions: list[str]
    when: str


class NationalAttack(Pattern):
    """A bonus a nation holds from its first turn on: a hidden tech (in no research category) it is
    given before a step of the first round."""

    collection: ClassVar[str] = "national_attacks"
    noun: ClassVar[str] = "national attack"
    example: ClassVar[str] = """\
national_attacks:
  Blitzkrieg:
    player: Germans
    bonus: {attackBonus: [1, fighter]}
    given_before: germanTurnPurchase
    triggers_on: Germans
"""

    player: str = Field(description="The nation that has it.")
    bonus: dict[str, Any] = Field(
        description="The tech's abilities (TechAbilityAttachment options): {attackBonus: [1, fighter]}."
    )
    given_before: str = Field(description="The step before which the nation gets it (once).")
    conditions: list[str] = Field(default=[], description="Conditions the giving trigger tests (1.9 wants one).")
    triggers_on: str = Field(description="The player the trigger is attached to.")

    def values(self, name: str, uses: Uses) -> AttackData:
        tech = f"Na{name}"
        return {
            "ledger": self.ledger, "tech": tech, "bonus": {**self.bonus, "ledger": self.ledger},
            "trigger": f"triggerAttachment{tech}", "triggers_on": self.triggers_on, "player": self.player,
            "conditions": self.conditions, "when": f"before:{self.given_before}",
        }  # fmt: skip
