"""A spec with structural errors, repaired just enough for the later checks to run on the rest.

When the model refuses a tree (a wrong type, an unknown key, a missing key), the user should still
hear about dangling references and silent mistakes elsewhere in the same run. Here a copy of the
tree is repaired where the model complained: an unknown key is dropped, a wrong value is dropped
when the model has a default for it or replaced by the simplest value of its type when it has
none, and the copy is validated again. The places repaired are returned, so the later checks say
nothing more about them. The repaired spec is only ever used for checking, never built.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ValidationError
from pydantic_core import PydanticUndefined

from generator.spec.load import SpecList, SpecMap
from generator.spec.locate import node_at
from generator.spec.model import Spec
from generator.spec.validation import keys_only, model_in

Path = tuple[str | int, ...]
_ROUNDS = 6  # each round repairs every place the model named; nesting needs a few rounds


def _plain(value: Any) -> Any:
    if isinstance(value, SpecMap | dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, SpecList | list):
        return [_plain(v) for v in value]
    return value


def _simplest(annotation: Any) -> Any:
    """The simplest value the model accepts for `annotation` (None where it is optional)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        members = typing.get_args(annotation)
        if type(None) in members:
            return None
        return _simplest(members[0])
    if origin is Literal:
        return typing.get_args(annotation)[0]
    if origin is dict or annotation is dict:
        return {}
    if origin is list or annotation is list:
        return []
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return {
            (f.alias or name): _simplest(f.annotation) for name, f in annotation.model_fields.items() if f.is_required()
        }
    return {bool: False, int: 0, str: "", float: 0.0}.get(annotation, "")


def _field(loc: Path) -> tuple[Any, bool]:
    """(annotation, has a default) of the model field at `loc`, or (None, True) inside a collection."""
    annotation: Any = Spec
    has_default = True
    for part in loc:
        model = model_in(annotation)
        if model is not None and isinstance(part, str):
            field = next((f for n, f in model.model_fields.items() if (f.alias or n) == part), None)
            if field is None:
                return None, True
            annotation = field.annotation
            has_default = field.default is not PydanticUndefined or field.default_factory is not None
        elif typing.get_origin(_collection(annotation)) in (dict, list):
            annotation = typing.get_args(_collection(annotation))[-1]
            has_default = True  # an entry of a mapping or list can always go
        else:
            return None, True
    return annotation, has_default


def _collection(annotation: Any) -> Any:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return next((a for a in typing.get_args(annotation) if typing.get_origin(a) in (dict, list)), annotation)
    return annotation


def _coerced(value: Any, annotation: Any) -> Any:
    """`value` in the shape the model wanted, where the user's intent is plain; else None."""
    wanted = typing.get_origin(_collection(annotation)) or _collection(annotation)
    scalar = isinstance(value, str | int | float | bool)
    if wanted is list and scalar:
        return [value]  # `connections: Beta` meant `[Beta]`
    if (annotation is str or str in typing.get_args(annotation)) and scalar and not isinstance(value, bool):
        return str(value)  # `version: 1.0` meant "1.0"
    return None


def _repair(tree: dict[str, Any], loc: Path, kind: str, inherited: Mapping[Path, Any]) -> bool:
    """Repair the place the model named; False when it cannot be repaired. A value that replaced
    an inherited one gets that back: the rest of the game goes on as the ancestors made it."""
    if not loc:
        return False
    parent, key = node_at(tree, loc[:-1]), loc[-1]
    for depth in range(len(loc), 0, -1):
        holder = node_at(tree, loc[: depth - 1])
        if loc[:depth] in inherited and isinstance(holder, dict) and loc[depth - 1] in holder:
            holder[loc[depth - 1]] = _plain(inherited[loc[:depth]])
            return True
    annotation, has_default = _field(loc)
    if isinstance(parent, list) and isinstance(key, int) and 0 <= key < len(parent):
        parent[key] = None if annotation is None else _simplest(annotation)
        return True
    if not isinstance(parent, dict):
        return False
    if kind != "extra_forbidden" and annotation is not None and key in parent:
        coerced = _coerced(parent[key], annotation)
        if coerced is not None:
            parent[key] = coerced
            return True
    if kind == "extra_forbidden" or (has_default and key in parent):
        parent.pop(key, None)
        return True
    if annotation is None:
        return False
    parent[key] = _simplest(annotation)
    return True


def salvage(tree: Any, inherited: Mapping[tuple[str, ...], Any] | None = None) -> tuple[Spec | None, list[Path]]:
    """A Spec from a repaired copy of `tree`, and the key paths that were repaired; `inherited`:
    what the variant's ancestors had at the places it replaced (resolve.ResolvedSpec.replaced)."""
    copy = _plain(tree)
    known: dict[Path, Any] = {tuple(k): v for k, v in (inherited or {}).items()}
    repaired: list[Path] = []
    for _ in range(_ROUNDS):
        try:
            return Spec.model_validate(copy), repaired
        except ValidationError as exc:
            errors = exc.errors()
        progress = False
        # Deepest first, so an index or key repaired does not move the next one.
        for error in sorted(errors, key=lambda e: len(e["loc"]), reverse=True):
            loc = tuple(keys_only(error["loc"]))
            if loc in repaired:
                continue
            if _repair(copy, loc, error["type"], known):
                repaired.append(loc)
                progress = True
        if not progress:
            return None, repaired
    return None, repaired
