"""1.9's `isSub`, read back from the options TripleA 2.x split it into.

TripleA 2.x split the submarine flag into options of their own (triplea-game/triplea#4831, in every
2.x release) and refuses `isSub` beside `canNotTarget` ("Can't use canNotTarget with isSub/isSuicide,
replace isSub with individual sub properties..."), so a 2.x game whose submarines restrict their
targets spells them out. 2.x's UnitAttachment still reads `isSub` as exactly these options:
canEvade and isFirstStrike; canMoveThroughEnemies when the game's "Submersible Subs" is on and
canBeMovedThroughByEnemies when "Ignore Sub In Movement" is on; never targeting aircraft; not
targeted by aircraft when "Air Attack Sub Restricted" is on.

Engine 1.9 knows only `isSub`. The 1.9 reading of a 2.x game (generator/engine/proof.py) drops
every option 1.9 does not know; without this fold a submarine written with the split options would
lose every submarine ability there, and the 1.9 reading would be another game. A unit whose options
give it all that `isSub` gives in this game, and take nothing that `isSub` keeps, is read as `isSub`;
what it has beyond that (more types it cannot target, immunity to aircraft while "Air Attack Sub
Restricted" is off) is 2.x-only and dropped as any other 2.x-only option.
"""

from __future__ import annotations

from lxml import etree

__all__ = ["SUB_OPTIONS", "fold_sub_options"]

# The options 2.x reads `isSub` as (see the module docstring).
SUB_OPTIONS = (
    "canEvade",
    "isFirstStrike",
    "canMoveThroughEnemies",
    "canBeMovedThroughByEnemies",
    "canNotTarget",
    "canNotBeTargetedBy",
)
# Options `isSub` turns on only when a game property is on, and that property.
_BY_PROPERTY = {"canMoveThroughEnemies": "Submersible Subs", "canBeMovedThroughByEnemies": "Ignore Sub In Movement"}
_AIR_RESTRICTED = "Air Attack Sub Restricted"
_UNIT_ATTACHMENT = "UnitAttachment"


def fold_sub_options(root: etree._Element) -> None:
    """Add `isSub` to every unit attachment whose 2.x options amount to it (see the module docstring)."""
    properties = {p.get("name") or "": p.get("value") == "true" for p in root.iter("property")}
    units = [a for a in root.iter("attachment") if (a.get("javaClass") or "").rsplit(".", 1)[-1] == _UNIT_ATTACHMENT]
    air = {a.get("attachTo") or "" for a in units if _flag(_options(a), "isAir")}
    for attachment in units:
        options = _options(attachment)
        if "isSub" not in options and _amounts_to_sub(options, properties, air):
            first = next(o for o in attachment.findall("option") if o.get("name") in SUB_OPTIONS)
            first.addprevious(etree.Element("option", name="isSub", value="true"))


def _options(attachment: etree._Element) -> dict[str, list[str]]:
    """Option name -> its values, in order (list options may be given more than once)."""
    found: dict[str, list[str]] = {}
    for option in attachment.findall("option"):
        found.setdefault(option.get("name") or "", []).append(option.get("value") or "")
    return found


def _flag(options: dict[str, list[str]], name: str) -> bool:
    return options.get(name, ["false"])[-1] == "true"


def _units(options: dict[str, list[str]], name: str) -> set[str]:
    return {unit for value in options.get(name, []) for unit in value.split(":") if unit}


def _amounts_to_sub(options: dict[str, list[str]], properties: dict[str, bool], air: set[str]) -> bool:
    if not (_flag(options, "canEvade") and _flag(options, "isFirstStrike")):
        return False
    if any(_flag(options, name) != properties.get(prop, False) for name, prop in _BY_PROPERTY.items()):
        return False
    if not air <= _units(options, "canNotTarget"):
        return False  # `isSub` never fires at aircraft
    return not properties.get(_AIR_RESTRICTED, False) or air <= _units(options, "canNotBeTargetedBy")
