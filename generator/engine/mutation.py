"""Mutants of a game: one-edit changes of the spec elements that claim a ledger entry.

For an enforced ledger entry, every spec element that claims it (`ledger: [id]`: a unit, a
territory effect, a property, an attachment, a production rule, what a rule pattern or an
attachment template made) is mutated one edit at a time on the expanded spec tree: an option
dropped, a number changed by one, a switch flipped, a list shortened by its last item or widened,
a name swapped. Where an element serves several rules, `ledger_options: {id: [option, ...]}` says
which of its options are that rule's: an edit of an option belongs to the rules that claim it
(every rule of the element's `ledger` that `ledger_options` does not narrow, and those it names for
that option). Each mutant that still builds (the spec checks pass and the XML renders) is a game
without that part of the rule; generator/engine/sweep.py runs the proofs on them.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from generator.checks.references import check_spec
from generator.diagnostics import Severity
from generator.emit.render import render_game_xml
from generator.engine.proof import readable_by_19
from generator.spec.expand import expand_templates
from generator.spec.patterns.expansion import expand_patterns
from generator.spec.resolve import Rules, resolve
from generator.spec.validation import validate_spec

__all__ = ["Mutant", "claims_of", "expanded_tree", "mutants_of", "parent_tree", "render_mutant"]

TreePath = tuple[str | int, ...]
# Keys of a spec element that are not game content: what names, shows or draws it, or claims rules
# (`display`: the name a step or delegate shows in the UI).
_NOT_CONTENT = {
    "ledger", "ledger_options", "image", "class", "foreach", "attach_to", "type", "name", "display", "section",
    "summary",
}  # fmt: skip
# Collections that hold no game elements (the ledger itself, the variant's metadata and notes), and
# rule patterns and templates: already made into the elements mutated here, editing them does nothing.
_SKIPPED_TOP = {
    "rule_ledger", "game", "notes", "map_files", "variables", "extends", "attachment_templates", "turns",
    "advantage_schedules", "national_advantages", "treaties", "lend_lease", "free_units", "national_builds",
    "national_attacks",
}  # fmt: skip
# Cap per entry: enough to cover every element of a rule without a sweep lasting hours.
MAX_MUTANTS_PER_ENTRY = 30


@dataclass
class Mutant:
    rule_id: str
    edit: str  # in words: "units.heavyTank.canBlitz: true -> false"
    tree: Any
    # Every rule the edited option serves (RULE_ID among them): a proof of any of them may kill it.
    claimants: tuple[str, ...] = ()

    @property
    def shared(self) -> bool:
        return len(self.claimants) > 1


def parent_tree(rules: Rules, variant: str) -> Any:
    """The expanded tree of the variant VARIANT extends (None when it extends nothing)."""
    parent = rules.declared_parent(variant)
    return expanded_tree(rules, parent) if parent else None


def expanded_tree(rules: Rules, variant: str) -> Any:
    """The variant's spec tree as the build reads it: `extends` resolved, patterns and templates expanded."""
    resolved, problems = resolve(rules, variant)
    if resolved is None:
        raise ValueError(f"{variant}: {problems[0].message if problems else 'cannot be read'}")
    tree, _, _ = expand_patterns(resolved.tree)
    tree, _ = expand_templates(tree)
    return tree


def claims_of(element: dict[str, Any], key: str) -> tuple[str, ...]:
    """The rules option KEY of ELEMENT serves: those of its `ledger` whose `ledger_options` (when
    they have some) name KEY."""
    ledger = element.get("ledger")
    if not isinstance(ledger, list):
        return ()
    narrowed = element.get("ledger_options")
    narrowed = narrowed if isinstance(narrowed, dict) else {}
    return tuple(str(rule) for rule in ledger if rule not in narrowed or key in (narrowed.get(rule) or []))


def _claiming(tree: Any, rule_id: str, path: TreePath = ()) -> Iterator[TreePath]:
    """Paths of the mappings whose `ledger` names RULE_ID."""
    if isinstance(tree, dict):
        ledger = tree.get("ledger")
        if isinstance(ledger, list) and rule_id in ledger:
            yield path
        for key, value in tree.items():
            if not path and key in _SKIPPED_TOP:
                continue
            if key not in ("ledger", "ledger_options"):
                yield from _claiming(value, rule_id, (*path, key))


def _edits(value: Any, names: dict[str, list[str]]) -> Iterator[tuple[str, Any]]:
    """(words, new value) for each one-edit change of an option value; `_DROP` removes the option.

    Beyond dropping: a switch flipped, a number (or a price's amount) changed by one, a list
    shortened by its last item and widened by a name of the same kind, and in a `a:b:c` text the
    last name of a known kind (a relationship type, a territory, a unit, a player) swapped for
    another of that kind."""
    yield "removed", _DROP
    if isinstance(value, bool):
        yield f"{value} -> {not value}", not value
    elif isinstance(value, int):
        yield f"{value} -> {value + 1}", value + 1
    elif isinstance(value, dict):  # a price or result: {PUs: 15}
        for key, number in value.items():
            if isinstance(number, int) and not isinstance(number, bool):
                yield f"{key} {number} -> {number + 1}", {**value, key: number + 1}
    elif isinstance(value, list):
        if len(value) > 1:
            yield f"last of {len(value)} items dropped", value[:-1]
        kind = _kind_of(value, names)
        extra = next((n for n in names.get(kind or "", []) if n not in value), None)
        if extra is not None:
            yield f"widened by {extra}", [*value, extra]
    if isinstance(value, str) and ":" in value:
        parts = value.split(":")
        for words, swapped in _swap_last_name(parts, names):
            yield words, ":".join(swapped)
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        yield from _swap_last_name(value, names)


