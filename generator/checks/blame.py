"""A mistake a child variant made, said where the child made it, with the inherited line as context.

Checks locate a problem at the value they look at. In a child variant that value is often one it
inherits: a child of lhtr that makes the fighter a sea unit is told that the fighter "is both isSea
and isAir" at the parent's isAir line, a file the child's author never touched. A problem at an
inherited line that the parent itself does not have was made by the child: it is moved to what the
child wrote (spec.locate.written_by), and the inherited line is named in the message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from generator.checks.context import SpecTree
from generator.diagnostics import Diagnostic, Mark, key_path, split_key_path
from generator.installed_map import MapLookup
from generator.spec.load import SpecMap
from generator.spec.locate import written_by
from generator.spec.resolve import Rules
from generator.targets import Target


@dataclass(frozen=True)
class _Checked:
    """A variant's own problems, as checked against one board, with its files as they were read."""

    maps: MapLookup | None  # the board the check read (None: none)
    trees: list[SpecMap | None]
    problems: list[Diagnostic]


# Each parent's own problems by (parent, target engines), kept with the Rules object that read it
# and dropped with it: a process that reads many rules folders (every `build` of the test suite,
# an import of many games) must not keep every folder it ever read. A variant read again (watch)
# or checked against another board is checked again.
_PARENTS: WeakKeyDictionary[Rules, dict[tuple[str, str], _Checked]] = WeakKeyDictionary()


def in_child(
    problems: list[Diagnostic], rules: Rules, name: str, tree: SpecTree,
    parent_problems: Callable[[str], list[Diagnostic]], target: Target, maps: MapLookup | None,
) -> list[Diagnostic]:  # fmt: skip
    """`problems` of variant `name` (resolved `tree`), the child's own mistakes moved to its lines.

    `parent_problems(parent)` checks the parent as the child was checked: for the `target`
    engines, against the board `maps` finds (None: no board).
    """
    raw, files, _ = rules.raw(name)
    parent = raw.get("extends") if raw is not None else None
    own = set(files)
    if not isinstance(parent, str) or all(p.mark is None or p.mark.file in own for p in problems):
        return problems
    known = set(_parents(rules, parent, parent_problems, target, maps))
    out = []
    for problem in problems:
        mark = problem.mark
        found = None
        if mark is not None and mark.file not in own and problem not in known:
            found = written_by(tree, split_key_path(problem.key_path), lambda m: m.file in own)
        if found is None:
            out.append(problem)
            continue
        where, path = found
        out.append(Diagnostic(_with_context(problem, mark, path), where, key_path(path), problem.severity))
    return out


def remember(rules: Rules, name: str, problems: list[Diagnostic], target: Target, maps: MapLookup | None) -> None:
    """Keep a variant's own problems (before `in_child`), for its children checked later in this process."""
    _PARENTS.setdefault(rules, {})[(name, target)] = _Checked(maps, raw_chain(rules, name), problems)


def _with_context(problem: Diagnostic, inherited: Mark | None, path: tuple[str, ...]) -> str:
    if key_path(path) == problem.key_path:
        return f"{problem.message} (inherited from {inherited})"
    return f"{problem.message} (the inherited {problem.key_path} is at {inherited})"


def _parents(
    rules: Rules,
    parent: str,
    parent_problems: Callable[[str], list[Diagnostic]],
    target: Target,
    maps: MapLookup | None,
) -> list[Diagnostic]:
    known = _PARENTS.setdefault(rules, {})
    trees = raw_chain(rules, parent)
    cached = known.get((parent, target))
    if (
        cached is not None
        and cached.maps is maps
        and len(cached.trees) == len(trees)
        and all(a is b for a, b in zip(cached.trees, trees, strict=True))
    ):
        return cached.problems
    found = parent_problems(parent)
    known[(parent, target)] = _Checked(maps, trees, found)
    return found


def raw_chain(rules: Rules, name: str) -> list[SpecMap | None]:
    """The raw trees of `name` and its ancestors, as read (at most 32: a cycle is resolve's to report)."""
    trees: list[SpecMap | None] = []
    current: object = name
    while isinstance(current, str) and rules.exists(current) and len(trees) < 32:
        tree = rules.raw(current)[0]
        trees.append(tree)
        current = tree.get("extends") if tree is not None else None
    return trees
