"""Equivalent mutants of the shipped variants: edits no game can tell from the original, with why.

A survivor of the mutation sweep (generator/engine/sweep.py) whose edit matches a pattern here is
reported as equivalent, not as a proof that cannot fail. Each reason must be true of the engine:
an entry here is a claim that no game state, and so no proof, can tell the mutant apart. Where
it holds only in some games (a trigger fired twice changes nothing when it only sets
properties), the entry names its premise (generator/engine/premises.py), read on the variant's
tree at the edited element: a survivor whose element does not meet it stays a survivor.
"""

from __future__ import annotations

import re
from typing import Any

from generator.catalog.scenarios import AARE_ADVANTAGES
from generator.engine.premises import (
    Premise,
    and_or_chain,
    fired,
    has_uses,
    never_fires_alone,
    no_income_beside,
    only_sets,
    sets_only,
    spends_no_use,
    sure,
)
from generator.spec.claims import TreePath

__all__ = ["EQUIVALENT", "GENERAL", "equivalent"]

_DECLARATIONS = "|".join(AARE_ADVANTAGES)
_BUILD_UNITS = r"(patriotInfantry|t34Armour|spitfire|essexCarrier|typeVIISubmarine|regia\w+)"
_PLACEMENT_LIST = r"(unitPlacementRestrictions|unitPlacementOnlyAllowedIn)"
EQUIVALENT: dict[str, str] = {
    rf"^units\.{_BUILD_UNITS}\.(attack|defense|movement|hitPoints|isSub|canAirBattle|airAttack|airDefense): ": (
        "a national build's unit becomes an ordinary unit at the end of the placement that puts it on "
        "the board: it never moves or fights as itself"
    ),
    r"^players\.\w+\.attachments\.conditionAttachmentBuilt\w+\.players: widened by ": (
        "the condition counts the build's units in its place; only the builder can buy them"
    ),
    r"^players\.Germans\.attachments\.triggerAttachment\w+BuildsHeavy(Tank|Artillery)\."
    r"(players: removed|uses: (removed|1 -> 2))$": (
        "a trigger with a `when` fires at its step whoever its players are, and its productionRule names the "
        "nation's frontiers itself; fired again, it adds a rule the frontier already holds, which the engine skips"
    ),
    rf"^units\.(factory\d*|ssPanzer)\.{_PLACEMENT_LIST}: widened by \d+ Sea Zone$": (
        "these are land units, and the engine places no land unit in a sea zone (AbstractPlaceDelegate "
        "drops land units from what may be placed at sea before it reads their placement lists)"
    ),
    r"^players\.Germans\.attachments\.triggerAttachmentConvertEssexSZ5[45]\.when: removed$": (
        "without `when` the trigger (attached to Germany) fires at the start of the German combat move "
        "(MoveDelegate.start), the first step after the American placement at which an enemy could meet "
        "the Essex; until then only the American end of turn and the Soviet turn pass, where an Essex is "
        "moved or fought by no one: it is a carrier before it can ever move or fight"
    ),
    r"^units\.submarine\.attachments\.supportAttachmentDestroyerHunts\.bonusType: removed$": (
        "a support's bonusType only groups supports so that one of a group applies (DiceRoll.getSupport); the "
        "destroyers' hunt is the only support an enemy gives in this game, so it is alone in its group with "
        "or without a type"
    ),
    r"^units\.submarine\.attachments\.supportAttachmentDestroyerHunts\.unitType: widened by aaGun$": (
        "the support reaches units in a battle with an enemy submarine, a sea battle, where an AA gun never "
        "fights (at sea it is only cargo, which takes no part in the battle)"
    ),
    r"^properties\.[^.]+\.(editable|min|max): ": (
        "whether players may change a game option before the game, and within which bounds, changes nothing "
        "in a game played with its value: the rule is the value, which the proof checks"
    ),
    r"^players\.\w+\.attachments\.triggerAttachmentNa\w+\.(uses|when): ": (
        "the national attack's hidden tech is held from the nation's first turn on: giving it again, "
        "or at another step before that turn, changes nothing"
    ),
    r"^players\.\w+\.attachments\.conditionAttachment(Always|\w+Slot[12]Free|RuWinterUnused)\.switch: removed$": (
        "these conditions start switched on, and on is the engine's default for a condition's switch: "
        "without the option they start the same"
    ),
    r"^players\.Germans\.attachments\.triggerAttachment\w+Declare\.uses: (removed|0 -> 1)$": (
        "an advantage's declaring trigger has no conditions, and the engine fires a trigger at its step or "
        "default time only when its conditions are met (an empty list never is): it fires only when the "
        "declaration's user action activates it, which neither tests nor spends its uses"
    ),
    r"^players\.Germans\.attachments\.triggerAttachment\w+FirstUsed\.players: ": (
        "the trigger only edits the production frontier its productionRule names, which the engine does "
        "without reading the trigger's players; its `when` fires the triggers of every player alike"
    ),
    rf"^players\.\w+\.attachments\.userActionAttachment({_DECLARATIONS})\.attemptsPerTurn: 1 -> 2$": (
        "declaring switches the advantage's Active condition on, which nothing switches off, and the "
        "declaration is offered only while it is off: a second attempt is never offered"
    ),
    r"^players\.Germans\.attachments\.triggerAttachmentRuWinterNextTurn\.when: removed$": (
        "without `when` the severe winter's last turn is marked at the German combat move, which always "
        "comes between the call (at the Russian Mobilize) and the next Russian turn; the mark is read only "
        "after the Russian end turn, by then set either way"
    ),
    r"^players\.(Russians|Japanese)\.attachments\.userActionAttachment(Ru|Jp)(End|Break)Treaty\."
    r"attemptsPerTurn: 1 -> 2$": (
        "ending the treaty is offered only while the treaty holds, and it cannot fail (no chance, cost or "
        "acceptance): the first attempt sets War, which nothing sets back, so no second attempt is ever offered"
    ),
    r"^players\.Germans\.attachments\.triggerAttachmentTreaty(Ends|JapanReinforced|RussiaReinforced)\.uses: ": (
        "these triggers have no conditions, so the engine never fires them on its own (an empty AND of "
        "conditions is false in AbstractConditionsAttachment.areConditionsMet); the user actions fire them "
        "with useUses and testUses false, so their uses are neither tested nor spent"
    ),
    (
        r"^players\.Germans\.attachments\.conditionAttachment"
        r"(AxisHold(Everything|Russia)\.players: (removed|(last of \d+ items|item \d+ of \d+) dropped)"
        r"|AlliesHold(Everything|Germany|Japan)\.players"
        r"(: (last of \d+ items|item \d+ of \d+) dropped|\[\d+\]: Americans -> British))$"
    ): (
        "alliedOwnershipTerritories counts a territory held by any player allied with any listed player "
        "(RulesAttachment.checkAlliedOwnership), and each side's powers stay allied with one another all game "
        "(the Axis' CoBelligerent and Allied are both of the allied archetype): any of a side's powers, or "
        "Germany that an empty list stands for, names the whole side"
    ),
    r"^players\.Germans\.attachments\.triggerAttachmentEnd(Xenophobia|AxisDistrust)\.uses: (removed|1 -> 2)$": (
        "fired again, the trigger sets what it set the first time (the Western Allies' movement restriction "
        "to the impassable Himalaya; the Axis' relationships to Allied), which nothing in the game sets back"
    ),
}


