"""National attacks: a bonus a nation holds from its first turn on, as a hidden tech."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from generator.spec.patterns.base import Made, Pattern, Text, Uses, attachments


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

    player: Text = Field(description="The nation that has it.")
    bonus: dict[Text, Any] = Field(
        description="The tech's abilities (TechAbilityAttachment options): {attackBonus: [1, fighter]}."
    )
    given_before: Text = Field(description="The step before which the nation gets it (once).")
    conditions: list[Text] = Field(default=[], description="Conditions the giving trigger tests (1.9 wants one).")
    triggers_on: Text = Field(description="The player the trigger is attached to.")

    def make(self, name: str, uses: Uses) -> Made:
        tech = f"Na{name}"
        giving = {
            "ledger": self.ledger, "conditions": self.conditions, "players": [self.player], "tech": [tech], "uses": 1,
            "when": f"before:{self.given_before}",
        }  # fmt: skip
        return [
            {"technologies": {tech: {**self.bonus, "ledger": self.ledger}}},
            attachments(self.triggers_on, {f"triggerAttachment{tech}": giving}),
        ]
