"""National advantages declared during the game (AARe §2.3): when they may be declared, and each one.

A declaration schedule (one use) says, per nation, the code its names start with, its steps, the
places its advantages name, and the two slots: one in the first round, one from the second (at
the start of a turn, or after placing at Mobilize), the second slot shared by a side where it says
so. Each national advantage then reads like the rules: who declares it, its title, and what it
does (techs, prices, a gain, a territory effect, units at once, at Mobilize or every Mobilize, a
choice of where to place them, a one-off action later).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from generator.diagnostics import did_you_mean
from generator.spec.numbers import Count
from generator.spec.patterns.base import (
    ActionText,
    Consequence,
    Part,
    Pattern,
    PatternError,
    Units,
    Uses,
    action_texts,
    activation,
    placement,
    switch,
    units_in_words,
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

    def values(self, name: str, uses: Uses) -> dict[str, Any]:
        shared = any(n.shared_second for n in self.nations.values())
        nations = []
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


class Choice(Part):
    units: Units = Field(description="What is placed: [infantry, infantry] or {infantry: 2}.")
    say: str | None = Field(default=None, description="The units in words, for the button (default: from their names).")
    in_: list[str] = Field(alias="in", description="The places to choose from (short names of the schedule's places).")
    every_turn: bool = Field(
        default=False, description="Chosen again at every Mobilize once declared (not only the first)."
    )
    makes_convoy_zones: bool = Field(
        default=False, description="The sea places held by the chosen place become convoy zones (a new complex)."
    )


class OneOff(Part):
    action: str = Field(
        description="Its name after the nation's code: SevereWinter makes userActionAttachmentRuSevereWinter."
    )
    button: str
    description: str
    tech: str = Field(description="The tech switched on at once, and off at the end of the nation's next turn.")


class NationalAdvantage(Pattern):
    """A national advantage a nation may declare (one of its slots): a user action and what it does."""

    collection: ClassVar[str] = "national_advantages"
    noun: ClassVar[str] = "national advantage"
    example: ClassVar[str] = """\
national_advantages:
  RuSiberian:
    player: Russians
    title: Siberian Conscripts
    ledger: [aare-na-ru-6]
    choose: {units: [infantry], in: [Yakut, SovietFarEast, Buryatia], every_turn: true}
  GeLuftwaffe:
    player: Germans
    title: Luftwaffe Dive-Bombers
    frontier: {productionGermans: [buyFighterLuftwaffe, -buyFighter, buyFighterRudel]}
    after_first_purchase: {productionGermans: [-buyFighterRudel]}
