"""Mutants of a game: one-edit changes of the spec elements that claim a ledger entry.

For an enforced ledger entry, every spec element that claims it (generator/spec/claims.py: its
`ledger:`, or a condition or trigger a claiming element names) is mutated one edit at a time on
the expanded spec tree, by the operators of generator/engine/operators.py: an option dropped, a
switch flipped, a number moved by one or doubled, a list item dropped or written twice, a name
swapped for a sibling's, a neighbour's or another of its kind, an option left out written. Where
an element serves several rules, `ledger_options: {id: [option, ...]}` says which of its options
are that rule's: an edit of an option belongs to the rules that claim it. Each mutant that still
builds (the spec checks pass and the XML renders) is a game without that part of the rule;
generator/engine/sweep.py runs the proofs on them.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from generator.checks.references import check_spec
from generator.diagnostics import Severity
from generator.emit.render import render_game_xml
from generator.engine.operators import DROP, OPERATORS, Edit, Names, added, edits
from generator.engine.proof import readable_by_19
from generator.spec.claims import (
    HOLDERS,
    NOT_CONTENT,
    Claims,
    TreePath,
    elements,
    expanded_tree,
    inherited,
    parent_tree,
)
from generator.spec.validation import validate_spec

__all__ = ["Mutant", "Mutator", "edited", "expanded_tree", "mutants_of", "parent_tree", "render_mutant"]

# Cap per entry: enough to give every element of a rule an edit, and every operator its turn,
# without a sweep outlasting CI's time.
MAX_MUTANTS_PER_ENTRY = 32


@dataclass
class Mutant:
    rule_id: str
    edit: str  # in words: "units.heavyTank.canBlitz: True -> False"
    base: Any  # the tree the edit is made on
    # Every rule the edited option serves (RULE_ID among them): a proof of any of them may kill it.
    claimants: tuple[str, ...] = ()
    operator: str = ""  # the operator that made it (generator/engine/operators.py OPERATORS)
    # (element path, option, new value or DROP); None: the base tree itself.
    change: tuple[TreePath, str, Any] | None = None

    @property
    def shared(self) -> bool:
        return len(self.claimants) > 1

    @property
    def tree(self) -> Any:
        """The mutant's tree, made when asked (a sweep builds its mutants in other processes)."""
        return self.base if self.change is None else edited(self.base, *self.change)


@dataclass(frozen=True)
class _Candidate:
    path: TreePath
    key: str
    edit: Edit
    claimants: tuple[str, ...]


def _at(tree: Any, path: TreePath) -> Any:
    for key in path:
        tree = tree[key]
    return tree


class Mutator:
    """The candidate edits of a tree, entry by entry (the tree's names and claims read once)."""

    def __init__(self, tree: Any, parent: Any = None) -> None:
        self.tree, self.parent = tree, parent
        self.names = Names.of(tree)
        self.claims = Claims.of(tree)
        self.kinds = {path: kind for path, kind, _ in elements(tree)}

    def candidates(self, rule_id: str, own_only: bool = True) -> list[_Candidate]:
        """Every edit of an option claiming RULE_ID. With OWN_ONLY, options the element only
        inherits are left alone: they are the parent's rules, not this entry's."""
        paths = list(dict.fromkeys(self.claims.claiming(self.tree, rule_id)))
        found: list[_Candidate] = []
        for path in paths:
            element = _at(self.tree, path)
            kind = self.kinds.get(path, ())
            for key, value in element.items():
                key = str(key)
                if key in NOT_CONTENT or key in HOLDERS:
                    continue
                claimants = self.claims.claims_of(path, element, key)
                if rule_id not in claimants:
                    continue
                if own_only and self.parent is not None and inherited(self.parent, path, key, value):
                    continue
                siblings = [
                    theirs
                    for p in paths
                    if p != path and self.kinds.get(p) == kind
                    and _shape(theirs := _at(self.tree, p).get(key)) == _shape(value)
                ]  # fmt: skip
                found += [_Candidate(path, key, edit, claimants) for edit in edits(value, self.names, siblings)]
            if len(kind) == 3 and rule_id in self.claims.claims_of(path, element, ""):
                for key, edit in added(element, kind[2]):
                    found.append(_Candidate(path, key, edit, self.claims.claims_of(path, element, key)))
        return found


