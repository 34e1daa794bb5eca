"""Stage 3, model: the typed spec. Unknown keys are errors; every problem is located.

The spec is keyed by name everywhere (units, territories, players, steps...), so a child variant
overrides or removes one entry without copying the rest. Attachment options use TripleA's own
option names: a unit's UnitAttachment options sit directly under the unit, a territory's
TerritoryAttachment options directly under the territory, and any further attachment goes under
`attachments:` with its TripleA name.
"""

from __future__ import annotations

import typing
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from generator.diagnostics import Diagnostic, did_you_mean, key_path
from generator.locate import locate

Scalar = bool | int | str
# A list is written to XML joined by ':' (TripleA's separator for multi-valued options).
OptionValue = Scalar | list[Scalar]

# Attachment classes inferred from the conventional start of an attachment's name.
CLASS_BY_NAME_PREFIX: dict[str, str] = {
    "unitAttachment": "UnitAttachment",
    "territoryAttachment": "TerritoryAttachment",
    "canalAttachment": "CanalAttachment",
    "techAttachment": "TechAttachment",
    "techAbilityAttachment": "TechAbilityAttachment",
    "playerAttachment": "PlayerAttachment",
    "rulesAttachment": "RulesAttachment",
    "objectiveAttachment": "RulesAttachment",
    "conditionAttachment": "RulesAttachment",
    "triggerAttachment": "TriggerAttachment",
    "politicalActionAttachment": "PoliticalActionAttachment",
    "userActionAttachment": "UserActionAttachment",
    "relationshipTypeAttachment": "RelationshipTypeAttachment",
    "supportAttachment": "UnitSupportAttachment",
    "territoryEffectAttachment": "TerritoryEffectAttachment",
}
ATTACHMENT_PACKAGE = "games.strategy.triplea.attachments."
DELEGATE_PACKAGE = "games.strategy.triplea.delegate."


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class WithOptions(BaseModel):
    """A spec entry whose unknown keys are attachment options (checked against the catalog)."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)

    @property
    def options(self) -> dict[str, OptionValue]:
        return dict(self.model_extra or {})


class Attachment(WithOptions):
    class_: str | None = Field(default=None, alias="class")

    def java_class(self, name: str) -> str | None:
        """Fully qualified class: explicit `class:` (short or qualified), else from the name."""
        short = self.class_
        if short is None:
            short = next((c for p, c in CLASS_BY_NAME_PREFIX.items() if name.startswith(p)), None)
        if short is None:
            return None
        return short if "." in short else ATTACHMENT_PACKAGE + short


class GameInfo(Strict):
    name: str
    version: str = Field(pattern=r"^\d+(\.\d+){0,3}$")
    map: str


class Resource(Strict):
    attachments: dict[str, Attachment] = {}


class Player(Strict):
    optional: bool = False
    # Colour on the map, hex RRGGBB; packaged into map.properties as color.<player>.
    color: str | None = Field(default=None, pattern=r"^[0-9A-Fa-f]{6}$")
    alliances: list[str] = []
    production_frontier: str | None = None
    resources: dict[str, int] = {}
    attachments: dict[str, Attachment] = {}


class Unit(WithOptions):
    """A unit type; its keys are UnitAttachment options, plus further `attachments`."""

    attachments: dict[str, Attachment] = {}


class Territory(WithOptions):
    """A territory; its keys are TerritoryAttachment options plus the territory's own facts."""

    sea: bool = False
    owner: str | None = None
    connections: list[str] = []
    units: dict[str, dict[str, int]] = {}
    attachments: dict[str, Attachment] = {}

    @field_validator("units")
    @classmethod
    def _non_negative(cls, value: dict[str, dict[str, int]]) -> dict[str, dict[str, int]]:
        for counts in value.values():
            for unit, count in counts.items():
                if count < 0:
                    raise ValueError(f"unit count for '{unit}' must not be negative")
        return value


class ProductionRule(Strict):
    cost: dict[str, int]
    result: dict[str, int]


class Delegate(Strict):
    class_: str = Field(alias="class")
    display: str | None = None

    @property
    def java_class(self) -> str:
        return self.class_ if "." in self.class_ else DELEGATE_PACKAGE + self.class_


class Step(Strict):
    delegate: str
    player: str | None = None
    display: str | None = None
    max_run_count: int | None = None
    properties: dict[str, Scalar] = {}
    # Move this (inherited) step: place it right after / before another step.
    after: str | None = None
    before: str | None = None


