"""What must be true of a game for an edit to change nothing in it: the premises of equivalences.

An equivalence of generator/engine/equivalent.py (the tool's: those of a variant's own rules, in
its proofs folder, need none) that holds of an edit only in some games names a premise here, read
on the expanded spec tree at the edited element (its path and option): a trigger that only sets
properties does the same when fired twice, a trigger an action fires with no uses to spend spends
none. The engine behaviour each relies on is said where it is used.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from generator.spec.claims import TreePath, elements

__all__ = [
    "Premise", "and_or_chain", "fired", "has_uses", "never_fires_alone", "no_income_beside", "only_sets", "sets_only",
    "spends_no_use", "sure",
]  # fmt: skip

# (tree, element path, option, the edit in words) -> whether the premise holds there.
Premise = Callable[[Any, TreePath, str, str], bool]
# A trigger's options that set properties (a switch, a relationship, a territory's or a unit's
# option), grant a tech or change a frontier, and those that only say when and for whom it fires:
# firing it twice sets the same values (the engine grants a tech a player has, or adds a rule a
# frontier holds, never again: TriggerAttachment.triggerTechChange, triggerProductionFrontierEditChange).
_SETTING = {
    "ledger", "ledger_options", "conditions", "conditionType", "invert", "players", "when", "uses", "notification",
    "playerAttachmentName", "playerProperty", "territories", "territoryAttachmentName", "territoryProperty",
    "unitType", "unitAttachmentName", "unitProperty", "relationshipTypes", "relationshipTypeAttachmentName",
    "relationshipTypeProperty", "relationshipChange", "territoryEffects", "territoryEffectAttachmentName",
    "territoryEffectProperty", "tech", "productionRule", "frontier",
}  # fmt: skip
_FIRED = re.compile(r"\[(\d+)\]\[\d+\]: ")


def _element(tree: Any, path: TreePath) -> dict[str, Any]:
    for key in path:
        tree = tree[key] if isinstance(tree, dict) and key in tree else {}
    return tree if isinstance(tree, dict) else {}


def _attachments(tree: Any, name: str) -> Iterator[dict[str, Any]]:
    """Every attachment called NAME (a condition or trigger named in an option is looked up by name)."""
    for path, kind, element in elements(tree):
        if len(kind) == 3 and path[-1] == name:
            yield element


def only_sets(trigger: dict[str, Any]) -> bool:
    """The trigger only sets properties, for each player it names (TriggerAttachment's property
    changes): named twice, or fired twice, it sets the same values again."""
    return set(trigger) <= _SETTING


def sets_only(tree: Any, path: TreePath, option: str, edit: str) -> bool:
    """The edited trigger only sets properties (`only_sets`)."""
    return only_sets(_element(tree, path))


def and_or_chain(tree: Any, path: TreePath, option: str, edit: str) -> bool:
    """The edited element's conditions are met when all (or any) are: not a count of them
    (AbstractConditionsAttachment.areConditionsMet reads AND and OR; a number counts)."""
    return str(_element(tree, path).get("conditionType", "AND")).upper() in ("AND", "OR")


def fired(premise: Callable[[dict[str, Any]], bool]) -> Premise:
    """PREMISE holds of every trigger called as the one the edited activation fires."""

    def holds(tree: Any, path: TreePath, option: str, edit: str) -> bool:
        found = _FIRED.search(edit)
        activations = _element(tree, path).get(option)
        if found is None or not isinstance(activations, list) or int(found[1]) >= len(activations):
            return False
        activation = activations[int(found[1])]
        name = activation[0] if isinstance(activation, list) else str(activation).split(":")[0]
        triggers = list(_attachments(tree, str(name)))
        return bool(triggers) and all(premise(t) for t in triggers)

    return holds


def spends_no_use(trigger: dict[str, Any]) -> bool:
    """Firing the trigger spends no use: it has none to spend, or it fires at its `when`, whose
    uses the engine counts otherwise (AbstractTriggerAttachment.use: uses above 0 and no `when`)."""
    uses = trigger.get("uses", -1)
    return not isinstance(uses, int) or uses <= 0 or bool(trigger.get("when"))


def sure(trigger: dict[str, Any]) -> bool:
    """The trigger has no chance of failing: no `chance` (1:1, tested without a roll)."""
    return "chance" not in trigger


def has_uses(trigger: dict[str, Any]) -> bool:
    """The trigger's uses are not 0 (an activation testing them fires it all the same)."""
    return bool(trigger.get("uses", -1) != 0)


def never_fires_alone(tree: Any, path: TreePath, option: str, edit: str) -> bool:
    """The edited trigger has no conditions, so the engine never fires it on its own (an empty AND
    of conditions is false in areConditionsMet), and every action that fires it neither tests nor
    spends its uses: its uses change nothing."""
    trigger = _element(tree, path)
    if trigger.get("conditions"):
        return False
    name = path[-1]
    for _, _, element in elements(tree):
        for activation in element.get("activateTrigger") or []:
            fields = activation if isinstance(activation, list) else str(activation).split(":")
            if fields and fields[0] == name and any(str(f).lower() == "true" for f in fields[2:4]):
                return False
    return True


def no_income_beside(tree: Any, path: TreePath, option: str, edit: str) -> bool:
    """The edited sea zone borders no land that yields income, and no trigger changes a territory's
    production: engine 1.9 caps a convoy zone's loss at the value of the victim's land beside it."""
    territories = tree.get("territories") if isinstance(tree, dict) else None
    if not isinstance(territories, dict) or len(path) != 2:
        return False
    zone = path[1]
    beside = set(territories.get(zone, {}).get("connections") or [])
    beside |= {name for name, t in territories.items() if isinstance(t, dict) and zone in (t.get("connections") or [])}
    if any(int(territories.get(name, {}).get("production", 0) or 0) > 0 for name in beside):
        return False
    return not any("production" in str(e.get("territoryProperty", "")) for _, _, e in elements(tree))
