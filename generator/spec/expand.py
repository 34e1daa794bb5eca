"""Variables and attachment templates: write an attachment once, get one per value.

This is TripleA 2.x's `variableList` and `foreach`, made part of the spec so both engines get the
result (1.9 knows neither: the build writes every attachment out). A spec may say

    variables:
      players: [Germans, Japanese]
    attachment_templates:
      triggerAttachment_@players@_Income:
        foreach: $players$          # '$a$:$b$' steps variables together, '^' nests a second loop
        # name: ...                 # the attachment's name when the key cannot be it (two templates
        #                           # make attachments of the same name pattern)
        attach_to: "@players@"
        type: player                # unitType, territory, player, resource, relationship...
        options: {resource: PUs, resourceCount: 5, players: $players$}

and gets one attachment per player, `@players@` replaced by that player, `$players$` by all of
them joined with ':'. An option naming a loop variable whose value is empty is left out, and
`$name$` is also replaced in the options of ordinary attachments, all as 2.x does.
Expansion runs on the resolved tree, so errors in made attachments point at their template.

A variable may list another, which multiplies: nine variables of ten items, each naming the one
before, stand for 10^9 values. What expansion makes is bounded like YAML aliases are (see
load.MAX_EXPANDED_NODES): counted before it is made, and refused at the line that asks for too much.
"""

from __future__ import annotations

import math
from typing import Any

from generator.diagnostics import Diagnostic, key_path
from generator.errors import TripleaForgeError
from generator.spec.kinds import KIND_OF_TYPE, KINDS
from generator.spec.load import SpecList, SpecMap
from generator.spec.locate import locate
from generator.spec.template_claims import claim_main

TEMPLATE_KEYS = {"name", "foreach", "attach_to", "type", "class", "options", "ledger", "ledger_options"}
# The biggest real game we know (imperialism_1974_board_game.xml) makes 114,467 values (a second,
# 80 MB); these bounds leave room for games a few times bigger and keep a hostile spec to seconds.
MAX_EXPANDED_VALUES = 500_000  # variable values, attachments made and their options, together
MAX_EXPANDED_CHARS = 16 * 1024 * 1024  # characters of text with variables filled in


