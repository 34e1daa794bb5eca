"""The expanded spec tree validated into the typed model (`validate_spec`), every error located.

Pydantic reports a `loc` tuple per error; this module maps it back to the YAML position of the
value (or of the key, for unknown keys) and words the message for a mod maker.
"""

from __future__ import annotations

import re
import types
import typing
from typing import Any

from pydantic import BaseModel, ValidationError

from generator.diagnostics import Diagnostic, did_you_mean, key_path
from generator.spec.locate import locate, node_at
from generator.spec.model import Spec
from generator.spec.numbers import out_of_range

_FRIENDLY: dict[str, str] = {
    "int_type": "expected a whole number",
    "int_parsing": "expected a whole number",
    "int_from_float": "expected a whole number",
    "bool_type": "expected true or false",
    "bool_parsing": "expected true or false",
    "string_type": "expected text",
    "dict_type": "expected a mapping of names to entries",
    "model_type": "expected a mapping of keys",
    "model_attributes_type": "expected a mapping of keys",
    "list_type": "expected a list",
}
_RANGE = ("greater_than_equal", "less_than_equal")


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return repr(value) if isinstance(value, str) else str(value).lower()


def validate_spec(tree: Any) -> tuple[Spec | None, list[Diagnostic]]:
    """Validate the resolved tree into a `Spec`; every structural problem becomes a Diagnostic."""
    try:
        return Spec.model_validate(tree), []
    except ValidationError as exc:
        return None, _translate(exc, tree)


def _translate(exc: ValidationError, tree: Any) -> list[Diagnostic]:
    errors = []
    for error in exc.errors():
        # Pydantic names union members in `loc` ('bool', 'Property', 'list[...]'); keep keys only.
        loc = keys_only(error["loc"])
        errors.append((loc, error))
    found: dict[tuple[str, str], Diagnostic] = {}
    # A number out of range in a union (`bool | int | str`) also fails the other members: say the range.
    ranged = {tuple(loc) for loc, error in errors if error["type"] in _RANGE}
    for loc, error in errors:
        kind = error["type"]
        deeper = any(len(other) > len(loc) and other[: len(loc)] == loc for other, _ in errors)
        if kind in _FRIENDLY and (deeper or tuple(loc) in ranged):
            continue  # a mapping was meant as the model member of a union; its own errors say more
        path = key_path(loc)
        if kind == "extra_forbidden":
            hint = did_you_mean(str(loc[-1]), _fields_at(loc[:-1]))
            message = f"unknown key '{loc[-1]}'{hint}"
            mark = locate(tree, loc, key=True)
        elif kind == "missing":
            message = f"missing required key '{loc[-1]}'"
            mark = locate(tree, loc[:-1])
        elif kind == "value_error":
            message = str(error.get("ctx", {}).get("error", error["msg"]))
            mark = locate(tree, loc)
        elif kind in _RANGE:
            message = out_of_range(error.get("input"), error.get("ctx", {}))
            mark = locate(tree, loc)
        elif kind == "string_pattern_mismatch":
            message = f"expected a version like 1.4.1, got {_describe(error.get('input'))}"
            mark = locate(tree, loc)
        else:
            given = error.get("input")
            message = f"{_FRIENDLY.get(kind, error['msg'])}, got {_describe(given)}"
            if kind == "string_type" and isinstance(given, int | float) and not isinstance(given, bool):
                message += f" (write it in quotes: '{given}')"
            mark = locate(tree, loc)
        if any(isinstance(part, str) and re.search(r":\S", part) for part in loc):
            message += " (a space is needed after the ':' of a key: `infantry: {attack: 1}`)"
        found.setdefault((path, message), Diagnostic(message, mark, path))
    return _fold_misindented(list(found.values()), errors, tree)


