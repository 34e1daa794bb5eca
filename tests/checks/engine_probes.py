"""Smallest games that break one engine check each, made from the catalog's rules (tests only).

For every alternative of a rule (and, for an alternative with `any`, every one of those
conditions), `violations` makes the options that meet it: a *probe*, the tiny fixture plus one
attachment carrying them, which the engine must refuse; and a *neighbour*, the same attachment
with the blamed condition turned round, which differs by one option and must pass wherever it
meets no other rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from generator.catalog import resolve_option

REMOVE = object()  # the option is left out
# Where a probe attachment of each class goes in the tiny fixture, and the options that make it
# a complete attachment of its kind (a rule's conditions then change them).
HOLDERS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "UnitAttachment": (("units", "probe"), {}),
    "AbstractTriggerAttachment": (
        ("players", "Reds", "attachments", "triggerAttachmentProbe"),
        {"conditions": "conditionAttachmentProbe", "uses": 1},
    ),
    "AbstractUserActionAttachment": (
        ("players", "Reds", "attachments", "politicalActionAttachmentProbe"),
        {"text": "PROBE", "relationshipChange": "Reds:Blues:default_war_relation"},
    ),
    "PoliticalActionAttachment": (
        ("players", "Reds", "attachments", "politicalActionAttachmentProbe"),
        {"text": "PROBE", "relationshipChange": "Reds:Blues:default_war_relation"},
    ),
    "CanalAttachment": (
        ("territories", "Alpha", "attachments", "canalAttachmentProbe"),
        {"canalName": "Probe", "landTerritories": "Beta"},
    ),
}
CLASS_OF_HOLDER = {
    "AbstractTriggerAttachment": "TriggerAttachment",
    "AbstractUserActionAttachment": "PoliticalActionAttachment",
    "AbstractConditionsAttachment": "TriggerAttachment",
    "AbstractRulesAttachment": "RulesAttachment",
}
SET_VALUES = {"canNotTarget": "infantry"}  # a valid value for options a rule only needs set


@dataclass
class Probe:
    check: dict[str, Any]
    blamed: str  # the option validate must point at ("" for the attachment itself)
    options: dict[str, Any]
    neighbour: dict[str, Any]
    properties: dict[str, Any] = field(default_factory=dict)

    @property
    def holder(self) -> tuple[str, ...]:
        return HOLDERS[self.check["class"]][0]


def _meeting(condition: list[Any], kind: str | None) -> Any:
    """A value of the option that makes `condition` hold."""
    name, op = condition[0], condition[1]
    operand = condition[2] if len(condition) > 2 else None
    if op == "set":
        return SET_VALUES.get(name, "1")
    if op == "blank":
        return REMOVE
    if op == "==":
        return REMOVE if operand is None else operand
    if op == "!=":
        if isinstance(operand, bool):
            return not operand
        if isinstance(operand, int):
            return operand + 2
        return "probe"
    if op == "in":
        return next((v for v in operand if v not in (None, "")), REMOVE)
    if op == "notIn":
        return "probe"
    if op == "writtenBefore":
        return True  # the option first (_apply orders them)
    step = {"<": -1, "<=": 0, ">": 1, ">=": 0}[op]
    return (2 if isinstance(operand, dict) else operand) + step


def _breaking(condition: list[Any]) -> Any:
    """A value of the option that makes `condition` fail."""
    name, op = condition[0], condition[1]
    operand = condition[2] if len(condition) > 2 else None
    if op == "set":
        return REMOVE
    if op == "blank":
        return "probe"
    if op == "==":
        if operand is None:
            return SET_VALUES.get(name, "probe")
        return (not operand) if isinstance(operand, bool) else (operand + 1 if isinstance(operand, int) else "x")
    if op == "!=":
        return REMOVE  # the rules compare with the starting value: leaving the option out gives it
    if op == "in":
        return "probe"
    if op == "notIn":
        return next((v for v in operand if v is not None), REMOVE)
    if op == "writtenBefore":
        return False  # the other option first
    step = {"<": 0, "<=": 1, ">": 0, ">=": -1}[op]
    return (1 if isinstance(operand, dict) else operand) + step


def _apply(options: dict[str, Any], properties: dict[str, Any], condition: list[Any], value: Any) -> None:
    name = condition[0]
    if condition[1] == "writtenBefore":  # both written, in the order asked: the later one moved last
        other = condition[2]["option"]
        for option in (name, other):
            options.setdefault(option, SET_VALUES.get(option, "1"))
        later = other if value else name
        options[later] = options.pop(later)
        return
    if len(condition) > 2 and isinstance(condition[2], dict):
        options[condition[2]["option"]] = 1  # `a > b`: b at 1, a meets or breaks it around that
    if name.startswith("property:"):
        properties[name.removeprefix("property:")] = value
    elif value is REMOVE:
        options.pop(name, None)
    else:
        options[name] = value


def violations(check: dict[str, Any]) -> Iterator[Probe]:
    """A probe (and its neighbour) per alternative of the check's rule and per `any` condition."""
    base = HOLDERS[check["class"]][1]
    for alternative in check["rule"]["alternatives"]:
        anyof = alternative.get("any") or [None]
        for chosen in anyof:
            options, properties = dict(base), {}
            for condition in alternative.get("all", []):
                _apply(options, properties, condition, _meeting(condition, None))
            if chosen is not None:
                _apply(options, properties, chosen, _meeting(chosen, None))
            turned = chosen if chosen is not None else alternative["all"][-1]
            neighbour, props = dict(options), dict(properties)
            _apply(neighbour, props, turned, _breaking(turned))
            blamed = turned[0] if turned[0] in options and not turned[0].startswith("property:") else ""
            if not blamed:  # a missing option: validate points at the last option that is set
                blamed = next(
                    (c[0] for c in reversed(alternative.get("all", [])) if c[0] in options),
                    "",
                )
            yield Probe(check, blamed, options, neighbour, properties | {k: v for k, v in props.items() if k})


