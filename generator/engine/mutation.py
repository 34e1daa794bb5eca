"""Mutation testing of ledger proofs: a proof must fail when its rule is taken out of the game.

For an enforced ledger entry, every spec element that claims it (`ledger: [id]`: a unit, a
territory effect, a property, an attachment, a production rule, what a rule pattern or an
attachment template made) is mutated one edit at a time on the expanded spec tree: an option
dropped, a number changed by one, a switch flipped, a list shortened by its last item. Each
mutant that still builds (the spec checks pass and the XML renders) is a game without that part of
the rule. The entry's proof then runs on the mutant: its dump facts against the engine's dump of
the mutant (all mutants of a variant in one JVM), its scenarios through `scenario_check` (the tests
supply it: the assertions live with the scenario tests). A proof **kills** a mutant when it fails
on it; a surviving mutant is a proof that cannot tell the rule from its absence.
"""

from __future__ import annotations

import copy
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from generator.checks.references import check_spec
from generator.diagnostics import Severity
from generator.emit.render import render_game_xml
from generator.engine.harness import Engine, find_engine
from generator.engine.proof import check_facts, readable_by_19
from generator.spec.expand import expand_templates
from generator.spec.model import LedgerEntry
from generator.spec.patterns.expansion import expand_patterns
from generator.spec.resolve import Rules, resolve
from generator.spec.validation import validate_spec

__all__ = ["EntryResult", "Mutant", "expanded_tree", "mutants_of", "parent_tree", "run_mutants"]

TreePath = tuple[str | int, ...]
# Keys of a spec element that are not game content: what names or draws it, or claims rules.
_NOT_CONTENT = {"ledger", "image", "class", "foreach", "attach_to", "type", "name", "section", "summary"}
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
    # The element also claims other rules: the edit may take out another rule's part instead.
    shared: bool = False


@dataclass
class EntryResult:
    """What the mutants of one entry did to its proof."""

    rule_id: str
    mutants: list[str] = field(default_factory=list)
    killed: list[str] = field(default_factory=list)
    stillborn: list[str] = field(default_factory=list)  # mutants that do not build: no game to test
    # Mutants the engine reads exactly as the original game (a value dropped that is the default):
    # no proof can tell them apart, nor any player.
    same_game: list[str] = field(default_factory=list)
    shared: list[str] = field(default_factory=list)  # mutants of elements that claim other rules too

    @property
    def survivors(self) -> list[str]:
        """Surviving mutants of elements that claim this rule alone: the proof cannot tell the
        rule from its absence."""
        return [m for m in self.mutants if m not in self.killed and m not in self.shared and m not in self.same_game]

    @property
    def shared_survivors(self) -> list[str]:
        """Surviving mutants of shared elements: the edit may have taken out another rule's part."""
        return [m for m in self.mutants if m not in self.killed and m in self.shared and m not in self.same_game]

    def as_json(self) -> dict[str, Any]:
        return {
            "mutants": len(self.mutants),
            "killed": len(self.killed),
            "survivors": self.survivors,
            "shared_survivors": self.shared_survivors,
            "stillborn": len(self.stillborn),
            "same_game": len(self.same_game),
        }


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