"""

    player: str = Field(description="The nation that declares it (one of the schedule's nations).")
    title: str = Field(description="Its name in the rules: the button reads 'Declare <title>'.")
    techs: list[str] = Field(default=[], description="Techs the nation gets when it declares it.")
    frontier: dict[str, list[str]] = Field(
        default={}, description="Production rules added to a frontier when declared ('-rule' removes one)."
    )
    gain: dict[str, Count] = Field(default={}, description="A resource received once, when declared: {PUs: 5}.")
    territory_effect: dict[str, list[str]] = Field(
        default={}, description="A territory effect given to territories when declared: {effect: [territories]}."
    )
    after_first_purchase: dict[str, list[str]] = Field(
        default={}, description="Frontier changes after the purchase of the turn it is declared (a first-buy price)."
    )
    at_once: dict[str, Units] = Field(default={}, description="Units placed at once in a place the nation holds.")
    at_mobilize: dict[str, Units] = Field(
        default={}, description="Units placed in a held place after Mobilize, in the turn it is declared."
    )
    every_mobilize: dict[str, Units] = Field(
        default={}, description="Units placed in a held place after every Mobilize once declared."
    )
    choose: Choice | None = Field(default=None, description="Units the nation places at Mobilize where it chooses.")
    choices: dict[str, Choice] = Field(default={}, description="Several named choices (each its own buttons).")
    later: OneOff | None = Field(default=None, description="A one-off action, once declared, at a later Mobilize.")

    def values(self, name: str, uses: Uses) -> dict[str, Any]:
        given = uses.get(AdvantageSchedule.collection, {}).values()
        schedules = [s for s in given if isinstance(s, AdvantageSchedule)]
        schedule = next((s for s in schedules if self.player in s.nations), None)
        if schedule is None:
            unread = any(s is None for s in given)  # maybe the one with this player: said there
            raise (Consequence if unread else PatternError)(
                f"{self.player} is in no declaration schedule (advantage_schedules)", "player"
            )
        for field in ("gain", "territory_effect", "at_once"):
            if len(getattr(self, field)) > 1:
                raise PatternError("give one entry (a trigger holds one)", field)
        if self.at_mobilize and self.every_mobilize:
            raise PatternError("give at_mobilize or every_mobilize, not both", "every_mobilize")
        n = schedule.names(self.player)
        c, t = f"conditionAttachment{name}", f"triggerAttachment{name}"
        groups: list[tuple[str, Choice | None, tuple[str, ...]]] = (
            [("", self.choose, ("choose",))] if self.choose else []
        )
        groups += [(g, choice, ("choices", g)) for g, choice in self.choices.items()]
        if self.at_mobilize and not any(g == "" for g, _, _ in groups):
            groups.append(("", None, ()))
        texts = [
            ActionText(
                name, f"Declare {self.title}", f"Declare the national advantage {self.title} (see the game notes)."
            )
        ]
        chosen = []
        for group, choice, where in groups:
            expire = f"{t}{group}Expire"
            options = self._options(schedule, name, group, choice, where, texts, expire) if choice else []
            chosen.append({
                "pending": f"{c}{group}Pending", "pend": f"{t}{group}Pend", "expire": expire,
                "refill": f"{t}{group}Refill" if choice and choice.every_turn else None, "options": options,
            })  # fmt: skip
        at_once = self._placed(schedule, self.at_once, "at_once")
        mobilize = self._placed(
            schedule, self.at_mobilize or self.every_mobilize, "at_mobilize" if self.at_mobilize else "every_mobilize"
        )
        declare: dict[str, Any] = {"ledger": self.ledger, **switch(self.player, f"{c}Active", True)}
        if self.techs:
            declare["tech"] = self.techs
        if self.frontier:
            declare["productionRule"] = [[f, rule] for f, rules in self.frontier.items() for rule in rules]
        for resource, amount in self.gain.items():
            declare |= {"resource": resource, "resourceCount": amount}
        for effect, territories in self.territory_effect.items():
            declare |= {
                "territories": territories,
                "territoryAttachmentName": ["territoryAttachment", "TerritoryAttachment"],
                "territoryProperty": [effect, "territoryEffect"],
            }
        declare["uses"] = 0
        activations = [activation(f"{t}Declare"), activation(n["use_slot1"], True), activation(n["use_slot2"], True)]
        if at_once:
            activations.append(activation(f"{t}Now", True))
        activations += [activation(str(g["pend"])) for g in chosen]
        later = None
        if self.later:
            key = f"{schedule.nations[self.player].code}{self.later.action}"
            texts.append(ActionText(key, self.later.button, self.later.description))
            later = {
                "action": f"userActionAttachment{key}", "text": key, "tech": self.later.tech,
                "activations": [activation(f"{t}{step}") for step in ("On", "Spent", "Start")],
            }  # fmt: skip
        names = {
            "active": f"{c}Active", "available": f"{c}Available", "unused": f"{c}Unused", "running": f"{c}Running",
            "last_turn": f"{c}LastTurn", "declare": f"{t}Declare", "now": f"{t}Now", "mobilize": f"{t}Mobilize",
            "first_used": f"{t}FirstUsed", "on": f"{t}On", "spent": f"{t}Spent", "start": f"{t}Start",
            "next_turn": f"{t}NextTurn", "off": f"{t}Off", "action": f"userActionAttachment{name}", "text": name,
        }  # fmt: skip
        return {
            "ledger": self.ledger, "player": self.player, "triggers_on": schedule.triggers_on, "names": names,
            "n": n, "always": schedule.always(), "declaration_ledger": [*schedule.ledger, *self.ledger],
            "declare": declare, "activations": activations, "groups": chosen, "at_once": at_once,
            "mobilize": mobilize, "mobilize_switch": f"{c}Pending" if self.at_mobilize else f"{c}Active",
            "first_used": [[f, rule] for f, rules in self.after_first_purchase.items() for rule in rules],
            "later": later, "texts": action_texts(texts),
        }  # fmt: skip

    def _options(
        self, schedule: AdvantageSchedule, name: str, group: str, choice: Choice, where: tuple[str, ...],
        texts: list[ActionText], expire: str,
    ) -> list[dict[str, Any]]:  # fmt: skip
        """One button (a user action and its trigger, then `expire`) per place of a choice; their texts go
        to `texts`."""
        n = schedule.names(self.player)
        say = choice.say or units_in_words(choice.units)
        options = []
        for index, short in enumerate(choice.in_):
            territory, shown, needs = schedule.place(self.player, short, (*where, "in", index))
            key = f"{name}{group}In{short}"
            button = f"{self.title}: {say} in {shown}"
            texts.append(ActionText(key, button, f"Place {say} for {self.title} in {shown}."))
            convoys = schedule.seas_of(self.player, short) if choice.makes_convoy_zones else []
            options.append({
                "trigger": f"triggerAttachment{key}", "action": f"userActionAttachment{key}", "text": key,
                "activations": [activation(f"triggerAttachment{key}"), activation(expire)],
                "placement": placement(territory, choice.units), "convoy_zones": convoys,
                "conditions": [n["at_mobilize"], f"conditionAttachment{name}{group}Pending", *filter(None, [needs])],
            })  # fmt: skip
        return options

    def _placed(self, schedule: AdvantageSchedule, units: dict[str, Units], field: str) -> dict[str, Any] | None:
        """{placement, owns} of the one place of `field`, or None."""
        for short, what in units.items():
            territory, _, needs = schedule.place(self.player, short, (field, short))
            if needs is None:
                raise PatternError(
                    f"'{short}' is a place nobody holds: units placed {field} need a held place", field, short
                )
            return {"placement": placement(territory, what), "owns": needs}
        return None


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

    def values(self, name: str, uses: Uses) -> dict[str, Any]:
        tech = f"Na{name}"
        return {
            "ledger": self.ledger, "tech": tech, "bonus": {**self.bonus, "ledger": self.ledger},
            "trigger": f"triggerAttachment{tech}", "triggers_on": self.triggers_on, "player": self.player,
            "conditions": self.conditions, "when": f"before:{self.given_before}",
        }  # fmt: skip