def _fold_misindented(found: list[Diagnostic], errors: list[tuple[list[Any], Any]], tree: Any) -> list[Diagnostic]:
    """One mistake, one error: a key left empty (`resources:`) followed by keys unknown at its level
    (`PUs:` at the same column) is one line indented too little, not an empty value and unknown keys."""
    unknown = {tuple(loc) for loc, error in errors if error["type"] == "extra_forbidden"}
    for loc, error in errors:
        if error.get("input", ...) is not None or not loc or not isinstance(loc[-1], str):
            continue
        holder = node_at(tree, loc[:-1])
        marks = getattr(holder, "key_marks", None)
        empty = marks.get(loc[-1]) if isinstance(marks, dict) else None
        if empty is None or not isinstance(marks, dict):
            continue
        after = sorted(
            ((mark.line, key) for key, mark in marks.items() if mark.file == empty.file and mark.line > empty.line),
        )
        meant = []
        for _, key in after:  # the keys right after it that are unknown at its level
            if (*loc[:-1], key) not in unknown or marks[key].col != empty.col:
                break
            meant.append(key)
        if not meant:
            continue
        named = ", ".join(f"'{k}'" for k in meant)
        one = len(meant) == 1
        subject, verb, what = ("it", "looks", "it") if one else ("they", "look", "them")
        message = (
            f"unknown key{'' if one else 's'} {named} at this level; {subject} {verb} meant under '{loc[-1]}:' "
            f"(line {empty.line}), which has nothing under it: indent {what} under '{loc[-1]}'"
        )
        gone = {key_path(loc), *(key_path([*loc[:-1], k]) for k in meant)}
        first = marks[meant[0]]
        found = [d for d in found if d.key_path not in gone]
        found.append(Diagnostic(message, first, key_path([*loc[:-1], meant[0]])))
    return found


def keys_only(loc: tuple[str | int, ...]) -> list[str | int]:
    """`loc` without the union members pydantic names in it ('int', 'Relationship', 'dict[str,int]').

    The model's annotations are followed along `loc`, so a member is told from a key that happens
    to be spelt like one (a unit named 'Property').
    """
    annotation: Any = Spec
    out: list[str | int] = []
    for part in loc:
        annotation = _unwrapped(annotation)
        if typing.get_origin(annotation) in _UNIONS and isinstance(part, str):
            # At a union every name in `loc` is a member's tag: follow that member.
            annotation = next((m for m in typing.get_args(annotation) if _member_tag(m, part)), None)
            continue
        out.append(part)
        model = annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None
        if model is not None and isinstance(part, str) and part in _field_names(model):
            annotation = model.model_fields[_field_by_alias(model, part)].annotation
        elif typing.get_origin(annotation) in (dict, list):
            annotation = typing.get_args(annotation)[-1]
        else:
            annotation = None  # an option's value, an extra key: nothing more to follow
    return out


_UNIONS = (typing.Union, types.UnionType)


def _unwrapped(annotation: Any) -> Any:
    """`annotation` without Annotated[...] and without `| None` (pydantic names no member for those)."""
    while True:
        if typing.get_origin(annotation) is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
            continue
        if typing.get_origin(annotation) in _UNIONS:
            members = [m for m in typing.get_args(annotation) if m is not type(None)]
            if len(members) == 1:
                annotation = members[0]
                continue
        return annotation


def _member_tag(member: Any, tag: str) -> bool:
    """Whether pydantic names the union `member` by `tag` in an error's loc."""
    if isinstance(member, type) and issubclass(member, BaseModel):
        return member.__name__ == tag
    origin = typing.get_origin(member)
    if origin in (dict, list):
        return tag.startswith(f"{origin.__name__}[")
    if origin is typing.Annotated:
        base = typing.get_args(member)[0]
        return tag in (f"constrained-{base.__name__}", base.__name__) or tag.startswith("function-")
    return isinstance(member, type) and tag == member.__name__


def _fields_at(loc: list[Any]) -> list[str]:
    """Key names allowed at `loc`, for 'did you mean' hints on unknown keys."""
    annotation: Any = Spec
    for part in loc:
        model = model_in(annotation)
        if model is not None and isinstance(part, str) and part in _field_names(model):
            annotation = model.model_fields[_field_by_alias(model, part)].annotation
        elif typing.get_origin(annotation) in (dict, list):
            annotation = typing.get_args(annotation)[-1]
        else:
            return []
    model = model_in(annotation)
    return _field_names(model) if model is not None else []


def _field_names(model: type[BaseModel]) -> list[str]:
    return [f.alias or name for name, f in model.model_fields.items()]


def _field_by_alias(model: type[BaseModel], key: str) -> str:
    return next(name for name, f in model.model_fields.items() if (f.alias or name) == key)


def model_in(annotation: Any) -> type[BaseModel] | None:
    """The model class that `annotation` is, or that a union in it contains."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if typing.get_origin(annotation) in (dict, list):
        return None
    for arg in typing.get_args(annotation):
        inner = model_in(arg)
        if inner is not None:
            return inner
    return None
