"""Make every pattern use of a resolved spec tree into the ordinary entries it stands for.

Runs after `extends` is resolved (a child variant changes or `!delete`s a use like any entry) and
before attachment templates and the model. For each use: its parameters are checked by the
pattern's model (a use that does not validate makes nothing; the model's errors are reported
where the spec is read, at the use's lines), the model makes what the use stands for as spec
data (`Pattern.make`: documents merged in order), and the result is merged into the tree.
Everything made carries the position of the use, or of the parameter whose text it repeats (the
model reads the use's texts `Located`), and `Expansion.made` remembers which use made it: later
errors name the use, and `diff` compares uses instead of what they make. Two uses may make the
same entry only if they make it alike; an entry the spec writes itself is never overwritten.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from generator.diagnostics import Diagnostic, Mark, did_you_mean, key_path
from generator.spec.expand import copy_marks, owned, shallow
from generator.spec.load import SpecList, SpecMap
from generator.spec.locate import locate
from generator.spec.patterns import PATTERNS, Pattern, PatternError
from generator.spec.patterns.base import Consequence, Located

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Use:
    """One use of a pattern: where the spec keeps it."""

    collection: str
    name: str
    noun: str

    @property
    def label(self) -> str:
        return f"{self.noun} {self.name}"


@dataclass
class Expansion:
    """The uses read (by collection and name) and what each made (tree path -> the uses)."""

    uses: dict[str, dict[str, Pattern | None]] = field(default_factory=dict)
    made: dict[Path, list[Use]] = field(default_factory=dict)

    def maker(self, path: Path) -> tuple[Path, list[Use]] | None:
        """The made entry that holds `path` (or is it), and who made it."""
        for end in range(len(path), 0, -1):
            if path[:end] in self.made:
                return path[:end], self.made[path[:end]]
        return None


def expand_patterns(tree: Any) -> tuple[Any, list[Diagnostic], Expansion]:
    """The tree with every pattern use made into entries, the problems found, and what made what."""
    expansion = Expansion()
    if not isinstance(tree, dict) or not any(p.collection in tree for p in PATTERNS):
        return tree, [], expansion
    out = shallow(tree)
    defaults, problems = _defaults(tree)
    for pattern in PATTERNS:
        uses = tree.get(pattern.collection)
        if not isinstance(uses, dict):
            continue  # nothing, or not a mapping: the model says so where the spec is read
        made = expansion.uses.setdefault(pattern.collection, {})
        for name, given in uses.items():
            where: Path = (pattern.collection, str(name))
            made[str(name)] = None  # until it reads
            params = _with_defaults(pattern, given, defaults)
            if params is not given:  # the use as the model reads it: the spec keeps it so
                owned(out, pattern.collection)[str(name)] = params
            try:
                use = pattern.model_validate(_located(params, (pattern.collection, str(name))))
            except ValidationError:
                continue  # reported with the rest of the spec's structure, at the use's lines
            documents = None
            try:
                found = use.problems()
                documents = use.make(str(name), expansion.uses)
            except PatternError as exc:
                found = [] if isinstance(exc, Consequence) else [exc]
            for error in found:
                at = (*where, *error.where)
                problems.append(Diagnostic(str(error), locate(tree, at), key_path(at)))
            if documents is None:
                continue
            made[str(name)] = use
            said = locate(tree, where, key=True)
            for document in documents:
                spec = _spec_data(document, said, (pattern.collection, str(name)))
                problems += _merge(out, spec, (), Use(pattern.collection, str(name), pattern.noun), expansion, tree)
    return out, problems, expansion


DEFAULTS = "pattern_defaults"


def _defaults(tree: dict[str, Any]) -> tuple[dict[str, Any], list[Diagnostic]]:
    """The variant's `pattern_defaults`: parameters given once for every use that takes them and
    does not give them (`triggers_on: Germans`); a parameter no pattern takes is a mistake."""
    defaults = tree.get(DEFAULTS)
    if not isinstance(defaults, dict):
        return {}, []  # nothing, or not a mapping: the model says so where the spec is read
    taken = sorted({_alias(f, n) for p in PATTERNS for n, f in p.model_fields.items() if n != "ledger"})
    problems = []
    for key in defaults:
        if key not in taken:
            where = (DEFAULTS, str(key))
            message = f"no rule pattern takes a parameter '{key}'{did_you_mean(str(key), taken)}"
            problems.append(Diagnostic(message, locate(tree, where, key=True), key_path(where)))
    return defaults, problems  # a key no pattern takes is given to no use


def _alias(field: Any, name: str) -> str:
    return str(field.alias or name)


def _with_defaults(pattern: type[Pattern], params: Any, defaults: dict[str, Any]) -> Any:
    """`params` with the defaults its pattern takes and it does not give (the same object if none),
    each said at the default's line."""
    if not isinstance(params, dict) or not defaults:
        return params
    takes = {_alias(f, n) for n, f in pattern.model_fields.items()}
    missing = [key for key in defaults if key in takes and key not in params]
    if not missing:
        return params
    filled = shallow(params)
    for key in missing:
        filled[key] = defaults[key]
        if isinstance(filled, SpecMap):
            copy_marks(defaults, filled, key)
    return filled


