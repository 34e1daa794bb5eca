"""National advantages declared during the game (AARe §2.3), each in a slot of the nation's
declaration schedule (patterns.schedule).

Each national advantage reads like the rules: who declares it, its title, and what it
does (techs, prices, a gain, a territory effect, units at once, at Mobilize or every Mobilize, a
choice of where to place them, a one-off action later).
"""

from __future__ import annotations

from typing import Any, ClassVar, TypedDict

from pydantic import Field

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
from generator.spec.patterns.schedule import AdvantageSchedule


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


class Button(TypedDict):
    """One place of a choice: its user action and the trigger that places the units."""

    trigger: str
    action: str
    text: str
    activations: list[list[Any]]
    placement: list[Any]
    convoy_zones: list[str]
    conditions: list[str]


class Group(TypedDict):
    """A choice (or the units placed at Mobilize): pending until Mobilize, then expired."""

    pending: str
    pend: str
    expire: str
    refill: str | None
    options: list[Button]


class Placed(TypedDict):
    placement: list[Any]
    owns: str  # the condition that the place is held


class Later(TypedDict):
    action: str
    text: str
    tech: str
    activations: list[list[Any]]


class AdvantageData(TypedDict):
    ledger: list[str]
    player: str
    triggers_on: str
    names: dict[str, str]
    n: dict[str, str]
    always: str
    declaration_ledger: list[str]
    declare: dict[str, Any]  # the declaring trigger's options
    activations: list[list[Any]]
    groups: list[Group]
    at_once: Placed | None
    mobilize: Placed | None
    mobilize_switch: str
    first_used: list[list[str]]
    later: Later | None
    texts: dict[str, str]


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

    def values(self, name: str, uses: Uses) -> AdvantageData:
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
        chosen: list[Group] = []
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
        later: Later | None = None
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
    ) -> list[Button]:  # fmt: skip
        """One button (a user action and its trigger, then `expire`) per place of a choice; their texts go
        to `texts`."""
        n = schedule.names(self.player)
        say = choice.say or units_in_words(choice.units)
        options: list[Button] = []
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

    def _placed(self, schedule: AdvantageSchedule, units: dict[str, Units], field: str) -> Placed | None:
        """{placement, owns} of the one place of `field`, or None."""
        for short, what in units.items():
            territory, _, needs = schedule.place(self.player, short, (field, short))
            if needs is None:
                raise PatternError(
                    f"'{short}' is a place nobody holds: units placed {field} need a held place", field, short
                )
            return {"placement": placement(territory, what), "owns": needs}
        return None