class Property(Strict):
    value: Scalar
    editable: bool = False
    min: int | None = None
    max: int | None = None
    choices: list[str] | None = None


class Spec(Strict):
    """A resolved variant."""

    extends: str | None = None
    game: GameInfo
    notes: str = ""
    dice_sides: int | None = None
    resources: dict[str, Resource] = {}
    players: dict[str, Player] = {}
    units: dict[str, Unit] = {}
    territories: dict[str, Territory] = {}
    production_rules: dict[str, ProductionRule] = {}
    production_frontiers: dict[str, list[str]] = {}
    delegates: dict[str, Delegate] = {}
    sequence: dict[str, Step] = {}
    properties: dict[str, Scalar | Property] = {}
    # Contents of the map's .properties files, by file name without '.properties'
    # (map, objectives, notifications, politicstext, actionstext, tooltips, production_tabs...).
    map_files: dict[str, dict[str, Scalar]] = {}

    def ordered_steps(self) -> list[str]:
        """Step names in play order, after applying `after:`/`before:` moves in spec order."""
        order = list(self.sequence)
        for name, step in self.sequence.items():
            anchor = step.after or step.before
            if anchor is None or anchor not in self.sequence or anchor == name:
                continue
            order.remove(name)
            at = order.index(anchor)
            order.insert(at + 1 if step.after else at, name)
        return order


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


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return repr(value) if isinstance(value, str) else str(value).lower()


def build_spec(tree: Any) -> tuple[Spec | None, list[Diagnostic]]:
    """Validate the resolved tree into a `Spec`; every structural problem becomes a Diagnostic."""
    try:
        return Spec.model_validate(tree), []
    except ValidationError as exc:
        return None, _translate(exc, tree)


def _translate(exc: ValidationError, tree: Any) -> list[Diagnostic]:
    errors = []
    for error in exc.errors():
        # Pydantic names union members in `loc` ('bool', 'Property', 'list[...]'); keep keys only.
        loc = [p for p in error["loc"] if isinstance(p, int) or not _is_union_member(p)]
        errors.append((loc, error))
    found: dict[tuple[str, str], Diagnostic] = {}
    for loc, error in errors:
        kind = error["type"]
        deeper = any(len(other) > len(loc) and other[: len(loc)] == loc for other, _ in errors)
        if kind in _FRIENDLY and deeper:
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
        elif kind == "string_pattern_mismatch":
            message = f"expected a version like 1.4.1, got {_describe(error.get('input'))}"
            mark = locate(tree, loc)
        else:
            given = error.get("input")
            message = f"{_FRIENDLY.get(kind, error['msg'])}, got {_describe(given)}"
            if kind == "string_type" and isinstance(given, int | float) and not isinstance(given, bool):
                message += f" (write it in quotes: '{given}')"
            mark = locate(tree, loc)
        found.setdefault((path, message), Diagnostic(message, mark, path))
    return list(found.values())


def _is_union_member(part: str | int) -> bool:
    return isinstance(part, str) and (
        part in ("bool", "int", "str", "Property") or part.startswith(("list[", "union[", "function-"))
    )


def _fields_at(loc: list[Any]) -> list[str]:
    """Key names allowed at `loc`, for 'did you mean' hints on unknown keys."""
    annotation: Any = Spec
    for part in loc:
        model = _model_in(annotation)
        if model is not None and isinstance(part, str) and part in _field_names(model):
            annotation = model.model_fields[_field_by_alias(model, part)].annotation
        elif typing.get_origin(annotation) in (dict, list):
            annotation = typing.get_args(annotation)[-1]
        else:
            return []
    model = _model_in(annotation)
    return _field_names(model) if model is not None else []


def _field_names(model: type[BaseModel]) -> list[str]:
    return [f.alias or name for name, f in model.model_fields.items()]


def _field_by_alias(model: type[BaseModel], key: str) -> str:
    return next(name for name, f in model.model_fields.items() if (f.alias or name) == key)


def _model_in(annotation: Any) -> type[BaseModel] | None:
    """The model class that `annotation` is, or that a union in it contains."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return annotation
    if typing.get_origin(annotation) in (dict, list):
        return None
    for arg in typing.get_args(annotation):
        inner = _model_in(arg)
        if inner is not None:
            return inner
    return None
