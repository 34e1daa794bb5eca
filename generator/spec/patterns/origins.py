"""Where what a rule pattern makes is said: at the parameter a value is, else at the use.

A pattern's template writes spec YAML (generator/spec/patterns/expansion.py reads it back). While a
use renders, `yaml_value` writes each string that is one of the use's parameters, the very object
the spec loader made, tagged with its origin (`!origin3 "Germans"`); the loader gives a tagged
value the position `Mark(ORIGIN_FILE, 3, 0)`, and `relocate` puts the parameter's line there and
the use's line everywhere else.
"""

from __future__ import annotations

import json
from contextvars import ContextVar
from typing import Any

import jinja2

from generator.diagnostics import Mark
from generator.spec.load import ORIGIN_FILE, ORIGIN_TAG, SpecList, SpecMap

__all__ = ["RENDERING", "Origins", "parameter_origins", "relocate", "yaml_value"]


class Origins:
    """The strings a use's parameters hold, by identity, and where the spec gives each.

    A pattern's model passes a parameter's value through as the very object the spec loader made
    (pydantic keeps a plain str as it is), so a value a template writes is that parameter's when it
    *is* that object; what the model computes is a new object, said at the use. Nothing is
    matched by text: two parameters that happen to be equal keep their own lines.
    """

    def __init__(self, use: Mark | None) -> None:
        self.use = use
        self.marks: list[Mark | None] = []
        self.index: dict[int, int] = {}
        self._held: list[str] = []  # keeps each object alive, so its id stays its own

    def add(self, value: str, mark: Mark | None) -> None:
        if id(value) not in self.index:
            self.index[id(value)] = len(self.marks)
            self.marks.append(mark)
            self._held.append(value)

    def of(self, mark: Mark | None) -> Mark | None:
        """Where a made value is said: its parameter's line if the template wrote one, else the use's."""
        if mark is not None and mark.file == ORIGIN_FILE:
            return self.marks[mark.line]
        return self.use


# The parameters of the use whose template is rendering (None: write plain values).
RENDERING: ContextVar[Origins | None] = ContextVar("rendering", default=None)


def yaml_value(value: Any) -> str:
    """Every `{{ }}` of a pattern template writes one whole YAML value: JSON is YAML (1.2), and
    quoting every name keeps a territory called 'yes' or '1:30' what it is. A string that is one
    of the rendering use's parameters is tagged with its origin (`!origin3 "Germans"`)."""
    if isinstance(value, jinja2.Undefined):
        return str(value)
    origins = RENDERING.get()
    if origins is None or not _holds_parameter(value, origins):
        return json.dumps(value, ensure_ascii=False)
    return _tagged(value, origins)


def _holds_parameter(value: Any, origins: Origins) -> bool:
    if isinstance(value, str):
        return id(value) in origins.index
    if isinstance(value, dict):
        return any(_holds_parameter(k, origins) or _holds_parameter(v, origins) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(_holds_parameter(item, origins) for item in value)
    return False


def _tagged(value: Any, origins: Origins) -> str:
    """`value` as a YAML flow value, each parameter string in it tagged with its origin."""
    if isinstance(value, str):
        text = json.dumps(value, ensure_ascii=False)
        index = origins.index.get(id(value))
        return text if index is None else f"{ORIGIN_TAG}{index} {text}"
    if isinstance(value, dict):
        items = (
            f"{_tagged(k if isinstance(k, str) else _json_key(k), origins)}: {_tagged(v, origins)}"
            for k, v in value.items()
        )
        return "{" + ", ".join(items) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_tagged(item, origins) for item in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _json_key(key: Any) -> str:
    """The text JSON makes of a key that is not a string (1 -> "1", True -> "true")."""
    return str(next(iter(json.loads(json.dumps({key: None})))))


def parameter_origins(params: Any, use: Mark | None) -> Origins:
    """Each string the use's parameters hold (values, list items, names given as keys) and its line."""
    origins = Origins(use)

    def walk(node: Any, nested: bool = False) -> None:
        if isinstance(node, SpecMap):
            for key, value in node.items():
                if isinstance(value, str) and key in node.value_marks:
                    origins.add(value, node.value_marks[key])
                if nested and key in node.key_marks:
                    origins.add(key, node.key_marks[key])  # a name given as a key: {PUs: 5}
                walk(value, True)
        elif isinstance(node, SpecList):
            for index, item in enumerate(node):
                if isinstance(item, str) and index < len(node.item_marks):
                    origins.add(item, node.item_marks[index])
                walk(item, True)

    walk(params)
    return origins


def relocate(node: Any, origins: Origins) -> None:
    """Every position in `node` (which were in the template's output) becomes a position in the
    spec: a value's origin where the template wrote a parameter, else the use."""
    if isinstance(node, SpecMap):
        node.mark = origins.use
        for key, value in node.items():
            # An option is said at the parameter its value repeats (checks point at an option's key).
            node.key_marks[key] = node.value_marks[key] = origins.of(node.value_marks.get(key))  # type: ignore[assignment]
            relocate(value, origins)
    elif isinstance(node, SpecList):
        node.mark = origins.use
        node.item_marks = [origins.of(mark) for mark in node.item_marks]  # type: ignore[misc]
        for item in node:
            relocate(item, origins)
