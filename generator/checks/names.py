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
from functools import cache

from pydantic import BaseModel

from generator.checks.context import CheckContext
from generator.diagnostics import Diagnostic
from generator.spec.model import Property
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


def check(ctx: CheckContext) -> list[Diagnostic]:
    """Every key of the resolved tree and every name-valued field of the spec, as names."""
    odd: list[tuple[Path, str, bool]] = []
    _keys(ctx.tree, None, odd)
    _names(ctx.spec, None, odd)
    found: list[Diagnostic] = []
    for path, name, is_key in odd:
        problem = name_problem(name)
        if problem:
            found.append(ctx.at.problem(path, problem, key=is_key))
    return found


# The walks below visit every key and name of a game (tens of thousands) and nearly all are
# printable: a place is kept as a chain (parent chain, key), spelled out only for a name that is not.
Chain = tuple["Chain", str | int] | None


def _spelled(chain: Chain) -> Path:
    parts: list[str | int] = []
    while chain is not None:
        chain, key = chain
        parts.append(key)
    return tuple(reversed(parts))


def _keys(value: object, chain: Chain, odd: list[tuple[Path, str, bool]]) -> None:
    """Into `odd`: (path, text, True) of every key under `value` that is not printable, in order."""
    if isinstance(value, dict):
        for key, item in value.items():
            text = str(key)
            if not text.isprintable():
                odd.append((_spelled((chain, key)), text, True))
            if isinstance(item, dict | list):
                _keys(item, (chain, key), odd)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            if isinstance(item, dict | list):
                _keys(item, (chain, index), odd)


def _names(value: object, chain: Chain, odd: list[tuple[Path, str, bool]]) -> None:
    """Into `odd`: (path, text, False) of every text of the model that is a name and is not
    printable (keys are said by `_keys`)."""
    if isinstance(value, str):
        if not value.isprintable():
            odd.append((_spelled(chain), value, False))
    elif isinstance(value, Part):
        return  # a rule pattern's parameters: what it makes is in the tree, keys and all
    elif isinstance(value, BaseModel):
        for name, key in _name_fields(type(value)):
            _names(getattr(value, name), (chain, key), odd)
    elif isinstance(value, dict):
        for key, item in value.items():
            if chain == (None, "properties") and not isinstance(item, Property):
                continue  # a property's value, written plainly
            _names(item, (chain, key), odd)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _names(item, (chain, index), odd)


@cache
def _name_fields(model: type[BaseModel]) -> tuple[tuple[str, str], ...]:
    """(attribute, key) of the fields of `model` that may hold names: all but free text."""
    fields = model.model_fields.items()
    return tuple(
        (name, field.alias or name) for name, field in fields if (model.__name__, field.alias or name) not in _FREE_TEXT
    )
