"""What each element of an expanded spec tree claims of the rule ledger, and what a set rule leaves unclaimed.

An element claims the rules of its `ledger:` list, narrowed per option by `ledger_options`. An
attachment that claims nothing itself but is named by an option of a claiming element (a
condition in a trigger's or an action's chain, a trigger an action fires) serves the rules of
that option too: a pattern makes shared conditions ("Russia holds Yakut") that each advantage
names, and a slip in one is a slip in every rule that names it. These are the claims the
mutation sweep mutates (generator/engine/mutation.py).

A rule over a set (convoy zones, victory cities, the territories a nation's actions need) is
claimed element by element; `unclaimed` finds an element the variant writes with the option such
a rule claims on its other members, which no entry claims: a member the sweep would never touch.
An element written with `ledger: []` says it serves no rule of the ledger (a price restated as the
base game has it), and is not one.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from generator.spec.expand import expand_templates
from generator.spec.kinds import class_from_name
from generator.spec.patterns.expansion import expand_patterns
from generator.spec.resolve import Rules, resolve

__all__ = [
    "NOT_CONTENT", "SKIPPED_TOP", "Claims", "Unclaimed", "elements", "expanded_tree", "inherited", "parent_tree",
    "unclaimed",
]  # fmt: skip

TreePath = tuple[str | int, ...]
# Keys of a spec element that are not game content: what names, shows or draws it, or claims rules
# (`display`: the name a step or delegate shows in the UI).
NOT_CONTENT = {
    "ledger", "ledger_options", "image", "class", "foreach", "attach_to", "type", "name", "display", "section",
    "summary",
}  # fmt: skip
# Collections that hold no game elements (the ledger itself, the variant's metadata and notes), and
# rule patterns and templates: already made into the elements they stand for.
SKIPPED_TOP = {
    "rule_ledger", "game", "notes", "map_files", "variables", "extends", "attachment_templates", "turns",
    "advantage_schedules", "national_advantages", "treaties", "lend_lease", "free_units", "national_builds",
    "national_attacks", "pattern_defaults",
}  # fmt: skip
# Keys of an element holding other elements or the board, never mutated as options.
HOLDERS = ("attachments", "units", "connections")
# A game option's bounds and whether players may edit it: what players may set before a game, not a
# rule of the game played with its value. Never a member of a set rule.
_OPTION_BOUNDS = {"min", "max", "editable"}


def expanded_tree(rules: Rules, variant: str) -> Any:
    """The variant's spec tree as the build reads it: `extends` resolved, patterns and templates expanded."""
    resolved, problems = resolve(rules, variant)
    if resolved is None:
        raise ValueError(f"{variant}: {problems[0].message if problems else 'cannot be read'}")
    tree, _, _ = expand_patterns(resolved.tree)
    tree, _ = expand_templates(tree)
    return tree


def parent_tree(rules: Rules, variant: str) -> Any:
    """The expanded tree of the variant VARIANT extends (None when it extends nothing)."""
    parent = rules.declared_parent(variant)
    return expanded_tree(rules, parent) if parent else None


def elements(tree: Any) -> Iterator[tuple[TreePath, tuple[str, ...], dict[str, Any]]]:
    """(path, kind, element) of every element: each entry of a collection, and each attachment of
    one (its kind: the holding collection and the attachment's class)."""
    if not isinstance(tree, dict):
        return
    for collection, entries in tree.items():
        if collection in SKIPPED_TOP or not isinstance(entries, dict):
            continue
        for name, element in entries.items():
            if not isinstance(element, dict):
                continue
            yield (collection, name), (collection,), element
            attachments = element.get("attachments")
            for attachment, options in attachments.items() if isinstance(attachments, dict) else ():
                if isinstance(options, dict):
                    cls = str(options.get("class") or class_from_name(str(attachment)) or attachment)
                    kind = (collection, "attachments", cls.rsplit(".", 1)[-1])
                    yield (collection, name, "attachments", attachment), kind, options


def own_claims(element: dict[str, Any], key: str) -> tuple[str, ...]:
    """The rules option KEY of ELEMENT serves by its own `ledger`: those whose `ledger_options`
    (when they have some) name KEY."""
    ledger = element.get("ledger")
    if not isinstance(ledger, list):
        return ()
    narrowed = element.get("ledger_options")
    narrowed = narrowed if isinstance(narrowed, dict) else {}
    return tuple(str(rule) for rule in ledger if rule not in narrowed or key in (narrowed.get(rule) or []))