def _claiming(tree: Any, rule_id: str, path: TreePath = ()) -> Iterator[TreePath]:
    """Paths of the mappings whose `ledger` names RULE_ID."""
    if isinstance(tree, dict):
        ledger = tree.get("ledger")
        if isinstance(ledger, list) and rule_id in ledger:
            yield path
        for key, value in tree.items():
            if not path and key in _SKIPPED_TOP:
                continue
            if key != "ledger":
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
    """One-edit mutants of the elements claiming RULE_ID, spread over its elements and options.

    With PARENT (the tree of the variant this one extends), options the element only inherits are
    left alone: they are the parent's rules, not this entry's; unless the entry's elements hold
    nothing else (a rule of the parent's the variant restates), whose inherited options are then
    what the game has of the rule."""
    candidates: list[tuple[TreePath, str, str, Any]] = []
    names = _names(tree)
    for path in _claiming(tree, rule_id):
        element = _at(tree, path)
        for key, value in element.items():
            if key in _NOT_CONTENT or key in ("attachments", "units", "connections"):
                continue
            if parent is not None and _inherited(parent, path, str(key), value):
                continue
            for words, new in _edits(value, names):
                candidates.append((path, str(key), words, new))
    if not candidates and parent is not None:
        return mutants_of(tree, rule_id, limit)
    # Round-robin over the elements (those claiming this rule alone first), so a capped entry
    # still touches each of them.
    ordered: list[tuple[TreePath, str, str, Any]] = []
    for alone in (True, False):
        by_element: dict[TreePath, list[tuple[TreePath, str, str, Any]]] = {}
        for candidate in candidates:
            if (len(_at(tree, candidate[0]).get("ledger", [])) == 1) == alone:
                by_element.setdefault(candidate[0], []).append(candidate)
        while any(by_element.values()) and len(ordered) < limit:
            for queue in by_element.values():
                if queue and len(ordered) < limit:
                    ordered.append(queue.pop(0))
    mutants = []
    for path, key, words, new in ordered:
        mutated = copy.deepcopy(tree)
        element = _at(mutated, path)
        if new is _DROP:
            del element[key]
        else:
            element[key] = new
        where = ".".join(str(p) for p in (*path, key))
        shared = len(_at(tree, path).get("ledger", [])) > 1
        mutants.append(Mutant(rule_id, f"{where}: {words}", mutated, shared))
    return mutants


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


ScenarioCheck = Callable[[str, Path], bool]  # (scenario, game) -> whether the scenario's tests pass


def run_mutants(
    variant: str,
    entries: dict[str, LedgerEntry],
    tree: Any,
    scenario_check: ScenarioCheck | None = None,
    *,
    parent: Any = None,
    engine: Engine | None = None,
    limit: int = MAX_MUTANTS_PER_ENTRY,
) -> list[EntryResult]:
    """Mutate each entry's elements and run its proof on every mutant (dump facts first, then scenarios)."""
    results: list[EntryResult] = []
    games: list[tuple[EntryResult, str, LedgerEntry, Path]] = []
    with tempfile.TemporaryDirectory(prefix="forge-mutants-") as folder:
        original = Path(folder) / "original.xml"
        unmutated = render_mutant(variant, Mutant("", "", tree))
        if unmutated is None:
            raise ValueError(f"{variant}: the game itself does not build")
        original.write_bytes(unmutated)
        for rule_id, entry in entries.items():
            result = EntryResult(rule_id)
            results.append(result)
            for index, mutant in enumerate(mutants_of(tree, rule_id, limit, parent)):
                xml = render_mutant(variant, mutant)
                if xml is None:
                    result.stillborn.append(mutant.edit)
                    continue
                game = Path(folder) / f"{rule_id}-{index}.xml"
                game.write_bytes(xml)
                result.mutants.append(mutant.edit)
                if mutant.shared:
                    result.shared.append(mutant.edit)
                games.append((result, mutant.edit, entry, game))
        dumps = (engine or find_engine()).dump([original, *(g for *_, g in games)]) if games else {}
        for result, edit, entry, game in games:
            facts = entry.proof.facts if entry.proof else []
            dumped = dumps.get(str(game), {})
            if dumped == dumps.get(str(original)):
                result.same_game.append(edit)
                continue
            if "error" in dumped or any(check_facts(f, dumped) for f in facts):
                result.killed.append(edit)
                continue
            scenarios: Sequence[str] = entry.proof.scenarios if entry.proof else []
            if scenario_check is not None and any(not scenario_check(name, game) for name in scenarios):
                result.killed.append(edit)
    return results