def _located(params: Any, use: tuple[str, str]) -> Any:
    """A use's parameters with each text the spec writes `Located` there: values, list items, and
    names given as keys below the top ({PUs: 5}); the model keeps them so (see base.Text)."""

    def walk(node: Any, nested: bool) -> Any:
        if isinstance(node, SpecMap):
            out = {}
            for key, value in node.items():
                if nested and key in node.key_marks:
                    key = Located(key, node.key_marks[key], use)
                if isinstance(value, str) and key in node.value_marks:
                    out[key] = Located(value, node.value_marks[key], use)
                else:
                    out[key] = walk(value, True)
            return out
        if isinstance(node, SpecList):
            marks = node.item_marks
            return [
                Located(item, marks[index], use) if isinstance(item, str) and index < len(marks) else walk(item, True)
                for index, item in enumerate(node)
            ]
        return node

    return walk(params, False)


def _spec_data(made: Any, at: Mark | None, use: tuple[str, str]) -> Any:
    """What `make` made as a spec tree: every entry said where its value's text is written when
    it is one of the use's own parameters, else at the use (`at`)."""
    if isinstance(made, dict):
        tree = SpecMap()
        tree.mark = at
        for key, value in made.items():
            name = str(key)  # a plain str, as a spec file's keys are
            tree[name] = _spec_data(value, at, use)
            # An option is said where its value is (checks point at an option's key).
            tree.key_marks[name] = tree.value_marks[name] = _where(value, at, use)  # type: ignore[assignment]
        return tree
    if isinstance(made, list | tuple):
        items = SpecList()
        items.mark = at
        items.extend(_spec_data(item, at, use) for item in made)
        items.item_marks = [_where(item, at, use) for item in made]  # type: ignore[misc]
        return items
    return str(made) if isinstance(made, Located) else made  # a plain str, as a spec file's texts are


def _where(value: Any, at: Mark | None, use: tuple[str, str]) -> Mark | None:
    return value.mark if isinstance(value, Located) and value.use == use else at


def _merge(
    target: Any, made: dict[str, Any], path: Path, use: Use, expansion: Expansion, tree: Any
) -> list[Diagnostic]:
    """Merge `made` into `target` (a container of our own), remembering what `use` made."""
    problems: list[Diagnostic] = []
    for key, value in made.items():
        here = (*path, key)
        current = target.get(key)
        if isinstance(value, dict) and merges_into(here) and (current is None or isinstance(current, dict)):
            # A collection (players, a player's attachments, map_files...): its entries are what is made.
            problems += _merge(owned(target, key), value, here, use, expansion, tree)
        elif key not in target:
            target[key] = value
            if isinstance(target, SpecMap):
                copy_marks(made, target, key)
            expansion.made[here] = [use]
        elif here in expansion.made and current == value:
            if use not in expansion.made[here]:  # made alike by two uses: one entry, both its makers
                expansion.made[here].append(use)
        else:
            others = expansion.made.get(here)
            by = (
                f"{others[0].label} makes it too" if others else f"the spec writes it at {locate(tree, here, key=True)}"
            )
            message = f"{use.label} makes {key_path(here)}, but {by}; change one of them"
            problems.append(
                Diagnostic(
                    message, locate(tree, (use.collection, use.name), key=True), key_path((use.collection, use.name))
                )
            )
    return problems


def merges_into(path: Path) -> bool:
    """Whether made entries merge into what the spec has at `path` (a collection, a player's
    attachments...) rather than being entries of their own (an attachment, a step)."""
    return len(path) < 4 and not (path[0] == "sequence" and len(path) == 2)


def attribute(problem: Diagnostic, expansion: Expansion) -> Diagnostic:
    """A problem found in an entry a pattern made, said of the use that made it."""
    if not expansion.made or not problem.key_path:
        return problem
    for path, uses in expansion.made.items():
        made = key_path(path)
        rest = problem.key_path[len(made) :]
        if problem.key_path.startswith(made) and (not rest or rest[0] in ".["):
            where = key_path((uses[0].collection, uses[0].name))
            if problem.message.startswith("!delete of "):
                # Deleting what a pattern makes: the spec has it only through the use.
                message = f"{uses[0].label} makes this: delete the use instead ({where}: !delete)"
                return Diagnostic(message, problem.mark, problem.key_path, problem.severity)
            message = f"{problem.message} (in {problem.key_path}, made by {uses[0].label})"
            return Diagnostic(message, problem.mark, where, problem.severity)
    return problem


def made_by(spec: Any) -> dict[Path, list[Use]]:
    """What the pattern uses of a `Spec` make (tree path -> the uses), from the uses alone: what a
    build merged in, without the tree it was merged into."""
    made: dict[Path, list[Use]] = {}
    uses: dict[str, dict[str, Pattern | None]] = {}
    for pattern in PATTERNS:
        for name, use in getattr(spec, pattern.collection, {}).items():
            try:
                documents = use.make(name, uses)
            except PatternError:
                continue  # the build reported it; a spec that loaded has none
            uses.setdefault(pattern.collection, {})[name] = use
            who = Use(pattern.collection, name, pattern.noun)
            for document in documents:
                for path in _entries(document, ()):
                    made.setdefault(path, []).append(who)
    return made


def _entries(node: dict[str, Any], path: Path) -> Iterator[Path]:
    for key, value in node.items():
        here = (*path, key)
        if isinstance(value, dict) and merges_into(here):
            yield from _entries(value, here)
        else:
            yield here
