"""Equivalent mutants of the shipped variants: edits no game can tell from the original, with why.

A survivor of the mutation sweep (generator/engine/sweep.py) whose edit matches a pattern here is
reported as equivalent, not as a proof that cannot fail. Each reason must be true of the engine:
an entry here is a claim that no game state, and so no proof, can tell the mutant apart.
"""

from __future__ import annotations

import re

__all__ = ["EQUIVALENT", "equivalent"]

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
    r"^units\.submarine\.attachments\.supportAttachmentDestroyerHunts\.unitType: widened by aaGun$": (
        "the support reaches units in a battle with an enemy submarine, a sea battle, where an AA gun never "
        "fights (at sea it is only cargo, which takes no part in the battle)"
    ),
    r"^properties\.[^.]+\.editable: ": (
        "whether players may change a game option before the game changes nothing in a game played with "
        "its value: the rule is the value, which the proof checks"
    ),
    r"^players\.\w+\.attachments\.triggerAttachmentNa\w+\.(uses|when): ": (
        "the national attack's hidden tech is held from the nation's first turn on: giving it again, "
        "or at another step before that turn, changes nothing"
    ),
}


def equivalent(edit: str) -> str | None:
    """Why the mutant EDIT cannot change a game, when it cannot."""
    return next((why for pattern, why in EQUIVALENT.items() if re.search(pattern, edit)), None)
