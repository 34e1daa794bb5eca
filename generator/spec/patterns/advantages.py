"""National advantages declared during the game (AARe §2.3), each in a slot of the nation's
declaration schedule (patterns.schedule).

Each national advantage reads like the rules: who declares it, its title, and what it
does (techs, prices, a gain, a territory effect, units at once, at Mobilize or every Mobilize, a
choice of where to place them, a one-off action later).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import Field

from generator.spec.numbers import Count
from generator.spec.patterns.base import (
    ActionText,
    Consequence,
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
    switch,
    units_in_words,
)
from generator.spec.patterns.schedule import AdvantageSchedule


class Choice(Part):
    units: Units = Field(description="What is placed: [infantry, infantry] or {infantry: 2}.")
    say: Text | None = Field(
        default=None, description="The units in words, for the button (default: from their names)."
    )
    in_: list[Text] = Field(alias="in", description="The places to choose from (short names of the schedule's places).")
    every_turn: bool = Field(
        default=False, description="Chosen again at every Mobilize once declared (not only the first)."
    )
    makes_convoy_zones: bool = Field(
        default=False, description="The sea places held by the chosen place become convoy zones (a new complex)."
    )


class OneOff(Part):
    action: Text = Field(
        description="Its name after the nation's code: SevereWinter makes userActionAttachmentRuSevereWinter."
    )
    button: Text
    description: Text
    tech: Text = Field(description="The tech switched on at once, and off at the end of the nation's next turn.")


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

    player: Text = Field(description="The nation that declares it (one of the schedule's nations).")
    title: Text = Field(description="Its name in the rules: the button reads 'Declare <title>'.")
    techs: list[Text] = Field(default=[], description="Techs the nation gets when it declares it.")
    frontier: dict[Text, list[Text]] = Field(
        default={}, description="Production rules added to a frontier when declared ('-rule' removes one)."
    )
    gain: dict[Text, Count] = Field(default={}, description="A resource received once, when declared: {PUs: 5}.")
    territory_effect: dict[Text, list[Text]] = Field(
        default={}, description="A territory effect given to territories when declared: {effect: [territories]}."
    )
    after_first_purchase: dict[Text, list[Text]] = Field(
        default={}, description="Frontier changes after the purchase of the turn it is declared (a first-buy price)."
    )
    at_once: dict[Text, Units] = Field(default={}, description="Units placed at once in a place the nation holds.")
    at_mobilize: dict[Text, Units] = Field(
        default={}, description="Units placed in a held place after Mobilize, in the turn it is declared."
    )
    every_mobilize: dict[Text, Units] = Field(
        default={}, description="Units placed in a held place after every Mobilize once declared."
    )
    choose: Choice | None = Field(default=None, description="Units the nation places at Mobilize where it chooses.")
    choices: dict[Text, Choice] = Field(default={}, description="Several named choices (each its own buttons).")
    later: OneOff | None = Field(default=None, description="A one-off action, once declared, at a later Mobilize.")

    def make(self, name: str, uses: Uses) -> Made:
        schedule = self._schedule(uses)
        for field in ("gain", "territory_effect", "at_once"):
            if len(getattr(self, field)) > 1:
                raise PatternError("give one entry (a trigger holds one)", field)
        if self.at_mobilize and self.every_mobilize:
            raise PatternError("give at_mobilize or every_mobilize, not both", "every_mobilize")
        n, ledger, player = schedule.names(self.player), self.ledger, self.player
        c, t = f"conditionAttachment{name}", f"triggerAttachment{name}"
        active, mobilize = f"{c}Active", n["mobilize_actions"]
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
        # The nation's own: the switch that it is declared, and each group's buttons (a choice of place).
        own: dict[str, Any] = {
            active: {"ledger": ledger, "switch": False},
            f"{c}Available": {"ledger": ledger, "conditions": [active], "invert": True},
        }
        # The triggers: what declaring does, then each group's (pending until Mobilize, then expired).
        triggers: dict[str, Any] = {}
        pends = []
        for group, choice, where in groups:
            pending, expire = f"{c}{group}Pending", f"{t}{group}Expire"
            own[pending] = {"ledger": ledger, "switch": False}
            pends.append(activation(f"{t}{group}Pend"))
            triggers[f"{t}{group}Pend"] = {"ledger": ledger, **switch(player, pending, True), "uses": 0}
            triggers[expire] = {
                "ledger": ledger, "conditions": [schedule.always()], "when": ["after", mobilize],
                **switch(player, pending, False),
            }  # fmt: skip
            if choice and choice.every_turn:
                triggers[f"{t}{group}Refill"] = {
                    "ledger": ledger, "conditions": [active], "when": ["before", mobilize],
                    **switch(player, pending, True),
                }  # fmt: skip
            if choice:
                self._options(schedule, name, group, choice, where, texts, expire, own, triggers)
        declare = self._declare(c)
        at_once = self._placed(schedule, self.at_once, "at_once")
        placed = self._placed(
            schedule, self.at_mobilize or self.every_mobilize, "at_mobilize" if self.at_mobilize else "every_mobilize"
        )
        activations = [activation(f"{t}Declare"), activation(n["use_slot1"], True), activation(n["use_slot2"], True)]
        if at_once:
            activations.append(activation(f"{t}Now", True))
        own[f"userActionAttachment{name}"] = {
            "ledger": [*schedule.ledger, *ledger], "text": name, "conditions": [n["may_declare"], f"{c}Available"],
            "attemptsPerTurn": 1, "activateTrigger": activations + pends,
        }  # fmt: skip
        made = {f"{t}Declare": declare}
        if at_once:
            owns, places = at_once
            placing = {"ledger": ledger, "conditions": [owns], "players": [player], "placement": places, "uses": 0}
            made[f"{t}Now"] = placing
        made |= triggers
        if placed:
            owns, places = placed
            switched = f"{c}Pending" if self.at_mobilize else active
            made[f"{t}Mobilize"] = {
                "ledger": ledger, "conditions": [switched, owns], "when": ["after", mobilize], "players": [player],
                "placement": places,
            }  # fmt: skip
        first_used = [[f, rule] for f, rules in self.after_first_purchase.items() for rule in rules]
        if first_used:
            made[f"{t}FirstUsed"] = {
                "ledger": ledger, "conditions": [active], "when": ["after", n["purchase"]], "players": [player],
                "productionRule": first_used,
            }  # fmt: skip
        out = [attachments(player, own), attachments(schedule.triggers_on, made)]
        if self.later:
            out += self._later(schedule, name, texts)
        return [*out, {"map_files": {"actionstext": action_texts(texts)}}]

    def _schedule(self, uses: Uses) -> AdvantageSchedule:
        """The declaration schedule that has the nation."""
        given = uses.get(AdvantageSchedule.collection, {}).values()
        schedules = [s for s in given if isinstance(s, AdvantageSchedule)]
        schedule = next((s for s in schedules if self.player in s.nations), None)
        if schedule is None:
            unread = any(s is None for s in given)  # maybe the one with this player: said there
            raise (Consequence if unread else PatternError)(
                f"{self.player} is in no declaration schedule (advantage_schedules)", "player"
            )
        return schedule

    def _declare(self, c: str) -> dict[str, Any]:
        """The options of the trigger that declaring fires: the switch, then what the advantage does."""
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
        return declare

    def _options(
        self, schedule: AdvantageSchedule, name: str, group: str, choice: Choice, where: tuple[str, ...],
        texts: list[ActionText], expire: str, own: dict[str, Any], triggers: dict[str, Any],
    ) -> None:  # fmt: skip
        """One button per place of a choice: its user action (into `own`), the trigger that places the
        units (into `triggers`) and then fires `expire`; their texts go to `texts`."""
        n = schedule.names(self.player)
        say = choice.say or units_in_words(choice.units)
        for index, short in enumerate(choice.in_):
            territory, shown, needs = schedule.place(self.player, short, (*where, "in", index))
            key = f"{name}{group}In{short}"
            button = f"{self.title}: {say} in {shown}"
            texts.append(ActionText(key, button, f"Place {say} for {self.title} in {shown}."))
            conditions = [n["at_mobilize"], f"conditionAttachment{name}{group}Pending", *filter(None, [needs])]
            own[f"userActionAttachment{key}"] = {
                "ledger": self.ledger, "text": key, "conditions": conditions, "attemptsPerTurn": 1,
                "activateTrigger": [activation(f"triggerAttachment{key}"), activation(expire)],
            }  # fmt: skip
            placing: dict[str, Any] = {
                "ledger": self.ledger, "players": [self.player], "placement": placement(territory, choice.units),
                "uses": 0,
            }  # fmt: skip
            convoys = schedule.seas_of(self.player, short) if choice.makes_convoy_zones else []
            if convoys:  # the sea places it holds become convoy zones
                placing |= {
                    "territories": convoys,
                    "territoryAttachmentName": ["territoryAttachment", "TerritoryAttachment"],
                    "territoryProperty": [True, "blockadeZone"],
                }
            triggers[f"triggerAttachment{key}"] = placing

    def _placed(self, schedule: AdvantageSchedule, units: dict[str, Units], field: str) -> tuple[str, list[Any]] | None:
        """(the condition that the place is held, the placement) of the one place of `field`, or None."""
        for short, what in units.items():
            territory, _, needs = schedule.place(self.player, short, (field, short))
            if needs is None:
                raise PatternError(
                    f"'{short}' is a place nobody holds: units placed {field} need a held place", field, short
                )
            return needs, placement(territory, what)
        return None

    def _later(self, schedule: AdvantageSchedule, name: str, texts: list[ActionText]) -> Made:
        """A one-off action once declared: a tech on at a later Mobilize, off after the nation's next turn."""
        assert self.later is not None
        n, ledger, player = schedule.names(self.player), self.ledger, self.player
        c, t = f"conditionAttachment{name}", f"triggerAttachment{name}"
        key = f"{schedule.nations[player].code}{self.later.action}"
        texts.append(ActionText(key, self.later.button, self.later.description))
        tech, steps = ["techAttachment", "TechAttachment"], ("On", "Spent", "Start")
        own = {
            f"{c}Unused": {"ledger": ledger, "switch": True},
            f"{c}Running": {"ledger": ledger, "switch": False},
            f"{c}LastTurn": {"ledger": ledger, "switch": False},
            f"userActionAttachment{key}": {
                "ledger": ledger, "text": key, "conditions": [n["at_mobilize"], f"{c}Active", f"{c}Unused"],
                "attemptsPerTurn": 1, "activateTrigger": [activation(f"{t}{step}") for step in steps],
            },
        }  # fmt: skip
        triggers = {
            f"{t}On": {"ledger": ledger, "players": [player], "playerAttachmentName": tech,
                       "playerProperty": [True, self.later.tech], "uses": 0},
            f"{t}Spent": {"ledger": ledger, **switch(player, f"{c}Unused", False), "uses": 0},
            f"{t}Start": {"ledger": ledger, **switch(player, f"{c}Running", True), "uses": 0},
            f"{t}NextTurn": {"ledger": ledger, "conditions": [f"{c}Running"], "when": ["before", n["user_actions"]],
                             **switch(player, f"{c}LastTurn", True)},
            f"{t}Off": {"ledger": ledger, "conditions": [f"{c}LastTurn"], "when": ["after", n["end_turn"]],
                        "players": [player], "playerAttachmentName": tech, "playerProperty": [False, self.later.tech]},
        }  # fmt: skip
        return [attachments(player, own), attachments(schedule.triggers_on, triggers)]
