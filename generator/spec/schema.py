"""JSON Schema of the spec, for editors (yaml-language-server: completion and squiggles).

Derived from the pydantic model, plus every attachment option of both engines' catalogs under the
objects that carry them flat (a unit's UnitAttachment options...), so option names complete too.
Each spec file holds only part of a variant, so no top-level key is required.
"""

from __future__ import annotations

import json
from typing import Any

from generator.catalog import load_catalog
from generator.spec.model import MAIN_ATTACHMENT, Spec

# Model class whose extra keys are options of this attachment class.
FLAT_OPTIONS = {
    "Unit": MAIN_ATTACHMENT["unitType"][1],
    "Territory": MAIN_ATTACHMENT["territory"][1],
    "RelationshipType": MAIN_ATTACHMENT["relationship"][1],
    "TerritoryEffect": MAIN_ATTACHMENT["territoryEffect"][1],
    "Technology": MAIN_ATTACHMENT["technology"][1],
}
_SCALAR = {"int": {"type": "integer"}, "bool": {"type": "boolean"}}
_ANY_VALUE = [{"type": ["string", "integer", "boolean"]}, {"type": "array"}, {"type": "object"}]


def _option_schema(spec: dict[str, Any]) -> dict[str, Any]:
    one = _SCALAR.get(spec["type"])
    shapes = ([one] if one else []) + _ANY_VALUE
    return {"anyOf": shapes, "description": f"TripleA option; syntax: {spec.get('syntax', spec['type'])}"}


def _options(cls: str) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for engine in ("1.9", "2.x"):
        for name, spec in load_catalog(engine)["attachments"].get(cls, {}).get("options", {}).items():
            if name != "name":
                merged.setdefault(name, _option_schema(spec))
    return dict(sorted(merged.items()))


def spec_schema() -> dict[str, Any]:
    schema = Spec.model_json_schema(by_alias=True)
    schema.pop("required", None)
    schema["title"] = "triplea-forge spec file"
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    definitions = schema.get("$defs", {})
    for model, cls in FLAT_OPTIONS.items():
        if model in definitions:
            definitions[model]["properties"].update(_options(cls))
            definitions[model]["additionalProperties"] = False
    if "Attachment" in definitions:  # any class: options are checked by `validate`
        definitions["Attachment"]["additionalProperties"] = True
    return schema


def schema_text() -> str:
    return json.dumps(spec_schema(), indent=2, sort_keys=True) + "\n"
