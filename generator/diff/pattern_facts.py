"""Rule patterns in a diff: each use is one entry (its parameters), and what it makes is left out.

A changed parameter ("national advantage RuWinter: gain.PUs 5 -> 7") is the change a reviewer reads;
the conditions and triggers it makes differ for that one reason and would only repeat it. What a
use makes is found from the uses themselves (spec.patterns.expansion.made_by), so a variant, a
revision or any spec diffs alike.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from generator.spec.kinds import KIND_OF_COLLECTION
from generator.spec.model import Spec
from generator.spec.patterns import PATTERNS, Pattern
from generator.spec.patterns.expansion import made_by

Value = str | tuple[str, ...]
Entity = dict[str, Value]
Key = tuple[str, ...]

# Fact domains an attachment of a holder may be reported in (by its class).
_ATTACHMENT_DOMAINS = ("conditions", "triggers", "user_actions", "politics", "attachments")
# Collections whose entries are facts of one domain keyed by the entry's name.
_ENTRY_DOMAINS = {
    "units": "units", "territories": "territories", "technologies": "technologies", "sequence": "steps",
    "territory_effects": "territory_effects", "relationship_types": "relationship_types", "delegates": "delegates",
    "production_rules": "production_rules", "resources": "resources", "properties": "properties",
}  # fmt: skip


def plural(noun: str) -> str:
    if noun.endswith("s"):
        return noun
    return noun[:-1] + "ies" if noun.endswith("y") else noun + "s"


def _text(value: Any) -> str:
    """A parameter value as one line of YAML flow text, in its own order."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_text(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_text(v) for v in value) + "]"
    return "none" if value is None else str(value)


def _fields(value: Any, path: str, out: Entity) -> None:
    """Mappings are followed (gain.PUs, choose.in); a list of names is a set of fields' words
    (+India -Egypt); anything else is one field."""
    if isinstance(value, dict) and value:
        for key, item in value.items():
            _fields(item, f"{path}.{key}", out)
    elif isinstance(value, list) and value and all(not isinstance(v, dict | list) for v in value):
        out[path] = tuple(_text(v) for v in value)
    else:
        out[path] = _text(value)


def use_entity(use: Pattern) -> Entity:
    """A use's parameters as fields: every parameter given (defaults left out)."""
    entity: Entity = {}
    for name, value in use.model_dump(by_alias=True, exclude_defaults=True).items():
        if name in use.ordered and isinstance(value, dict):  # the order is the rule: one line, in order
            entity[name] = ", ".join(f"{k} {_text(v)}" for k, v in value.items())
        else:
            _fields(value, name, entity)
    return entity


def pattern_facts(spec: Spec) -> dict[str, dict[Key, Entity]]:
    """Per pattern collection: each use's parameters."""
    return {
        p.collection: {(name,): use_entity(use) for name, use in getattr(spec, p.collection).items()} for p in PATTERNS
    }


def made_paths(spec: Spec) -> set[tuple[str | int, ...]]:
    return set(made_by(spec))


def drop_made(made: set[tuple[str | int, ...]], facts: dict[str, dict[Key, Entity]], n: Callable[[str], str]) -> None:
    """Leave out of `facts` every entry (or field) a pattern use makes; `n` renames as the facts did."""
    for path in made:
        head, names = path[0], [n(str(part)) for part in path[1:]]
        if head in KIND_OF_COLLECTION and len(path) == 4 and path[2] == "attachments":
            for domain in _ATTACHMENT_DOMAINS:
                facts[domain].pop((names[0], names[2]), None)
        elif head == "map_files" and len(path) == 3:
            facts["map_files"].pop((str(path[1]), str(path[2])), None)
        elif head in _ENTRY_DOMAINS and len(path) == 2:
            facts[_ENTRY_DOMAINS[head]].pop((names[0],), None)
        elif head in _ENTRY_DOMAINS and len(path) == 3:  # one option of an entry the spec writes
            entity = facts[_ENTRY_DOMAINS[head]].get((names[0],))
            if entity is not None:
                entity.pop(str(path[2]), None)
