"""Names are one line of printable text: every key of a spec and every name it writes.

A name goes into an XML attribute, where a line break is read back as a space (so `map.yml`, which
keeps it, and the game disagree on the game's name), and into map.yml, .properties files and the
engine's menus. A line break (including U+0085, U+2028 and U+2029), a tab, a control character or
an invisible formatting character in a name is refused, at the line that wrote it. Free text
(notes, a property's value, the rule ledger's prose, lines of the map's .properties files,
attachment option values) may hold what it likes.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from generator.diagnostics import Diagnostic, key_path
from generator.spec.locate import locate
from generator.spec.model import Property, Spec
from generator.spec.patterns.base import Part

Path = tuple[str | int, ...]
# Fields of free text, by (model, key); the values of `properties` are also free text (notes are one).
_FREE_TEXT = {
    ("Spec", "notes"),
    ("Spec", "map_files"),
    ("Spec", "rule_ledger"),
    ("Step", "properties"),
    ("Property", "value"),
    ("AttachmentTemplate", "options"),
}
_LINE_BREAKS = {
    "\n": "a line break",
    "\r": "a line break",
    "\x85": "a line break (U+0085)",
    "\u2028": "a line separator (U+2028)",
    "\u2029": "a paragraph separator (U+2029)",
    "\t": "a tab",
}
_JOINERS = {"\u200c", "\u200d"}  # zero-width (non-)joiners: part of how some scripts and emoji are written


def name_problem(name: str) -> str | None:
    """What makes `name` more than one line of printable text, or None."""
    if name.isprintable():  # nearly every name (the set it refuses holds all that is refused here)
        return None
    for char in name:
        if char in _LINE_BREAKS:
            what = _LINE_BREAKS[char]
        elif unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp") and char not in _JOINERS:
            kind = "a control character" if unicodedata.category(char) == "Cc" else "an invisible character"
            what = f"{kind} (U+{ord(char):04X})"
        else:
            continue
        shown = name.encode("unicode_escape").decode("ascii")
        shown = shown if len(shown) <= 60 else shown[:60] + "..."
        return f"'{shown}' holds {what}: a name is one line of printable text; remove it"
    return None


def check_names(spec: Spec, tree: Any) -> list[Diagnostic]:
    """Every key of the resolved `tree` and every name-valued field of `spec`, as names."""
    found: list[Diagnostic] = []
    for path, name, is_key in [*_keys(tree, ()), *((p, n, False) for p, n in _names(spec, ()))]:
        problem = name_problem(name)
        if problem:
            found.append(Diagnostic(problem, locate(tree, path, key=is_key), key_path(path)))
    return found


def _keys(value: Any, path: Path) -> Iterator[tuple[Path, str, bool]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield (*path, key), str(key), True
            yield from _keys(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _keys(item, (*path, index))


def _names(value: Any, path: Path) -> Iterator[tuple[Path, str]]:
    """(path, text) of every text of the model that is a name (keys are said by `_keys`)."""
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, Part):
        return  # a rule pattern's parameters: what it makes is in the tree, keys and all
    elif isinstance(value, BaseModel):
        model = type(value).__name__
        for name, field in type(value).model_fields.items():
            key = field.alias or name
            if (model, key) not in _FREE_TEXT:
                yield from _names(getattr(value, name), (*path, key))
    elif isinstance(value, dict):
        for key, item in value.items():
            if path == ("properties",) and not isinstance(item, Property):
                continue  # a property's value, written plainly
            yield from _names(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _names(item, (*path, index))