EQUIVALENT.update(
    {
        r"^players\.\w+\.attachments\.userActionAttachment\w+In[A-Z0-9]\w*\.attemptsPerTurn: 1 -> 2$": (
            "each placement of an advantage also fires the advantage's Expire trigger, which switches its Pending "
            "off, and every placement action of the advantage needs Pending: none is offered again that turn"
        ),
        r"^players\.Russians\.attachments\.userActionAttachmentRuSevereWinter\.attemptsPerTurn: 1 -> 2$": (
            "calling the winter fires the trigger that switches its Unused off, which the call needs: it is not "
            "offered again"
        ),
        r"^players\.\w+\.attachments\.userActionAttachmentScorch\w+\.attemptsPerTurn: 1 -> 2$": (
            "scorching removes the complex whose presence the action needs: it is not offered again that turn"
        ),
        r"^players\.Germans\.attachments\.triggerAttachment\w+Expire\.uses: added: 1$": (
            "an advantage's Expire switches its Pending off after its Mobilize; Pending is switched on again only by "
            "the declaration (once) or, for an advantage of every turn, by its Refill before each Mobilize, and each "
            "placement fires Expire itself (neither testing nor spending its uses): a second firing of its own "
            "changes no Mobilize"
        ),
        r"^players\.Germans\.attachments\.triggerAttachment\w+Expire\.conditions\[0\]: conditionAttachmentAlways -> "
        r"conditionAttachment\w+Active$": (
            "an advantage's Pending, which Expire switches off, is switched on only once the advantage is declared "
            "(by the declaration, or its Refill, which asks for Active): Active, which nothing switches off, is on "
            "whenever Pending is, so an Expire asking for it switches off every Pending that is on"
        ),
        r"^players\.Germans\.attachments\.triggerAttachmentGeAfrikaKorpsMobilize\.uses: added: 1$": (
            "the placement at the first Mobilize after the declaration asks for the advantage's Pending, which its "
            "Expire switches off after that Mobilize and nothing switches on again: it fires once at most"
        ),
        r"^players\.Germans\.attachments\.triggerAttachmentRuWinter(NextTurn|Off)\.uses: added: 1$": (
            "the winter is called once a game (the call switches its Unused off, and nothing on again): the "
            "triggers that mark its last turn and end it fire once"
        ),
        r"^players\.Germans\.attachments\.triggerAttachment\w+FirstUsed\.uses: added: 1$": (
            "the trigger takes the first-purchase rule out of the frontier after the first purchase it sees; fired "
            "again it would take out a rule no longer there"
        ),
        r"^players\.Germans\.attachments\.triggerAttachmentTreatyVoidCapital\."
        r"(uses: added: 1|conditions: item 1 of 2 dropped)$": (
            "the relationship change names the relationship it changes from (NonAggression to War): once the treaty "
            "is over it changes nothing, so a second firing, and the trigger's own test of the treaty, change nothing"
        ),
        r"^players\.Germans\.attachments\.triggerAttachment(Axis|Allies)TotalVictory\."
        r"(uses: added: 1|players: item \d+ of \d+ written twice)$": (
            "a victory ends the game the first time the trigger fires, for every player it names"
        ),
        r"^players\.(British|Americans)\.attachments\.rulesAttachment\."
        r"(movementRestrictionTerritories\[0\]: \d+ -> -?\d+|invert: added: True)$": (
            "a player's rulesAttachment holding a movement restriction is no condition (no chain names it): its "
            "invert, and the count its territory list starts with (a condition's territoryCount), are never read"
        ),
        r"^sequence\.endRoundStep\.after: american(Turn)?TechActivation -> american(Turn)?Tech$": (
            "the end of the round checks who holds the victory cities (EndRoundDelegate); the American technology "
            "activation that then comes after it, still in the same round, changes no territory's owner"
        ),
        r"^units\.spitfire\.unitPlacementOnlyAllowedIn: widened by \d+ Sea Zone$": (
            "in AARHE only naval fighters land on carriers (aarhe-p3-04): a Spitfire, like any fighter, is never "
            "placed at sea, even beside a complex with a new carrier (the engine refuses it), so a sea zone in "
            "its place list is never used"
        ),
        r"^players\.Germans\.attachments\.triggerAttachmentDisembark\.players: item \d+ of \d+ written twice$": (
            "the trigger removes every listed land unit (up to 99) of each player it names from every sea zone: "
            "a player named twice has nothing left to remove the second time"
        ),
        r"^players\.Germans\.attachments\.triggerAttachment(Second)?CargoTo\w+Unloaded\.conditions\[0\]: "
        r"conditionAttachment(Two)?CargoInSZ\d+ -> conditionAttachmentAlways$": (
            "an unloading trigger takes one of the donor's cargoes off the zone it names, and asks for the cargo to "
            "be there: fired with none there, it takes nothing; both unloadings of a zone fire together (their "
            "conditions tested before either fires), so with one cargo there the two take it once"
        ),
        r"^units\.\w+\.attachments\.supportAttachment\w+\.players: item \d+ of \d+ written twice$": (
            "a support names the players whose units it supports, each asked for by membership "
            "(UnitSupportAttachment's players): a player named twice is one"
        ),
        r"^players\.Germans\.attachments\.conditionAttachmentRound1\.rounds: removed$": (
            "every trigger asking for round 1 has one use and a `when` at a step of round 1 (the free units "
            "of the first round): it spends its use there, and never fires again whatever the round"
        ),
        r"^players\.\w+\.attachments\.playerAttachment\.retainCapitalProduceNumber: 0 -> -1$": (
            "the engine stops a player's production while it holds fewer capitals than this number: 0 and -1 are "
            "both below any count of capitals held"
        ),
    }
)
# A condition on techs tests the player it is attached to (RulesAttachment.checkTechs reads
# getAttachedTo), never its players.
EQUIVALENT[r"^players\.\w+\.attachments\.conditionAttachment\w+Has\w+\.players: "] = (
    "a condition on techs tests the techs of the player it is attached to (RulesAttachment.checkTechs), "
    "never those of its players"
)


