"""A treaty between two players: in force while their relationship is of one type, ended for good by
either side's user action (the other side may get units for it), or void when a capital falls."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from generator.spec.patterns.base import (
    ActionText,
    Made,
    Part,
    Pattern,
    PatternError,
    Text,
    Units,
    Uses,
    action_texts,
    activation,
    attachments,
    placement,
)


class Ending(Part):
    code: Text = Field(description="What the side's names start with (Ru: userActionAttachmentRuBreakTreaty).")
    action: Text = Field(default="BreakTreaty", description="The action's name after the code.")
    text: Text | None = Field(default=None, description="Its key in actionstext (default: code and action).")
    only_if: list[Text] = Field(default=[], description="Conditions the action also needs (the start of a turn...).")
    other_gets: list[Text] = Field(default=[], description="Compensations (by name) fired when this side ends it.")
    button: Text
    description: Text
    done: Text = Field(default="", description="The notice when done (default: '<button>: done.').")


class Compensation(Part):
    player: Text = Field(description="Who gets the units.")
    place: dict[Text, Units] = Field(description="Where the units go: {territory: units}.")
    only_if: list[Text] = Field(default=[], description="Conditions tested when it fires.")


class Treaty(Pattern):
    """A treaty two players keep until one of them ends it (a user action) or a capital falls."""

    collection: ClassVar[str] = "treaties"
    noun: ClassVar[str] = "treaty"
    example: ClassVar[str] = """\
treaties:
  Treaty:
    between: [Russians, Japanese]
    relationship: NonAggression
    ends_in: War
    triggers_on: Germans
    ended_by:
      Russians: {code: Ru, other_gets: [JapanReinforced], button: End the treaty with Japan,
        description: "Japan gets 4 infantry in Japan."}
      Japanese: {code: Jp, other_gets: [RussiaReinforced], button: End the treaty with Russia,
        description: "Russia gets 4 infantry in Russia."}
    compensation:
      JapanReinforced: {player: Japanese, place: {Japan: {infantry: 4}}}
      RussiaReinforced: {player: Russians, place: {Russia: {infantry: 4}}}
"""

    between: list[Text] = Field(description="The two players (the first holds the treaty's condition).")
    relationship: Text = Field(description="Their relationship type while the treaty is in force.")
    ends_in: Text = Field(description="Their relationship type once it is ended.")
    triggers_on: Text = Field(description="The player every trigger is attached to.")
    ended_by: dict[Text, Ending] = Field(description="The sides that may end it, by player.")
    compensation: dict[Text, Compensation] = Field(default={}, description="Units a side gets when the other ends it.")
    void_if_capital_lost: dict[Text, Text] = Field(
        default={}, description="Each side's capital, by player: the treaty ends when one is not held by its owner."
    )
    tested_after: list[Text] = Field(default=[], description="The steps after which a lost capital is tested.")

    def make(self, name: str, uses: Uses) -> Made:
        if len(self.between) != 2:
            raise PatternError("a treaty is between two players", "between")
        for player, ending in self.ended_by.items():
            for index, other in enumerate(ending.other_gets):
                if other not in self.compensation:
                    raise PatternError(f"no compensation '{other}'", "ended_by", player, "other_gets", index)
        for player in self.void_if_capital_lost:
            if player not in self.ended_by:
                raise PatternError(
                    f"{player} does not end the treaty: its code is unknown", "void_if_capital_lost", player
                )
        ledger = self.ledger
        in_force, ends = f"conditionAttachment{name}InForce", f"triggerAttachment{name}Ends"
        change = [*self.between, self.relationship, self.ends_in]
        in_force_entry = {"ledger": ledger, "relationship": [*self.between, self.relationship]}
        made = [attachments(self.between[0], {in_force: in_force_entry})]
        texts = []
        for player, ending in self.ended_by.items():  # each side's action that ends it
            key = ending.text or f"{ending.code}{ending.action}"
            texts.append(ActionText(key, ending.button, ending.description, ending.done))
            fired = [activation(ends)] + [
                activation(f"triggerAttachment{name}{other}", bool(self.compensation[other].only_if))
                for other in ending.other_gets
            ]
            action = {
                "ledger": ledger, "text": key, "conditions": [in_force, *ending.only_if], "attemptsPerTurn": 1,
                "activateTrigger": fired,
            }  # fmt: skip
            made.append(attachments(player, {f"userActionAttachment{ending.code}{ending.action}": action}))
        triggers: dict[str, Any] = {ends: {"ledger": ledger, "relationshipChange": change, "uses": 0}}
        for key, paid in self.compensation.items():
            places = [entry for territory, units in paid.place.items() for entry in placement(territory, units)]
            only_if = {"conditions": paid.only_if} if paid.only_if else {}
            triggers[f"triggerAttachment{name}{key}"] = {
                "ledger": ledger, **only_if, "players": [paid.player], "placement": places, "uses": 0,
            }  # fmt: skip
        any_lost = f"conditionAttachment{name}CapitalLost"
        if self.void_if_capital_lost:  # void when a side's capital is not held by its owner
            triggers[f"triggerAttachment{name}VoidCapital"] = {
                "ledger": ledger, "conditions": [in_force, any_lost], "when": [["after", s] for s in self.tested_after],
                "relationshipChange": change,
            }  # fmt: skip
        made.append(attachments(self.triggers_on, triggers))
        lost = []
        for player, capital in self.void_if_capital_lost.items():
            condition = f"conditionAttachment{self.ended_by[player].code}CapitalLost"
            lost.append(condition)
            entry = {"ledger": ledger, "directOwnershipTerritories": [capital], "invert": True}
            made.append(attachments(player, {condition: entry}))
        if lost:
            either = {"ledger": ledger, "conditions": lost, "conditionType": "OR"}
            made.append(attachments(self.between[-1], {any_lost: either}))
        return [*made, {"map_files": {"actionstext": action_texts(texts)}}]
