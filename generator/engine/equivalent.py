"""Equivalent mutants of the shipped variants: edits no game can tell from the original, with why.

A survivor of the mutation sweep (generator/engine/sweep.py) whose edit matches a pattern here is
reported as equivalent, not as a proof that cannot fail. Each reason must be true of the engine:
an entry here is a claim that no game state, and so no proof, can tell the mutant apart.
"""

from __future__ import annotations

import re

from generator.catalog.scenarios import AARE_ADVANTAGES

__all__ = ["EQUIVALENT", "equivalent"]

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
    r"^players\.Germans\.attachments\.triggerAttachment\w+BuildsHeavy(Tank|Artillery)\.(players|uses): removed$": (
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
    r"^properties\.[^.]+\.editable: ": (
        "whether players may change a game option before the game changes nothing in a game played with "
        "its value: the rule is the value, which the proof checks"
    ),
    r"^territories\.50 Sea Zone\.blockadeZone: ": (
        "50 Sea Zone borders no land that yields income (only Caroline Islands, worth 0 in every variant, and "
        "no trigger changes it): engine 1.9 caps a convoy zone's loss at the value of the owner's land next to "
        "it, so the zone never costs anything; elsewhere the flag only draws the zone's marker on the map"
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
    r"^players\.(Russians|Japanese)\.attachments\.userActionAttachment(Ru|Jp)EndTreaty\.attemptsPerTurn: ": (
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
        r"(AxisHold(Everything|Russia)\.players: (removed|last of \d+ items dropped)"
        r"|AlliesHold(Everything|Germany|Japan)\.players: (last of \d+ items dropped|Americans -> British))$"
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


def equivalent(edit: str) -> str | None:
    """Why the mutant EDIT cannot change a game, when it cannot."""
    return next((why for pattern, why in EQUIVALENT.items() if re.search(pattern, edit)), None)