def _shape(value: Any) -> Any:
    """What a value is made of, without its names and numbers: the same option of two elements
    of one rule with one shape (three actions' chains of three conditions) are siblings, written
    by copying one another."""
    if isinstance(value, list):
        return tuple(_shape(item) for item in value)
    if isinstance(value, dict):
        return tuple((key, _shape(item)) for key, item in value.items())
    return type(value).__name__


def _spread(candidates: list[_Candidate], limit: int) -> list[_Candidate]:
    """Up to LIMIT candidates: each operator in turn (so each kind of slip is made), within one
    the elements in turn (so each element is touched)."""
    queues: dict[str, dict[TreePath, list[_Candidate]]] = {}
    # Options serving this rule alone first, and a swap for a sibling's name before other swaps.
    for candidate in sorted(candidates, key=lambda c: (len(c.claimants) > 1, not c.edit.sibling)):
        by_element = queues.setdefault(candidate.edit.operator, {})
        by_element.setdefault(candidate.path, []).append(candidate)
    chosen: list[_Candidate] = []
    turns = {op: list(queues[op].values()) for op in OPERATORS if op in queues}
    while len(chosen) < limit and any(any(q) for q in turns.values()):
        for queues_of_op in turns.values():
            queue = next((q for q in queues_of_op if q), None)
            if queue is not None and len(chosen) < limit:
                chosen.append(queue.pop(0))
                queues_of_op.append(queues_of_op.pop(queues_of_op.index(queue)))
    return chosen


def mutants_of(
    tree: Any, rule_id: str, limit: int = MAX_MUTANTS_PER_ENTRY, parent: Any = None, mutator: Mutator | None = None
) -> list[Mutant]:
    """One-edit mutants of the options claiming RULE_ID, spread over its elements and operators.

    With PARENT (the tree of the variant this one extends), options the element only inherits are
    left alone, unless the entry's elements hold nothing else (a rule of the parent's the variant
    restates), whose inherited options are then what the game has of the rule."""
    mutator = mutator or Mutator(tree, parent)
    candidates = mutator.candidates(rule_id)
    if not candidates and parent is not None:
        candidates = mutator.candidates(rule_id, own_only=False)
    mutants = []
    for c in _spread(candidates, limit):
        where = ".".join(str(p) for p in (*c.path, c.key))
        separator = "" if c.edit.words.startswith("[") else " "
        words = f"{where}{c.edit.words}" if c.edit.words.startswith("[") else f"{where}:{separator}{c.edit.words}"
        mutants.append(Mutant(rule_id, words, tree, c.claimants, c.edit.operator, (c.path, c.key, c.edit.value)))
    return mutants


def edited(tree: Any, path: TreePath, key: str, new: Any) -> Any:
    """TREE with one option changed (or dropped): only the mappings on the way to it are copied,
    the rest is shared with TREE (a deep copy of a large game per mutant costs more than its build)."""
    changed = copy.copy(tree)  # a shallow copy keeps the mapping's kind and its YAML marks
    if path:
        changed[path[0]] = edited(tree[path[0]], path[1:], key, new)
    elif new is DROP:
        del changed[key]
        narrowed = changed.get("ledger_options")
        if isinstance(narrowed, dict):  # a claim narrowed to the option no longer names it
            changed["ledger_options"] = {rule: [o for o in options if o != key] for rule, options in narrowed.items()}
    else:
        changed[key] = new
    return changed


def render_mutant(variant: str, mutant: Mutant) -> bytes | None:
    """The mutant's game XML as engine 1.9 reads it; None when the mutant is no valid game."""
    tree = mutant.tree
    spec, problems = validate_spec(tree)
    if spec is None or any(p.severity is Severity.ERROR for p in problems):
        return None
    # Names are the game's own (a swap takes another name the game has): their spelling is not checked again.
    if any(p.severity is Severity.ERROR for p in check_spec(spec, tree, "portable", variant, names=False)):
        return None
    try:
        xml = render_game_xml(variant, spec).encode("utf-8")
    except (ValueError, KeyError, TypeError):
        return None
    return readable_by_19(xml)