def spec_text(probe: Probe, options: dict[str, Any]) -> tuple[str, dict[str, int]]:
    """The probe's game.yaml (extends tiny) and the line of each of its options."""
    path = probe.holder
    lines = ["extends: tiny"]
    if probe.properties:
        lines.append("properties:")
        lines += [f"  {name}: {{value: {_yaml(v)}}}" for name, v in probe.properties.items()]
    for depth, key in enumerate(path):
        lines.append("  " * depth + f"{key}:")
        if path[0] == "players" and depth == 1:  # the condition the triggers name
            lines.append("    attachments:")
            lines.append("      conditionAttachmentProbe: {alliedOwnershipTerritories: Alpha}")
            path_rest = path[depth + 2 :]
            for rest_depth, rest_key in enumerate(path_rest):
                lines.append("  " * (depth + 2 + rest_depth) + f"{rest_key}:")
            break
    indent = "  " * len(path)
    at: dict[str, int] = {}
    if not options:
        lines[-1] += " {}"
    for name, value in options.items():
        lines.append(f"{indent}{name}: {_yaml(value)}")
        at[name] = len(lines)
    return "\n".join(lines) + "\n", at


def _yaml(value: Any) -> str:
    if isinstance(value, str) and value.isdigit():
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return f'"{value}"'


def known_option(engine: str, cls: str, name: str) -> bool:
    option = re.split(r"[#~]", name)[0]
    concrete = CLASS_OF_HOLDER.get(cls, cls)
    return name.startswith("property:") or name == "@name" or resolve_option(engine, concrete, option) is not None


__all__ = ["HOLDERS", "Probe", "known_option", "spec_text", "violations"]


# --- one option value a setter refuses (the catalog's `probe` of an entry) ------------------------

# class -> (key path of the attachment in the tiny fixture, lines that come before it, its base options)
SYNTAX_HOLDERS: dict[str, tuple[tuple[str, ...], list[str], dict[str, str]]] = {
    "UnitAttachment": (("units", "probe"), [], {"movement": "1"}),
    "TerritoryAttachment": (("territories", "Alpha"), [], {}),
    "PlayerAttachment": (("players", "Reds", "attachments", "playerAttachment"), [], {"vps": "1"}),
    "RulesAttachment": (
        ("players", "Reds", "attachments", "conditionAttachmentProbe"),
        [],
        {"alliedOwnershipTerritories": "Alpha"},
    ),
    "TriggerAttachment": (
        ("players", "Reds", "attachments", "triggerAttachmentProbe"),
        ["      triggerAttachmentOther: {uses: 1}"],
        {"uses": "1"},
    ),
    "PoliticalActionAttachment": (
        ("players", "Reds", "attachments", "politicalActionAttachmentProbe"),
        [],
        {"text": "PROBE", "relationshipChange": "Reds:Blues:default_war_relation"},
    ),
    "UserActionAttachment": (
        ("players", "Reds", "attachments", "userActionAttachmentProbe"),
        ["      triggerAttachmentOther: {uses: 1}"],
        {"text": "PROBE"},
    ),
    "CanalAttachment": (
        ("territories", "Alpha", "attachments", "canalAttachmentProbe"),
        [],
        {"canalName": "Probe", "landTerritories": "Beta"},
    ),
    "TerritoryEffectAttachment": (("territory_effects", "probeEffect"), [], {}),
    "RelationshipTypeAttachment": (("relationship_types", "probeRelation"), [], {"archeType": "war"}),
    "UnitSupportAttachment": (
        ("units", "infantry", "attachments", "supportAttachmentProbe"),
        [],
        {"unitType": "infantry"},
    ),
    "TechAbilityAttachment": (("technologies", "probeTech"), [], {}),
}


def syntax_spec(cls: str, option: str | None, value: str) -> tuple[str, int, str]:
    """game.yaml of a probe setting `option` to `value` on an attachment of `cls` (None: its base only),
    the line and column of that option, and its key path."""
    path, before, base = SYNTAX_HOLDERS[cls]
    if option == "@name":  # the attachment's own name: an attachment of that class named `value`
        path, base, option = (*path[:-1], value), {"class": cls, **base}, None
    lines = ["extends: tiny"]
    for depth, key in enumerate(path):
        lines.append("  " * depth + f"{key}:")
        if depth == len(path) - 2 and before:
            lines += before
    options = {k: v for k, v in base.items() if k != option}
    if option is not None:
        options[option] = value
    if not options:
        lines[-1] += " {}"
    indent = "  " * len(path)
    lines += [f"{indent}{name}: {_yaml(v)}" for name, v in options.items()]
    return "\n".join(lines) + "\n", len(lines), ".".join([*path, option or ""])