def _swap_last_name(parts: list[str], names: dict[str, list[str]]) -> Iterator[tuple[str, list[str]]]:
    """The last part that names something of a known kind, swapped for another of that kind."""
    for index in reversed(range(len(parts))):
        kind = _kind_of([parts[index]], names)
        other = next((n for n in names.get(kind or "", []) if n != parts[index]), None)
        if other is not None:
            yield f"{parts[index]} -> {other}", [*parts[:index], other, *parts[index + 1 :]]
            return


def _kind_of(items: list[Any], names: dict[str, list[str]]) -> str | None:
    """The collection every item names, when they all name one."""
    if not items or not all(isinstance(i, str) for i in items):
        return None
    return next((kind for kind, known in names.items() if all(i in known for i in items)), None)


def _names(tree: Any) -> dict[str, list[str]]:
    """Names of the kinds a one-edit swap may exchange, in a fixed order."""
    kinds = ("relationship_types", "players", "units", "territories")
    return {k: sorted(str(n) for n in tree.get(k, {})) for k in kinds if isinstance(tree.get(k), dict)}


_DROP = object()


def _at(tree: Any, path: TreePath) -> Any:
    for key in path:
        tree = tree[key]
    return tree


def _inherited(parent: Any, path: TreePath, key: str, value: Any) -> bool:
    """The parent variant has the same option with the same value there: not written for this rule."""
    try:
        element = _at(parent, path)
    except (KeyError, IndexError, TypeError):
        return False
    return isinstance(element, dict) and key in element and element[key] == value


def mutants_of(tree: Any, rule_id: str, limit: int = MAX_MUTANTS_PER_ENTRY, parent: Any = None) -> list[Mutant]:
    """One-edit mutants of the options claiming RULE_ID, spread over its elements and options.

    With PARENT (the tree of the variant this one extends), options the element only inherits are
    left alone: they are the parent's rules, not this entry's; unless the entry's elements hold
    nothing else (a rule of the parent's the variant restates), whose inherited options are then
    what the game has of the rule."""
    candidates: list[tuple[TreePath, str, str, Any, tuple[str, ...]]] = []
    names = _names(tree)
    for path in _claiming(tree, rule_id):
        element = _at(tree, path)
        for key, value in element.items():
            if key in _NOT_CONTENT or key in ("attachments", "units", "connections"):
                continue
            claimants = claims_of(element, str(key))
            if rule_id not in claimants:
                continue
            if parent is not None and _inherited(parent, path, str(key), value):
                continue
            for words, new in _edits(value, names):
                candidates.append((path, str(key), words, new, claimants))
    if not candidates and parent is not None:
        return mutants_of(tree, rule_id, limit)
    # Round-robin over the elements (options serving this rule alone first), so a capped entry
    # still touches each of them.
    ordered: list[tuple[TreePath, str, str, Any, tuple[str, ...]]] = []
    for alone in (True, False):
        by_element: dict[TreePath, list[tuple[TreePath, str, str, Any, tuple[str, ...]]]] = {}
        for candidate in candidates:
            if (len(candidate[4]) == 1) == alone:
                by_element.setdefault(candidate[0], []).append(candidate)
        while any(by_element.values()) and len(ordered) < limit:
            for queue in by_element.values():
                if queue and len(ordered) < limit:
                    ordered.append(queue.pop(0))
    mutants = []
    for path, key, words, new, claimants in ordered:
        where = ".".join(str(p) for p in (*path, key))
        mutants.append(Mutant(rule_id, f"{where}: {words}", _edited(tree, path, key, new), claimants))
    return mutants


def _edited(tree: Any, path: TreePath, key: str, new: Any) -> Any:
    """TREE with one option changed (or dropped): only the mappings on the way to it are copied,
    the rest is shared with TREE (a deep copy of a large game per mutant costs more than its build)."""
    changed = copy.copy(tree)  # a shallow copy keeps the mapping's kind and its YAML marks
    if path:
        changed[path[0]] = _edited(tree[path[0]], path[1:], key, new)
    elif new is _DROP:
        del changed[key]
        narrowed = changed.get("ledger_options")
        if isinstance(narrowed, dict):  # a claim narrowed to the option no longer names it
            changed["ledger_options"] = {rule: [o for o in options if o != key] for rule, options in narrowed.items()}
    else:
        changed[key] = new
    return changed


def render_mutant(variant: str, mutant: Mutant) -> bytes | None:
    """The mutant's game XML as engine 1.9 reads it; None when the mutant is no valid game."""
    spec, problems = validate_spec(mutant.tree)
    if spec is None or any(p.severity is Severity.ERROR for p in problems):
        return None
    if any(p.severity is Severity.ERROR for p in check_spec(spec, mutant.tree, "portable", variant)):
        return None
    try:
        xml = render_game_xml(variant, spec).encode("utf-8")
    except (ValueError, KeyError, TypeError):
        return None
    return readable_by_19(xml)
