"""The engine's own value of an option nobody sets: a value equal to it is no change.

A spec that writes `blockadeZone: false` and one that leaves it out make the same game, so the
diff must not report it. The catalogs (generator/catalog/) record each option's starting value in
engines 1.9 and 2.x, read from the engines themselves; only a value both engines start with
counts, so a game made for either is compared the way it plays.
"""

from __future__ import annotations

from functools import cache

from generator.catalog import load_catalog
from generator.diff.facts import Entity, Key
from generator.spec.kinds import WITH_MAIN, class_from_name
from generator.targets import ENGINES

# The attachment class whose options an entry of an options domain holds.
_CLASS_OF_DOMAIN = {
    **{k.collection: str(k.main_class) for k in WITH_MAIN},  # a diff domain has its collection's name
    "conditions": "RulesAttachment",
    "triggers": "TriggerAttachment",
    "user_actions": "UserActionAttachment",
    "politics": "PoliticalActionAttachment",
}


@cache
def _defaults(attachment_class: str) -> dict[str, str]:
    """Options of the class with the same starting value in every engine, as the engine's text."""
    per_engine = []
    for engine in ENGINES:
        options = load_catalog(engine)["attachments"].get(attachment_class, {}).get("options", {})
        per_engine.append({name: str(o["default"]) for name, o in options.items() if o.get("default") is not None})
    first, *rest = per_engine
    return {name: value for name, value in first.items() if all(other.get(name) == value for other in rest)}


def attachment_class(domain: str, key: Key, entity: Entity) -> str | None:
    """The class of the attachment an entry's fields are options of, if any."""
    if domain in _CLASS_OF_DOMAIN:
        return _CLASS_OF_DOMAIN[domain]
    if domain != "attachments":
        return None
    named = entity.get("class")
    if isinstance(named, str):
        return named
    return class_from_name(key[-1])


def is_default(attachment: str | None, option: str, value: object) -> bool:
    """`value` is what the engine assumes for `option` when it is not set."""
    return attachment is not None and isinstance(value, str) and _defaults(attachment).get(option) == value
