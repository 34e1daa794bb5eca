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
    r"^properties\.[^.]+\.editable: ": (
        "whether players may change a game option before the game changes nothing in a game played with "
        "its value: the rule is the value, which the proof checks"
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
}


def equivalent(edit: str) -> str | None:
    """Why the mutant EDIT cannot change a game, when it cannot."""
    return next((why for pattern, why in EQUIVALENT.items() if re.search(pattern, edit)), None)