def _names_in(value: Any) -> Iterator[str]:
    """Every text inside an option's value (the parts of an `a:b:c` text one by one)."""
    if isinstance(value, str):
        yield value
        if ":" in value:
            yield from value.split(":")
    elif isinstance(value, list):
        for item in value:
            yield from _names_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _names_in(item)


@dataclass
class Claims:
    """Every element's claims: its own, and those it takes from the elements that name it."""

    # Attachment path -> the rules of the options naming it (for attachments claiming nothing).
    derived: dict[TreePath, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, tree: Any) -> Claims:
        found = list(elements(tree))
        by_name: dict[str, list[TreePath]] = {}
        for path, kind, element in found:
            if len(kind) == 3 and "ledger" not in element:  # `ledger: []` claims nothing on purpose
                by_name.setdefault(str(path[-1]), []).append(path)
        claims = cls()
        # A named attachment takes the rules of each option naming it; followed through attachments
        # that take claims so (a condition naming another), to a fixed point.
        pending = [(path, element) for path, _, element in found]
        while pending:
            path, element = pending.pop()
            for key, value in element.items():
                if key in NOT_CONTENT or key in HOLDERS:
                    continue
                rules = claims.claims_of(path, element, str(key))
                for name in set(_names_in(value)) if rules else ():
                    for target in by_name.get(name, ()):
                        had = claims.derived.get(target, ())
                        added = tuple(r for r in rules if r not in had)
                        if added and target != path:
                            claims.derived[target] = (*had, *added)
                            pending.append((target, _at(tree, target)))
        return claims

    def claims_of(self, path: TreePath, element: dict[str, Any], key: str) -> tuple[str, ...]:
        """The rules option KEY of the element at PATH serves."""
        return own_claims(element, key) or self.derived.get(path, ())

    def claiming(self, tree: Any, rule_id: str) -> Iterator[TreePath]:
        """Paths of the elements claiming RULE_ID, their own claims first, then those they take."""
        found = list(elements(tree))
        for path, _, element in found:
            ledger = element.get("ledger")
            if isinstance(ledger, list) and rule_id in ledger:
                yield path
        for path, _, _ in found:
            if rule_id in self.derived.get(path, ()):
                yield path


def _at(tree: Any, path: TreePath) -> Any:
    for key in path:
        tree = tree[key]
    return tree


def inherited(parent: Any, path: TreePath, key: str, value: Any) -> bool:
    """The parent variant has the same option with the same value there: not written by this one."""
    try:
        element = _at(parent, path)
    except (KeyError, IndexError, TypeError):
        return False
    return isinstance(element, dict) and key in element and element[key] == value


@dataclass(frozen=True)
class Unclaimed:
    """An element the variant writes with an option a set rule claims on other elements, unclaimed."""

    path: TreePath
    option: str
    rules: tuple[str, ...]  # the set rules claiming that option on two or more other elements

    @property
    def message(self) -> str:
        """In words, said at the option (whose place names the element)."""
        rules = ", ".join(self.rules)
        return (
            f"no ledger entry claims this '{self.option}', which {rules} claims on other elements of its kind: the "
            f"mutation sweep never changes it (claim it: ledger: [{self.rules[0]}]; ledger: [] if it serves no rule)"
        )


def unclaimed(tree: Any, parent: Any, enforced: set[str]) -> list[Unclaimed]:
    """Elements the variant writes with an option that an enforced rule claims on two or more
    elements of the same kind (a rule over a set: convoy zones, victory cities), that no rule claims.

    Only what the variant itself writes counts (an option with the parent's value is the parent's),
    both for the set and for its members."""
    claims = Claims.of(tree)
    written: list[tuple[TreePath, tuple[str, ...], str, tuple[str, ...]]] = []
    members: dict[tuple[tuple[str, ...], str], dict[str, int]] = {}
    for path, kind, element in elements(tree):
        for key, value in element.items():
            if key in NOT_CONTENT or key in HOLDERS or (kind == ("properties",) and key in _OPTION_BOUNDS):
                continue
            if parent is not None and inherited(parent, path, str(key), value):
                continue
            rules = claims.claims_of(path, element, str(key))
            if element.get("ledger") != []:  # `ledger: []`: the author says it serves no rule of the ledger
                written.append((path, kind, str(key), rules))
            for rule in rules:
                if rule in enforced:
                    counts = members.setdefault((kind, str(key)), {})
                    counts[rule] = counts.get(rule, 0) + 1
    found = []
    for path, kind, key, rules in written:
        over_sets = tuple(sorted(r for r, n in members.get((kind, key), {}).items() if n >= 2))
        if over_sets and not rules:
            found.append(Unclaimed(path, key, over_sets))
    return found
