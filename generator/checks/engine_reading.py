"""An attachment's options and the game's properties as an engine ends up with them: its starting
values, the shortcuts an option sets, each value typed as the engine holds it (a whole number, a
boolean or text). What the engine-rule checks (engine_rules, parser_rules, in_play_rules) read.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from generator.catalog import load_catalog, resolve_option
from generator.catalog.checks import shortcuts
from generator.spec.model import Property, Spec
from generator.spec.option_values import option_writes
from generator.targets import EngineName

_INT = re.compile(r"[+-]?[0-9]+")
# `option#i` is field i of its value split at ":", `option~i` at "-" (the engine-checks catalog's conditions)
OPTION_FIELD = re.compile(r"(\w+)([#~])([0-9]+)")


@dataclass
class Attachment:
    """One attachment's options as an engine ends up with them, and which spec key set each."""

    engine: EngineName
    cls: str
    name: str
    values: dict[str, object]  # typed(): a whole number, a boolean or text; a shortcut's as its catalog sets it
    set_by: dict[str, str]
    properties: Mapping[str, object]  # the game's properties as the engine reads them (game_properties)
    direct: set[str] = field(default_factory=set)  # options written themselves, not by a shortcut
    writes: dict[str, list[str]] = field(default_factory=dict)  # every text each option was given
    current: dict[str, str] = field(default_factory=dict)  # the write of a repeated option being checked
    order: dict[str, int] = field(default_factory=dict)  # where each option was (last) written: setters run in order

    def value(self, name: str) -> object:
        if name.startswith("property:"):
            return self.properties.get(name.removeprefix("property:"))
        if name == "@name":
            return self.name
        fielded = OPTION_FIELD.fullmatch(name)
        if fielded:  # `option#i`: field i of its value split at ':', `option~i` at '-'
            option, sep, index = fielded.groups()
            written = self.writes.get(option)
            text = self.current.get(option, written[-1] if written else None)
            fields = text.split(":" if sep == "#" else "-") if text is not None else []
            return typed({}, fields[int(index)]) if int(index) < len(fields) else None
        if name in self.values:
            return self.values[name]
        resolved = _resolved(self.engine, self.cls, name, False)
        default = resolved[1].get("default") if resolved else None
        return None if default is None else typed(resolved[1] if resolved else {}, default)


@cache
def _resolved(engine: EngineName, cls: str, option: str, aliases: bool = True) -> tuple[str, Any] | None:
    """resolve_option, remembered: big maps name the same few options thousands of times."""
    return resolve_option(engine, cls, option, aliases=aliases)


def typed(spec: Mapping[str, object], text: str) -> bool | int | str:
    """An option's text as the engine holds it: a whole number, a boolean or text."""
    kind = spec.get("type")
    if kind == "bool" or (kind != "string" and text.lower() in ("true", "false")):
        return text.lower() == "true"
    if kind != "string" and _INT.fullmatch(text.strip()):
        return int(text)
    return text


def read_attachment(
    engine: EngineName, cls: str, name: str, options: Mapping[str, object], properties: Mapping[str, object]
) -> Attachment:
    """An attachment's options as `engine` ends up with them (starting values, shortcuts applied)."""
    found = Attachment(engine, cls, name, {}, {}, properties)
    for position, (key, raw) in enumerate(options.items()):
        resolved = _resolved(engine, cls, str(key))
        writes = option_writes(raw)
        if resolved is None or not writes:
            continue  # the option checks report unknown names and badly shaped values
        option, spec = resolved
        texts = [f"{count}:{value}" if count else value for value, count in writes]
        found.writes[option] = texts
        found.order[option] = position
        text = texts[-1]
        found.values[option], found.set_by[option] = typed(spec, text), str(key)
        found.direct.add(option)
        for other, set_to in shortcuts(engine, cls).get(option, {}).get(text.lower(), {}).items():
            found.values[other], found.set_by[other] = set_to, str(key)
            if other != option:  # `isMarine: true` sets isMarine itself (to 1): still written directly
                found.direct.discard(other)
    return found


def game_properties(spec: Spec, engine: EngineName) -> dict[str, object]:
    """Every game property the engine reads, as the game sets it or at its starting value."""
    values: dict[str, object] = {name: entry["default"] for name, entry in load_catalog(engine)["properties"].items()}
    for name, entry in spec.properties.items():
        value = entry.value if isinstance(entry, Property) else entry
        values[name] = typed({}, str(value).lower() if isinstance(value, bool) else str(value))
    return values
