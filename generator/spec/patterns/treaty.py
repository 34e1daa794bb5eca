"""A treaty between two players: in force while their relationship is of one type, ended for good by
either side's user action (the other side may get units for it), or void when a capital falls."""

from __future__ import annotations

from typing import Any, ClassVar, TypedDict

from pydantic import Field

from generator.spec.patterns.base import (
    ActionText,
    Part,
    Pattern,
    PatternError,
    Units,
    Uses,
    action_texts,
    activation,
    placement,
)


class Ending(Part):
    code: str = Field(description="What the side's names start with (Ru: userActionAttachmentRuBreakTreaty).")
    action: str = Field(default="BreakTreaty", description="The action's name after the code.")
    text: str | None = Field(default=None, description="Its key in actionstext (default: code and action).")
    only_if: list[str] = Field(default=[], description="Conditions the action also needs (the start of a turn...).")
    other_gets: list[str] = Field(default=[], description="Compensations (by name) fired when this side ends it.")
    button: str
    description: str
    done: str = Field(default="", description="The notice when done (default: '<button>: done.').")


class Compensation(Part):
    player: str = Field(description="Who gets the units.")
    place: dict[str, Units] = Field(description="Where the units go: {territory: units}.")
    only_if: list[str] = Field(default=[], description="Conditions tested when it fires.")


class Side(TypedDict):
    """A side's action that ends the treaty."""

    player: str
    action: str
    text: str
    conditions: list[str]
    activations: list[list[Any]]


class Paid(TypedDict):
    """A compensation's trigger."""

    trigger: str
    only_if: list[str]
    player: str
    placement: list[Any]


class Capital(TypedDict):
    """A side's condition that its capital is lost."""

    player: str
    condition: str
    capital: str


class TreatyData(TypedDict):
    ledger: list[str]
    holder: str
    last: str
    triggers_on: str
    in_force: str
    ends: str
    in_force_relation: list[str]
    change: list[str]
    sides: list[Side]
    compensation: list[Paid]
    lost: list[Capital]
    lost_conditions: list[str]
    any_lost: str
    void: str
    tested_after: list[list[str]]
    texts: dict[str, str]


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

    between: list[str] = Field(description="The two players (the first holds the treaty's condition).")
    relationship: str = Field(description="Their relationship type while the treaty is in force.")
    ends_in: str = Field(description="Their relationship type once it is ended.")
    triggers_on: str = Field(description="The player every trigger is attached to.")
    ended_by: dict[str, Ending] = Field(description="The sides that may end it, by player.")
    compensation: dict[str, Compensation] = Field(default={}, description="Units a side gets when the other ends it.")
    void_if_capital_lost: dict[str, str] = Field(
        default={}, description="Each side's capital, by player: the treaty ends when one is not held by its owner."
    )
    tested_after: list[str] = Field(default=[], description="The steps after which a lost capital is tested.")

    def values(self, name: str, uses: Uses) -> TreatyData:
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
        in_force, ends = f"conditionAttachment{name}InForce", f"triggerAttachment{name}Ends"
        change = [*self.between, self.relationship, self.ends_in]
        sides: list[Side] = []
        texts = []
        for player, ending in self.ended_by.items():
            key = ending.text or f"{ending.code}{ending.action}"
            texts.append(ActionText(key, ending.button, ending.description, ending.done))
            fired = [activation(ends)] + [
                activation(f"triggerAttachment{name}{other}", bool(self.compensation[other].only_if))
                for other in ending.other_gets
            ]
            sides.append({
                "player": player, "action": f"userActionAttachment{ending.code}{ending.action}", "text": key,
                "conditions": [in_force, *ending.only_if], "activations": fired,
            })  # fmt: skip
        compensation: list[Paid] = [
            {"trigger": f"triggerAttachment{name}{key}", "only_if": c.only_if, "player": c.player,
             "placement": [entry for territory, units in c.place.items() for entry in placement(territory, units)]}
            for key, c in self.compensation.items()
        ]  # fmt: skip
        lost: list[Capital] = [
            {
                "player": player,
                "condition": f"conditionAttachment{self.ended_by[player].code}CapitalLost",
                "capital": capital,
            }
            for player, capital in self.void_if_capital_lost.items()
        ]
        return {
            "ledger": self.ledger, "holder": self.between[0], "last": self.between[-1],
            "triggers_on": self.triggers_on, "in_force": in_force, "ends": ends,
            "in_force_relation": [*self.between, self.relationship], "change": change, "sides": sides,
            "compensation": compensation, "lost": lost, "lost_conditions": [side["condition"] for side in lost],
            "any_lost": f"conditionAttachment{name}CapitalLost",
            "void": f"triggerAttachment{name}VoidCapital", "tested_after": [["after", s] for s in self.tested_after],
            "texts": action_texts(texts),
        }  # fmt: skip
