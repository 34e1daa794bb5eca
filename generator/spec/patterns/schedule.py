"""When nations may declare their national advantages (AARe §2.3): the declaration schedule.

One use says, per nation, the code its names start with, its steps, the places its advantages name,
and the two slots: one in the first round, one from the second (at the start of a turn, or after
placing at Mobilize), the second slot shared by a side where it says so. The national advantages
(patterns.advantages) read it.
"""

from __future__ import annotations

from typing import ClassVar, TypedDict

from pydantic import Field

from generator.diagnostics import did_you_mean
from generator.spec.numbers import Count
from generator.spec.patterns.base import (
    Part,
    Pattern,
    PatternError,
    Uses,
)


class SeaPlace(Part):
    at: str = Field(description="The territory (a sea zone) where the units go.")
    held: str | None = Field(default=None, description="A land place the nation must hold to place there.")


class Nation(Part):
    code: str = Field(description="What the nation's names start with: Ru makes conditionAttachmentRuMayDeclare.")
    steps: str = Field(description="What its step names start with: russian for russianUserActions, russianPurchase.")
    shared_second: bool = Field(default=False, description="Its second advantage takes the slot its side shares.")
    places: dict[str, str | SeaPlace] = Field(
        default={},
        description="Places its advantages name, by short name: a land territory (held: placing there needs it) "
        "or a sea zone {at, held}.",
    )


class ScheduledNation(TypedDict):
    player: str
    n: dict[str, str]  # its schedule's names (AdvantageSchedule.names)
    own_slot2: bool
    slot2_holder: str
    owns: dict[str, str]  # condition -> the place it holds


class ScheduleData(TypedDict):
    ledger: list[str]
    holder: str
    triggers_on: str
    always: str
    rounds: dict[str, int | str]
    shared_slot: str | None
    first: str
    second: str
    from_second: str
    nations: list[ScheduledNation]


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
      Russians: {code: Ru, steps: russian, shared_second: true, places: {Russia: Russia}}
      Germans: {code: Ge, steps: german, places: {Libya: Libya, SZ5: {at: 5 Sea Zone}}}
"""

    holder: str = Field(description="The player holding the round conditions and the side's shared slot.")
    triggers_on: str = Field(
        description="The player every trigger is attached to (TripleA 1.9 copies game data reliably only when "
        "the triggers belong to the first player it reads)."
    )
    first_round: Count = Field(default=1, description="The round of the first slot (at the start of a turn).")
    second_round: Count = Field(default=2, description="From this round the second slot (start of a turn or Mobilize).")
    shared_slot: str = Field(default="Allies", description="Name of the second slot nations with shared_second share.")
    nations: dict[str, Nation] = Field(description="Each nation that declares advantages, by player.")

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

    def values(self, name: str, uses: Uses) -> ScheduleData:
        shared = any(n.shared_second for n in self.nations.values())
        nations: list[ScheduledNation] = []
        for player, nation in self.nations.items():
            n = self.names(player)
            owns = {self.owns(player, s): t for s, t in nation.places.items() if isinstance(t, str)}
            holder = self.holder if nation.shared_second else player
            nations.append(
                {"player": player, "n": n, "own_slot2": not nation.shared_second, "slot2_holder": holder, "owns": owns}
            )
        return {
            "ledger": self.ledger,
            "holder": self.holder,
            "triggers_on": self.triggers_on,
            "always": self.always(),
            "rounds": {
                self.round_condition(k): r for k, r in (("first", self.first_round), ("second", self.second_round))
            }
            | {self.round_condition("from_second"): f"{self.second_round}-+"},
            "shared_slot": f"conditionAttachment{self.shared_slot}Slot2Free" if shared else None,
            "first": self.round_condition("first"),
            "second": self.round_condition("second"),
            "from_second": self.round_condition("from_second"),
            "nations": nations,
        }