class TooMuch(TripleaForgeError):
    """The expansion would pass one of its bounds; the message says by how much, `path` where."""

    def __init__(self, message: str, path: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.path = path


class Budget:
    """What one spec's expansion may still make; checked before anything is made."""

    def __init__(self) -> None:
        self.values = 0
        self.chars = 0

    def spend(self, values: int, chars: int = 0, why: str = "a variable that names another repeats its values") -> None:
        """Count what is about to be made; `why` says how it grew so big (in the message)."""
        if self.values + values > MAX_EXPANDED_VALUES:
            raise TooMuch(
                f"would make {self.values + values:,} values here, more than the {MAX_EXPANDED_VALUES:,} that "
                f"variables and templates may make in all ({why}): list fewer values"
            )
        if self.chars + chars > MAX_EXPANDED_CHARS:
            raise TooMuch(
                f"would make {self.chars + chars:,} characters of text here, more than the {MAX_EXPANDED_CHARS:,} "
                "that variables and templates may make in all (each $name$ stands for all of its values): name "
                "fewer or smaller variables"
            )
        self.values += values
        self.chars += chars


def variable_values(variables: dict[str, Any], budget: Budget | None = None) -> dict[str, list[str]]:
    """`$name$` -> its values, a variable named among another's values expanded in place.

    Each variable's size is counted before its values are made; past the budget, TooMuch at it.
    """
    budget = budget or Budget()
    out: dict[str, list[str]] = {}
    chars: dict[str, int] = {}  # characters of each variable's values, known before they are made
    for name, values in variables.items():
        items = ["" if item is None else str(item) for item in (values if isinstance(values, list) else [values])]
        named = [text if text.startswith("$") and text in out else None for text in items]
        count = sum(len(out[key]) if key else 1 for key in named)
        size = sum(chars[key] if key else len(text) for key, text in zip(named, items, strict=True))
        try:
            budget.spend(count, size)
        except TooMuch as exc:
            raise TooMuch(str(exc), ("variables", name)) from None
        out[f"${name}$"] = [
            value for key, text in zip(named, items, strict=True) for value in (out[key] if key else [text])
        ]
        chars[f"${name}$"] = size
    return out


def loop_rounds(
    foreach: str, variables: dict[str, list[str]], budget: Budget | None = None
) -> list[dict[str, str]] | None:
    """Each round of a `foreach` as {'@name@': value}; None when it names an unknown variable."""
    loops = foreach.split("^")
    groups = [loop.split(":") for loop in loops]
    if len(loops) > 2 or any(name not in variables for group in groups for name in group):
        return None
    # A '^' nests the second loop in the first: rounds multiply, so count them before making them.
    rounds_made = math.prod(len(variables[group[0]]) for group in groups)
    (budget or Budget()).spend(rounds_made, why="'^' makes a round for every pair of values")

    def rounds(group: list[str]) -> list[dict[str, str]]:
        length = len(variables[group[0]])
        return [
            {f"@{name.strip('$')}@": (variables[name][i] if i < len(variables[name]) else "") for name in group}
            for i in range(length)
        ]

    outer = rounds(groups[0])
    if len(groups) == 1:
        return outer
    return [{**inner, **first} for first in outer for inner in rounds(groups[1])]


def fill(text: str, each: dict[str, str], joined: dict[str, str], budget: Budget | None = None) -> str:
    """`text` with each round's `@name@` and every `$name$` (its values joined by ':') filled in.

    The length of each step is known before it is taken: a text naming a big variable many times
    is refused (TooMuch) before it is made.
    """
    if "@" not in text and "$" not in text:  # most texts name no variable
        return text
    budget = budget or Budget()
    for key, value in (*each.items(), *joined.items()):
        if key in text:
            budget.spend(0, text.count(key) * max(len(value) - len(key), 0))
            text = text.replace(key, value)
    return text


def _fill_value(value: Any, each: dict[str, str], joined: dict[str, str], budget: Budget) -> Any:
    """A copy of an option value with variables filled in, keeping positions where it has them."""
    if isinstance(value, str):
        return fill(value, each, joined, budget)
    if isinstance(value, dict):
        out = SpecMap()
        out.mark = getattr(value, "mark", None)
        for key, item in value.items():
            out[key] = _fill_value(item, each, joined, budget)
            copy_marks(value, out, key)
        return out
    if isinstance(value, list):
        items = SpecList()
        items.mark = getattr(value, "mark", None)
        for index, item in enumerate(value):
            items.append(_fill_value(item, each, joined, budget))
            marks = getattr(value, "item_marks", None)
            if marks:
                items.item_marks.append(marks[index])
        return items
    return value


def copy_marks(source: Any, target: SpecMap, key: str) -> None:
    if isinstance(source, SpecMap) and key in source.key_marks:
        target.key_marks[key] = source.key_marks[key]
        target.value_marks[key] = source.value_marks[key]
    elif source is not None and getattr(source, "mark", None) is not None:
        target.key_marks[key] = target.value_marks[key] = source.mark


def _text(value: Any) -> str:
    if isinstance(value, list):
        return ":".join(_text(v) for v in value)
    if isinstance(value, dict):
        return _text(value.get("count", "")) + ":" + _text(value.get("value", ""))
    return "" if value is None else str(value)


def expand_templates(tree: Any) -> tuple[Any, list[Diagnostic]]:
    """The tree with every template made into attachments and `$variables$` filled in.

    None instead of a tree when the expansion would pass its bounds: like an alias bomb, such a
    spec is refused whole (what was made of it so far would only raise false alarms).
    """
    if not isinstance(tree, dict) or ("variables" not in tree and "attachment_templates" not in tree):
        return tree, []
    problems: list[Diagnostic] = []
    raw_variables = tree.get("variables") or {}
    if not isinstance(raw_variables, dict) or not all(isinstance(v, list) for v in raw_variables.values()):
        problems.append(Diagnostic("expected a mapping of names to lists", locate(tree, ("variables",)), "variables"))
        raw_variables = {}
    out = shallow(tree)
    for key in ("variables", "attachment_templates"):
        out.pop(key, None)
    budget = Budget()
    try:
        lists = variable_values(raw_variables, budget)
        joined = {key: ":".join(values) for key, values in lists.items()}
        _fill_plain_attachments(out, joined, budget)
        templates = tree.get("attachment_templates") or {}
        if not isinstance(templates, dict):
            problems.append(Diagnostic("expected a mapping of templates", locate(tree, ("attachment_templates",))))
            return out, problems
        for name, template in templates.items():
            try:
                problems += _expand_one(out, tree, name, template, lists, joined, budget)
            except TooMuch as exc:
                raise TooMuch(str(exc), exc.path or ("attachment_templates", name)) from None
    except TooMuch as exc:
        return None, [*problems, Diagnostic(str(exc), locate(tree, exc.path), key_path(exc.path))]
    return out, problems


def _expand_one(
    out: dict[str, Any], tree: Any, name: str, template: Any, lists: dict[str, list[str]], joined: dict[str, str],
    budget: Budget,
) -> list[Diagnostic]:  # fmt: skip
    """Every attachment one template makes, added to `out`; the problems of the template."""
    path = ("attachment_templates", name)
    if not isinstance(template, dict):
        return [Diagnostic("expected a mapping", locate(tree, path), key_path(path))]
    shape = _shape_problem(template)
    if shape is not None:
        bad = (*path, shape[0])
        return [Diagnostic(shape[1], locate(tree, bad), key_path(bad))]
    problems = []
    for key in sorted(set(template) - TEMPLATE_KEYS):
        where = (*path, key)
        problems.append(Diagnostic(f"unknown key '{key}'", locate(tree, where, key=True), key_path(where)))
    foreach = str(template.get("foreach") or "")
    try:
        rounds = loop_rounds(foreach, lists, budget) if foreach else [{}]
    except TooMuch as exc:
        raise TooMuch(str(exc), (*path, "foreach")) from None
    kind = str(template.get("type") or "unitType")
    if rounds is None:
        message = f"foreach '{foreach}' names an unknown variable or has more than one '^'"
        return [*problems, Diagnostic(message, locate(tree, (*path, "foreach")), key_path((*path, "foreach")))]
    if kind not in KIND_OF_TYPE:
        message = f"type '{kind}' is not one of {', '.join(KIND_OF_TYPE)}"
        return [*problems, Diagnostic(message, locate(tree, (*path, "type")), key_path((*path, "type")))]
    # What each option's value says, once per template (its rounds only fill it in).
    options = template.get("options") or {}
    texts = {key: _text(value) for key, value in options.items()}
    budget.spend(len(rounds) * max(len(options), 1), why="each round makes an attachment with every option")
    for each in rounds:
        problems += _make(out, tree, name, template, kind, each, joined, texts, budget)
    return problems


def _shape_problem(template: dict[str, Any]) -> tuple[str, str] | None:
    """(key, message) for the first template field of the wrong kind, else None."""
    for key in ("name", "foreach", "attach_to", "type", "class"):
        if key in template and not isinstance(template[key], str):
            return key, "expected text"
    if not isinstance(template.get("options", {}), dict):
        return "options", "expected a mapping of option names to values"
    if "attach_to" not in template:
        return "attach_to", "missing required key 'attach_to'"
    return None


def shallow(tree: Any) -> Any:
    if isinstance(tree, SpecMap):
        copy = SpecMap()
        copy.mark = tree.mark
        copy.update(tree)
        copy.key_marks.update(tree.key_marks)
        copy.value_marks.update(tree.value_marks)
        return copy
    return dict(tree)


class _OwnMap(SpecMap):
    """A container expansion made itself: safe to change in place (inputs never are)."""


class _OwnDict(dict[str, Any]):
    """The plain-dict twin of _OwnMap, for trees without positions (an import being checked)."""


def owned(parent: dict[str, Any], key: str) -> Any:
    """parent[key] as a container of our own (copied once, created if missing), so inputs stay untouched.

    A template makes many attachments under the same owners: copying each container once, not
    once per attachment made, keeps big expansions linear.
    """
    current = parent.get(key)
    if isinstance(current, _OwnMap | _OwnDict):
        return current
    copy: dict[str, Any]
    if isinstance(current, SpecMap) or (not isinstance(current, dict) and isinstance(parent, SpecMap)):
        copy = _OwnMap()
        if isinstance(current, SpecMap):
            copy.update(current)
            copy.key_marks.update(current.key_marks)
            copy.value_marks.update(current.value_marks)
        copy.mark = getattr(current, "mark", None) or getattr(parent, "mark", None)
    else:
        copy = _OwnDict(current if isinstance(current, dict) else {})
    parent[key] = copy
    if isinstance(parent, SpecMap) and key not in parent.key_marks and parent.mark is not None:
        parent.key_marks[key] = parent.value_marks[key] = parent.mark
    return copy


def _fill_plain_attachments(tree: dict[str, Any], joined: dict[str, str], budget: Budget) -> None:
    """2.x replaces `$name$` in every option value, templated or not (only known names change).

    Past the budget, TooMuch at the option being filled.
    """
    if not joined:
        return
    for collection in (k.collection for k in KINDS):
        objects = tree.get(collection)
        if not isinstance(objects, dict):
            continue
        for owner, entry in list(objects.items()):
            if not isinstance(entry, dict) or not any(key in _text_deep(entry) for key in joined):
                continue
            objects_copy = owned(tree, collection)
            entry_copy = owned(objects_copy, owner)
            for key, value in entry.items():
                try:
                    entry_copy[key] = _fill_value(value, {}, joined, budget)
                except TooMuch as exc:
                    raise TooMuch(str(exc), (collection, str(owner), key)) from None


def _text_deep(value: Any) -> str:
    if isinstance(value, dict):
        return " ".join(_text_deep(v) for v in value.values())
    if isinstance(value, list):
        return " ".join(_text_deep(v) for v in value)
    return "" if value is None else str(value)


def _make(
    out: dict[str, Any], tree: Any, name: str, template: dict[str, Any], kind: str, each: dict[str, str],
    joined: dict[str, str], texts: dict[str, str], budget: Budget,
) -> list[Diagnostic]:  # fmt: skip
    collection = KIND_OF_TYPE[kind].collection
    made_name = fill(str(template.get("name") or name), each, {}, budget)
    target = fill(str(template.get("attach_to") or ""), each, {}, budget)
    objects = owned(out, collection)
    if target not in objects:
        where = ("attachment_templates", name, "attach_to")
        return [Diagnostic(f"attaches to unknown {kind} '{target}'", locate(tree, where), key_path(where))]
    owner = owned(objects, target)
    options = template.get("options") or {}
    made: dict[str, Any] = SpecMap() if isinstance(options, SpecMap) else {}
    if isinstance(made, SpecMap) and isinstance(options, SpecMap):
        made.mark = options.mark
    for key, value in options.items():
        text = texts[key]
        # An option naming a loop variable that is empty in this round is left out (as in 2.x).
        if any(not v and k in text for k, v in each.items()):
            continue
        # A value naming no variable is the template's own (nothing changes it later): not copied.
        made[key] = _fill_value(value, each, joined, budget) if "@" in text or "$" in text else value
        if isinstance(made, SpecMap):
            copy_marks(options, made, key)
    if KIND_OF_TYPE[kind].is_main(made_name, template.get("class")):
        for key, value in made.items():
            owner[key] = value
            if isinstance(owner, SpecMap):
                copy_marks(made, owner, key)
        claim_main(owner, template, list(made))
        return []
    attachments = owned(owner, "attachments")
    entry = made
    for extra in ("class", "ledger", "ledger_options"):
        if template.get(extra) is not None:
            entry[extra] = template[extra]
            if isinstance(entry, SpecMap):  # a problem with a made claim points at the template's
                copy_marks(template, entry, extra)
    attachments[made_name] = entry
    mark = getattr(template, "mark", None) or getattr(attachments, "mark", None)
    if isinstance(attachments, SpecMap) and mark is not None:
        attachments.key_marks[made_name] = attachments.value_marks[made_name] = mark
    return []