# Equivalences of any game meeting their premise: edits of the engine's own reading of lists and
# activations, not of one variant's rules. (pattern, why, premise read at the edited element)
GENERAL: dict[str, tuple[str, Premise]] = {
    r"^territories\.\d+ Sea Zone\.blockadeZone: ": (
        "the zone borders no land that yields income (and no trigger changes a territory's): engine 1.9 caps a "
        "convoy zone's loss at the value of the victim's land next to it, so the zone never costs anything; "
        "elsewhere the flag only draws the zone's marker on the map",
        no_income_beside,
    ),
    r"\.conditions: item \d+ of \d+ written twice$": (
        "a chain of conditions is met when all of them are (or, with conditionType OR, any): a condition "
        "named twice answers alike both times (AbstractConditionsAttachment.areConditionsMet)",
        and_or_chain,
    ),
    r"\.activateTrigger\[\d+\]\[2\]: False -> True$": (
        "an action that spends a use of the trigger it fires spends one only of a trigger with uses left "
        "and no `when` (AbstractTriggerAttachment.use); the trigger it fires has neither",
        fired(spends_no_use),
    ),
    r"\.activateTrigger\[\d+\]\[3\]: False -> True$": (
        "an action that tests the uses of the trigger it fires stops only at a trigger with no use left "
        "(uses 0); the trigger it fires has uses",
        fired(has_uses),
    ),
    r"\.activateTrigger\[\d+\]\[5\]: False -> True$": (
        "an action that tests the chance of the trigger it fires rolls only for a trigger with a chance "
        "below 1 in 1 (AbstractTriggerAttachment.testChance); the trigger it fires has none",
        fired(sure),
    ),
    r"\.activateTrigger\[\d+\]\[1\]: 1 -> 2$": (
        "the trigger the action fires only sets properties: fired twice, it sets the same values again",
        fired(only_sets),
    ),
    r"^players\.\w+\.attachments\.triggerAttachment\w+\.(players|unitType|territories|tech|productionRule): "
    r"item \d+ of \d+ written twice$": (
        "the trigger only sets properties (grants techs, edits frontiers), once for each player, unit type, "
        "territory, tech or rule it names: one named twice has the same values set twice",
        sets_only,
    ),
    r"^players\.\w+\.attachments\.triggerAttachment\w+\.uses: (removed|-?\d+ -> -?\d+|added: 1)$": (
        "the trigger has no conditions, so the engine never fires it on its own (an empty AND of conditions "
        "is false in areConditionsMet), and the actions that fire it neither test nor spend its uses",
        never_fires_alone,
    ),
}
# A trigger fires at a step when any of its `when`s names it (whenOrDefaultMatch): once.
EQUIVALENT[r"^players\.\w+\.attachments\.triggerAttachment\w+\.when: item \d+ of \d+ written twice$"] = (
    "the engine fires a trigger at a step when any of its `when`s names that step: a `when` written twice "
    "fires it once (AbstractTriggerAttachment.whenOrDefaultMatch)"
)
# Lists the engine reads into sets: a condition's territories (AbstractRulesAttachment
# .getListedTerritories: a HashSet, and without a count written first it needs as many as the set
# holds) and players (each test asks for a unit or territory of any of them).
_SETS = r"((direct|allied)(Ownership|Presence)Territories|players)"
_CONDITION = r"^players\.\w+\.attachments\.(condition|objective|rules)Attachment\w*"
EQUIVALENT[rf"{_CONDITION}\.{_SETS}: item \d+ of \d+ written twice$"] = (
    "a condition reads its territories and players into sets (AbstractRulesAttachment.getListedTerritories, "
    "Matches...OfAnyOfThesePlayers): a name written twice is one"
)


def equivalent(edit: str, where: tuple[Any, TreePath, str] | None = None) -> str | None:
    """Why the mutant EDIT cannot change a game, when it cannot; WHERE (the variant's tree, the
    edited element's path and option) is where a premise is read (without it, none holds)."""
    found = next((why for pattern, why in EQUIVALENT.items() if re.search(pattern, edit)), None)
    if found is not None or where is None:
        return found
    for pattern, (why, premise) in GENERAL.items():
        if re.search(pattern, edit) and premise(*where, edit):
            return why
    return None
