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
"""

from __future__ import annotations

from typing import Any

from generator.diagnostics import Diagnostic, key_path
from generator.spec.load import SpecList, SpecMap
from generator.spec.locate import locate
from generator.spec.model import MAIN_ATTACHMENT

COLLECTION_OF_TYPE = {
    "unitType": "units",
    "territory": "territories",
    "player": "players",
    "resource": "resources",
    "relationship": "relationship_types",
    "territoryEffect": "territory_effects",
    "technology": "technologies",
}
TEMPLATE_KEYS = {"name", "foreach", "attach_to", "type", "class", "options", "ledger"}


def variable_values(variables: dict[str, Any]) -> dict[str, list[str]]:
    """`$name$` -> its values, a variable named among another's values expanded in place."""
    out: dict[str, list[str]] = {}
    for name, values in variables.items():
        items = values if isinstance(values, list) else [values]
        expanded: list[str] = []
        for item in items:
            text = "" if item is None else str(item)
            expanded += out.get(text, [text]) if text.startswith("$") else [text]
        out[f"${name}$"] = expanded
    return out


def loop_rounds(foreach: str, variables: dict[str, list[str]]) -> list[dict[str, str]] | None:
    """Each round of a `foreach` as {'@name@': value}; None when it names an unknown variable."""
    loops = foreach.split("^")
    groups = [loop.split(":") for loop in loops]
    if len(loops) > 2 or any(name not in variables for group in groups for name in group):
        return None

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


def fill(text: str, each: dict[str, str], lists: dict[str, list[str]]) -> str:
    if "@" not in text and "$" not in text:  # most texts name no variable
        return text
    for key, value in each.items():
        text = text.replace(key, value)
    for key, values in lists.items():
        if key in text:
            text = text.replace(key, ":".join(values))
    return text


def _fill_value(value: Any, each: dict[str, str], lists: dict[str, list[str]]) -> Any:
    """A copy of an option value with variables filled in, keeping positions where it has them."""
    if isinstance(value, str):
        return fill(value, each, lists)
    if isinstance(value, dict):
        out = SpecMap()
        out.mark = getattr(value, "mark", None)
        for key, item in value.items():
            out[key] = _fill_value(item, each, lists)
            copy_marks(value, out, key)
        return out
    if isinstance(value, list):
        items = SpecList()
        items.mark = getattr(value, "mark", None)
        for index, item in enumerate(value):
            items.append(_fill_value(item, each, lists))
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
    """The tree with every template made into attachments and `$variables$` filled in."""
    if not isinstance(tree, dict) or ("variables" not in tree and "attachment_templates" not in tree):
        return tree, []
    problems: list[Diagnostic] = []
    raw_variables = tree.get("variables") or {}
    if not isinstance(raw_variables, dict) or not all(isinstance(v, list) for v in raw_variables.values()):
        problems.append(Diagnostic("expected a mapping of names to lists", locate(tree, ("variables",)), "variables"))
        raw_variables = {}
    lists = variable_values(raw_variables)
    out = shallow(tree)
    for key in ("variables", "attachment_templates"):
        out.pop(key, None)
    _fill_plain_attachments(out, lists)
    templates = tree.get("attachment_templates") or {}
    if not isinstance(templates, dict):
        problems.append(Diagnostic("expected a mapping of templates", locate(tree, ("attachment_templates",))))
        return out, problems
    for name, template in templates.items():
        path = ("attachment_templates", name)
        if not isinstance(template, dict):
            problems.append(Diagnostic("expected a mapping", locate(tree, path), key_path(path)))
            continue
        shape = _shape_problem(template)
        if shape is not None:
            bad = (*path, shape[0])
            problems.append(Diagnostic(shape[1], locate(tree, bad), key_path(bad)))
            continue
        unknown = sorted(set(template) - TEMPLATE_KEYS)
        for key in unknown:
            where = (*path, key)
            problems.append(Diagnostic(f"unknown key '{key}'", locate(tree, where, key=True), key_path(where)))
        foreach = str(template.get("foreach") or "")
        rounds = loop_rounds(foreach, lists) if foreach else [{}]
        kind = str(template.get("type") or "unitType")
        if rounds is None:
            message = f"foreach '{foreach}' names an unknown variable or has more than one '^'"
            problems.append(Diagnostic(message, locate(tree, (*path, "foreach")), key_path((*path, "foreach"))))
            continue
        if kind not in COLLECTION_OF_TYPE:
            message = f"type '{kind}' is not one of {', '.join(COLLECTION_OF_TYPE)}"
            problems.append(Diagnostic(message, locate(tree, (*path, "type")), key_path((*path, "type"))))
            continue
        # What each option's value says, once per template (its rounds only fill it in).
        texts = {key: _text(value) for key, value in (template.get("options") or {}).items()}
        for each in rounds:
            problems += _make(out, tree, name, template, kind, each, lists, texts)
    return out, problems


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


def _fill_plain_attachments(tree: dict[str, Any], lists: dict[str, list[str]]) -> None:
    """2.x replaces `$name$` in every option value, templated or not (only known names change)."""
    if not lists:
        return
    for collection in COLLECTION_OF_TYPE.values():
        objects = tree.get(collection)
        if not isinstance(objects, dict):
            continue
        for owner, entry in list(objects.items()):
            if not isinstance(entry, dict) or not any(key in _text_deep(entry) for key in lists):
                continue
            objects_copy = owned(tree, collection)
            entry_copy = owned(objects_copy, owner)
            for key, value in entry.items():
                entry_copy[key] = _fill_value(value, {}, lists)


def _text_deep(value: Any) -> str:
    if isinstance(value, dict):
        return " ".join(_text_deep(v) for v in value.values())
    if isinstance(value, list):
        return " ".join(_text_deep(v) for v in value)
    return "" if value is None else str(value)


def _make(
    out: dict[str, Any], tree: Any, name: str, template: dict[str, Any], kind: str, each: dict[str, str],
    lists: dict[str, list[str]], texts: dict[str, str],
) -> list[Diagnostic]:  # fmt: skip
    collection = COLLECTION_OF_TYPE[kind]
    made_name = fill(str(template.get("name") or name), each, {})
    target = fill(str(template.get("attach_to") or ""), each, {})
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
        made[key] = _fill_value(value, each, lists) if "@" in text or "$" in text else value
        if isinstance(made, SpecMap):
            copy_marks(options, made, key)
    main = MAIN_ATTACHMENT.get(kind)
    if main is not None and main[0] == made_name and template.get("class") in (None, main[1]):
        for key, value in made.items():
            owner[key] = value
            if isinstance(owner, SpecMap):
                copy_marks(made, owner, key)
        return []
    attachments = owned(owner, "attachments")
    entry = made
    for extra in ("class", "ledger"):
        if template.get(extra) is not None:
            entry[extra] = template[extra]
            if isinstance(entry, SpecMap):  # a problem with a made claim points at the template's
                copy_marks(template, entry, extra)
    attachments[made_name] = entry
    mark = getattr(template, "mark", None) or getattr(attachments, "mark", None)
    if isinstance(attachments, SpecMap) and mark is not None:
        attachments.key_marks[made_name] = attachments.value_marks[made_name] = mark
    return []
