"""How a spec option value becomes TripleA `<option>`s.

A scalar is one `<option>`; a list of scalars is one option joined by ':'; a mapping
`{value: .., count: ..}` is one option with its `count` attribute; a list whose items are lists or
such mappings is the option repeated, once per item (TripleA accumulates repeated options). Every
stage that reads options (checks, emit, diff) writes them through `option_writes`, so they agree
on what a value means.
"""

from __future__ import annotations

import math
from typing import Any

Scalar = bool | int | str
OptionValue = Any  # checked by `option_writes`; the shapes are in the module docstring


def xml_value(value: Scalar | list[Scalar]) -> str:
    """How TripleA reads a spec value: booleans lower-case, lists joined by ':'."""
    if isinstance(value, list):
        return ":".join(xml_value(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)  # the shortest text that reads back as the same number
    return str(value)


def _is_scalar(value: Any) -> bool:
    # Decimals are options too (a territory effect's movementCostModifier: 0.5); NaN and infinity are not.
    return isinstance(value, bool | int | str) or (isinstance(value, float) and math.isfinite(value))


def _one_option(value: Any) -> tuple[str, str | None] | None:
    """(value text, count text) of one written option, or None when the shape is wrong."""
    if isinstance(value, list) and all(type(v) is str for v in value):  # names: the most common list
        return ":".join(value), None
    if _is_scalar(value):
        return xml_value(value), None
    if isinstance(value, list) and all(_is_scalar(v) for v in value):
        return xml_value(value), None
    if isinstance(value, dict) and set(value) <= {"value", "count"} and "value" in value:
        inner, count = value["value"], value.get("count")
        if count is not None and not _is_scalar(count):
            return None  # `count` is free text to TripleA: a number, "each", "-reset-..." ...
        plain = _one_option(inner) if not isinstance(inner, dict) else None
        return (plain[0], None if count is None else xml_value(count)) if plain else None
    return None


def option_writes(value: Any) -> list[tuple[str, str | None]] | None:
    """Every `<option>` (value, count) one spec option writes, or None when its shape is wrong."""
    # Called for each option by every stage (a cold build asks ~50,000 times): the common shapes
    # first, without the general case's lists of lists.
    kind = type(value)
    if kind is str:
        return [(value, None)]
    if kind is bool:
        return [("true" if value else "false", None)]
    if kind is int:
        return [(str(value), None)]
    if value is None:  # an option a reader asks for and the attachment does not set
        return None
    if isinstance(value, list) and value and all(isinstance(v, list | dict) for v in value):  # repeated
        written = [_one_option(item) for item in value]
        return None if any(w is None for w in written) else [w for w in written if w is not None]
    one = _one_option(value)
    return None if one is None else [one]
