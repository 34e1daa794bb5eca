"""Equivalent mutants: edits no game can tell from the original, with why.

A survivor of the mutation sweep (generator/engine/sweep.py) whose edit matches a pattern is
reported as equivalent, not as a proof that cannot fail. Each reason must be true of the engine:
an entry is a claim that no game state, and so no proof, can tell the mutant apart. Here are
those true of any game (`EQUIVALENT`), and those that hold only in games meeting a premise
(`GENERAL`: a trigger fired twice changes nothing when it only sets properties), read on the
variant's tree at the edited element (generator/engine/premises.py): a survivor whose element
does not meet it stays a survivor. Those true of one variant's rules are the variant's own, beside
its proofs: `rules/<variant>/proofs/equivalent.yaml` (a list of {pattern, why}), read from every
proofs folder in use (`variant_equivalences`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import yaml

from generator.catalog.scenarios import manifest_error, proof_folders
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

__all__ = ["EQUIVALENT", "FILE", "GENERAL", "equivalent", "variant_equivalences"]

FILE = "equivalent.yaml"  # a variant's equivalences, in its proofs folder
_MAX_BYTES = 1 << 20
_LOADER: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's, where PyYAML has it
# Equivalences of any game: edits the engine reads as the same game.
EQUIVALENT: dict[str, str] = {
    r"^properties\.[^.]+\.(editable|min|max): ": (
        "whether players may change a game option before the game, and within which bounds, changes nothing "
        "in a game played with its value: the rule is the value, which the proof checks"
    ),
    r"^units\.\w+\.attachments\.supportAttachment\w+\.players: item \d+ of \d+ written twice$": (
        "a support names the players whose units it supports, each asked for by membership "
        "(UnitSupportAttachment's players): a player named twice is one"
    ),
    r"^players\.\w+\.attachments\.playerAttachment\.retainCapitalProduceNumber: 0 -> -1$": (
        "the engine stops a player's production while it holds fewer capitals than this number: 0 and -1 are "
        "both below any count of capitals held"
    ),
    # A condition on techs tests the player it is attached to (RulesAttachment.checkTechs reads
    # getAttachedTo), never its players.
    r"^players\.\w+\.attachments\.conditionAttachment\w+Has\w+\.players: ": (
        "a condition on techs tests the techs of the player it is attached to (RulesAttachment.checkTechs), "
        "never those of its players"
    ),
}


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
    known = (*EQUIVALENT.items(), *variant_equivalences().items())
    found = next((why for pattern, why in known if re.search(pattern, edit)), None)
    if found is not None or where is None:
        return found
    for pattern, (why, premise) in GENERAL.items():
        if re.search(pattern, edit) and premise(*where, edit):
            return why
    return None


def variant_equivalences() -> dict[str, str]:
    """Pattern -> why, from the `equivalent.yaml` of every proofs folder in use, in the folders'
    order (a mod's after the shipped variants'): a mod extending a shipped variant keeps its
    parent's elements, and so the claims made of them."""
    files = [folder / FILE for folder in proof_folders()]
    return _read(tuple((str(f), f.stat().st_mtime_ns) for f in files if f.is_file()))


@lru_cache(maxsize=8)
def _read(files: tuple[tuple[str, int], ...]) -> dict[str, str]:
    found: dict[str, str] = {}
    for name, _ in files:
        path = Path(name)
        if path.stat().st_size > _MAX_BYTES:
            raise manifest_error(path, f"more than {_MAX_BYTES} bytes: not a list of equivalences")
        try:
            tree = yaml.load(path.read_text(encoding="utf-8"), Loader=_LOADER)
        except (yaml.YAMLError, UnicodeDecodeError) as exc:
            raise manifest_error(path, f"not readable YAML: {exc}") from exc
        entries = [] if tree is None else tree if isinstance(tree, list) else [tree]  # an empty file: none
        for index, entry in enumerate(entries):
            if not isinstance(entry, dict) or set(entry) != {"pattern", "why"}:
                raise manifest_error(path, f"entry {index}: expected {{pattern: regex, why: text}}")
            pattern, why = entry["pattern"], entry["why"]
            if not isinstance(pattern, str) or not isinstance(why, str) or not why.strip():
                raise manifest_error(path, f"entry {index}: the pattern and its why are text")
            try:
                re.compile(pattern)
            except re.error as exc:
                raise manifest_error(path, f"entry {index}: pattern {pattern!r}: {exc}") from exc
            found.setdefault(pattern, why)
    return found
