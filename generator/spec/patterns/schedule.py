"""When nations may declare their national advantages (AARe §2.3): the declaration schedule.

One use says, per nation, the code its names start with, its steps, the places its advantages name,
and the two slots: one in the first round, one from the second (at the start of a turn, or after
placing at Mobilize), the second slot shared by a side where it says so. The national advantages
(patterns.advantages) read it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from generator.diagnostics import did_you_mean
from generator.spec.numbers import Count
from generator.spec.patterns.base import Made, Part, Pattern, PatternError, Text, Uses, attachments, switch


class SeaPlace(Part):
    at: Text = Field(description="The territory (a sea zone) where the units go.")
    held: Text | None = Field(default=None, description="A land place the nation must hold to place there.")


class Nation(Part):
    code: Text = Field(description="What the nation's names start with: Ru makes conditionAttachmentRuMayDeclare.")
    steps: Text = Field(description="What its step names start with: russian for russianUserActions, russianPurchase.")
    shared_second: bool = Field(default=False, description="Its second advantage takes the slot its side shares.")
    places: dict[Text, Text | SeaPlace] = Field(
        default={},
        description="Places its advantages name, by short name: a land territory (held: placing there needs it) "
        "or a sea zone {at, held}.",
    )


class AdvantageSchedule(Pattern):
    """When nations may declare their national advantages, and the places those advantages name."""

    collection: ClassVar[str] = "advantage_schedules"
    noun: ClassVar[str] = "declaration schedule"
    example: ClassVar[str] = """\
advantage_schedules:
  AARe:
    holder: Russians
    triggers_on: Germans
    nations:
      Russians: {code: Ru, steps: russian, shared_second: true, places: {Russia: Russia, Yakut: Yakut S.S.R.,
        SovietFarEast: Soviet Far East, Buryatia: Buryatia S.S.R.}}
      Germans: {code: Ge, steps: german, places: {Libya: Libya, SZ5: {at: 5 Sea Zone}}}
