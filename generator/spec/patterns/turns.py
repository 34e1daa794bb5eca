"""A turn order: the players in the order they play, each playing the same phases in the same order.

One use makes one step per player and phase, named <player's prefix><phase> (russianPurchase),
appended to the sequence in play order; `once` makes steps played in the first round only (an
opening turn, bids). A child variant replaces a whole turn order by deleting the use.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from generator.spec.patterns.base import Made, Part, Pattern, Text, Uses


class Phase(Part):
    delegate: Text = Field(description="The delegate the step runs.")
    display: Text | None = Field(default=None, description="The step's name in the client (default: the delegate's).")
    ledger: list[Text] = Field(
        default=[], description="Rule-ledger ids this phase implements besides the turn order's."
    )


class Turns(Pattern):
    """Players' turns in order, each the same phases."""

    collection: ClassVar[str] = "turns"
    noun: ClassVar[str] = "turn order"
    ordered: ClassVar[tuple[str, ...]] = ("players", "phases")
    example: ClassVar[str] = """\
turns:
  Round:
    players: {Russians: russian, Germans: german}
    phases:
      Purchase: purchase
      CombatMove: move
      Battle: battle
      NonCombatMove: {delegate: move, display: Non Combat Move}
      Place: place
      EndTurn: endTurn
"""

    players: dict[Text, Text] = Field(description="The players in play order, each with its steps' prefix.")
    phases: dict[Text, Text | Phase] = Field(description="The phases in play order: name suffix -> delegate (or more).")
    once: bool = Field(default=False, description="Played in the first round only (max run count 1).")
    player_ledger: dict[Text, list[Text]] = Field(
        default={}, description="Rule-ledger ids a player's steps implement besides the rest (a sixth player...)."
    )

    def make(self, name: str, uses: Uses) -> Made:
        steps = {}
        for player, prefix in self.players.items():
            for suffix, phase in self.phases.items():
                if isinstance(phase, str):
                    phase = Phase(delegate=phase)
                # The player first: which nation plays the step is what a one-edit mutant should try
                # first (a step without its delegate is no game at all).
                step: dict[str, Any] = {"player": player, "delegate": phase.delegate}
                if self.once:
                    step["max_run_count"] = 1
                if phase.display is not None:
                    step["display"] = phase.display
                step["ledger"] = [*self.ledger, *phase.ledger, *self.player_ledger.get(player, [])]
                steps[f"{prefix}{suffix}"] = step
        return [{"sequence": steps}]