"""

    holder: Text = Field(description="The player holding the round conditions and the side's shared slot.")
    triggers_on: Text = Field(
        description="The player every trigger is attached to (TripleA 1.9 copies game data reliably only when "
        "the triggers belong to the first player it reads)."
    )
    first_round: Count = Field(default=1, description="The round of the first slot (at the start of a turn).")
    second_round: Count = Field(default=2, description="From this round the second slot (start of a turn or Mobilize).")
    shared_slot: Text = Field(default="Allies", description="Name of the second slot nations with shared_second share.")
    nations: dict[Text, Nation] = Field(description="Each nation that declares advantages, by player.")

    def always(self) -> str:
        return "conditionAttachmentAlways"

    def round_condition(self, which: str) -> str:
        return {
            "first": f"conditionAttachmentRound{self.first_round}",
            "second": f"conditionAttachmentRound{self.second_round}",
            "from_second": f"conditionAttachmentRound{self.second_round}On",
        }[which]

    def names(self, player: str) -> dict[str, str]:
        """The names of one nation's schedule: its conditions, switches and slot triggers."""
        nation = self.nations[player]
        c = f"conditionAttachment{nation.code}"
        t = f"triggerAttachment{nation.code}"
        slot2 = f"conditionAttachment{self.shared_slot}Slot2Free" if nation.shared_second else f"{c}Slot2Free"
        return {
            "at_mobilize": f"{c}AtMobilize", "at_start": f"{c}AtStart", "slot1": f"{c}Slot1Free", "slot2": slot2,
            "window1": f"{c}Window1", "window2": f"{c}Window2", "window3": f"{c}Window3",
            "may_declare": f"{c}MayDeclare", "mobilize_on": f"{t}MobilizeOn", "mobilize_off": f"{t}MobilizeOff",
            "use_slot1": f"{t}UseSlot1", "use_slot2": f"{t}UseSlot2",
            "user_actions": f"{nation.steps}UserActions", "mobilize_actions": f"{nation.steps}MobilizeUserActions",
            "purchase": f"{nation.steps}Purchase", "end_turn": f"{nation.steps}EndTurn",
        }  # fmt: skip

    def owns(self, player: str, place: str) -> str:
        return f"conditionAttachment{self.nations[player].code}Owns{place}"

    def place(self, player: str, short: str, where: tuple[str | int, ...]) -> tuple[str, str, str | None]:
        """(territory, where in words, the condition that must hold to place there) of a nation's place."""
        places = self.nations[player].places
        if short not in places:
            hint = did_you_mean(short, places)
            raise PatternError(f"{player} has no place '{short}' in its declaration schedule{hint}", *where)
        found = places[short]
        if isinstance(found, str):
            return found, found, self.owns(player, short)
        held = places.get(found.held or "")
        if not isinstance(held, str):  # none, or not a land place (said by problems())
            return found.at, found.at, None
        return found.at, f"{found.at} (off {held})", self.owns(player, str(found.held))

    def seas_of(self, player: str, short: str) -> list[str]:
        """The sea zones of the nation's places that need `short` held."""
        places = self.nations[player].places.values()
        return [p.at for p in places if isinstance(p, SeaPlace) and p.held == short]

    def problems(self) -> list[PatternError]:
        found = []
        for player, nation in self.nations.items():
            for short, place in nation.places.items():
                if isinstance(place, SeaPlace) and place.held and not isinstance(nation.places.get(place.held), str):
                    hint = did_you_mean(place.held, [s for s, p in nation.places.items() if isinstance(p, str)])
                    message = f"{player} has no land place '{place.held}' to hold{hint}"
                    found.append(PatternError(message, "nations", player, "places", short, "held"))
        return found

    def make(self, name: str, uses: Uses) -> Made:
        ledger, always = self.ledger, self.always()
        first, second, from_second = (self.round_condition(k) for k in ("first", "second", "from_second"))
        rounds: dict[str, Any] = {always: {"ledger": ledger, "switch": True}}
        rounds[first] = {"ledger": ledger, "rounds": self.first_round}
        rounds[second] = {"ledger": ledger, "rounds": self.second_round}
        rounds[from_second] = {"ledger": ledger, "rounds": f"{self.second_round}-+"}
        if any(n.shared_second for n in self.nations.values()):
            rounds[f"conditionAttachment{self.shared_slot}Slot2Free"] = {"ledger": ledger, "switch": True}
        made = [attachments(self.holder, rounds)]
        for player, nation in self.nations.items():
            n = self.names(player)
            own: dict[str, Any] = {
                self.owns(player, short): {"directOwnershipTerritories": [territory]}
                for short, territory in nation.places.items()
                if isinstance(territory, str)
            }
            own[n["at_mobilize"]] = {"ledger": ledger, "switch": False}
            own[n["at_start"]] = {"ledger": ledger, "conditions": [n["at_mobilize"]], "invert": True}
            own[n["slot1"]] = {"ledger": ledger, "switch": True}
            if not nation.shared_second:
                own[n["slot2"]] = {"ledger": ledger, "switch": True}
            windows = {
                "window1": [first, n["at_start"], n["slot1"]],
                "window2": [second, n["at_start"], n["slot2"]],
                "window3": [from_second, n["at_mobilize"], n["slot2"]],
            }
            for window, conditions in windows.items():
                own[n[window]] = {"ledger": ledger, "conditions": conditions}
            windowed = [n["window1"], n["window2"], n["window3"]]
            own[n["may_declare"]] = {"ledger": ledger, "conditions": windowed, "conditionType": "OR"}
            holder = self.holder if nation.shared_second else player
            mobilize = n["mobilize_actions"]
            triggers = {
                n["mobilize_on"]: {"ledger": ledger, "conditions": [always], "when": ["before", mobilize],
                                   **switch(player, n["at_mobilize"], True)},
                n["mobilize_off"]: {"ledger": ledger, "conditions": [always], "when": ["after", mobilize],
                                    **switch(player, n["at_mobilize"], False)},
                n["use_slot1"]: {"ledger": ledger, "conditions": [first], **switch(player, n["slot1"], False),
                                 "uses": 0},
                n["use_slot2"]: {"ledger": ledger, "conditions": [from_second], **switch(holder, n["slot2"], False),
                                 "uses": 0},
            }  # fmt: skip
            made += [attachments(player, own), attachments(self.triggers_on, triggers)]
        return made
