"""JSON Schema of the spec, for editors (yaml-language-server: completion and squiggles).

Derived from the pydantic model, plus every attachment option of both engines' catalogs under the
objects that carry them flat (a unit's UnitAttachment options...), so option names complete too,
and a whole-number or true/false option flags text (`defense: four`). It holds per file: a spec
file holds only part of a variant and a child variant restates only what it changes, so no key
is ever required, and `!delete` (an empty scalar to the editor) is accepted wherever a value is.
"""

from __future__ import annotations

import json
import typing
from typing import Any

from generator.catalog import load_catalog
from generator.spec.kinds import WITH_MAIN
from generator.spec.model import Spec
from generator.targets import ENGINES


def _entry_model(collection: str) -> str:
    """The name of the model class of one entry of a spec collection (`units` -> 'Unit')."""
    annotation = Spec.model_fields[collection].annotation
    mapping = next(a for a in (annotation, *typing.get_args(annotation)) if typing.get_origin(a) is dict)
    return str(typing.get_args(mapping)[1].__name__)


# Model class whose extra keys are options of this attachment class.
FLAT_OPTIONS = {_entry_model(k.collection): str(k.main_class) for k in WITH_MAIN}
# An option's value: a scalar, a list of them (joined by ':'), {value, count}, or a list of such
# (the option repeated). Whole-number and true/false options take no text as a scalar.
_SHAPES = [{"type": "array"}, {"type": "object"}]
_SCALAR = {"int": {"type": "integer"}, "bool": {"type": "boolean"}}
_ANY_SCALAR = {"type": ["string", "integer", "boolean"]}
# What `!delete` is to an editor told about the tag (yaml.customTags "!delete scalar").
DELETE = {"enum": [None, ""], "description": "!delete: remove the inherited entry"}


def _option_schema(types: set[str], syntax: str) -> dict[str, Any]:
    scalar = _SCALAR[next(iter(types))] if len(types) == 1 and next(iter(types)) in _SCALAR else _ANY_SCALAR
    return {"anyOf": [scalar, *_SHAPES], "description": f"TripleA option; syntax: {syntax}"}


def _options(cls: str) -> dict[str, Any]:
    types: dict[str, set[str]] = {}
    syntax: dict[str, str] = {}
    for engine in ENGINES:
        for name, spec in load_catalog(engine)["attachments"].get(cls, {}).get("options", {}).items():
            if name != "name":
                types.setdefault(name, set()).add(spec["type"])  # an option typed apart per engine takes both
                syntax.setdefault(name, spec.get("syntax", spec["type"]))
    return {name: _option_schema(types[name], syntax[name]) for name in sorted(types)}


_SCHEMA_MAPS = ("properties", "$defs", "patternProperties")  # keywords holding name -> schema
_SUBSCHEMAS = ("items", "anyOf", "allOf", "oneOf", "not", "if", "then", "else")


def _per_file(node: Any) -> Any:
    """No key required anywhere, and `!delete` accepted as the value of any key."""
    if isinstance(node, list):
        return [_per_file(item) for item in node]
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "required":
            continue
        if key in _SCHEMA_MAPS:
            mapped = {name: _per_file(sub) for name, sub in value.items()}
            out[key] = {n: {"anyOf": [v, DELETE]} for n, v in mapped.items()} if key == "properties" else mapped
        elif key == "additionalProperties" and isinstance(value, dict):
            out[key] = {"anyOf": [_per_file(value), DELETE]}
        elif key in _SUBSCHEMAS:
            out[key] = _per_file(value)
        else:
            out[key] = value  # type, enum, title, description...: no schema inside
    return out


def spec_schema() -> dict[str, Any]:
    schema = Spec.model_json_schema(by_alias=True)
    schema["title"] = "triplea-forge spec file"
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    definitions = schema.get("$defs", {})
    for model, cls in FLAT_OPTIONS.items():
        if model in definitions:
            definitions[model]["properties"].update(_options(cls))
            definitions[model]["additionalProperties"] = False
    if "Attachment" in definitions:  # any class: options are checked by `validate`
        definitions["Attachment"]["additionalProperties"] = True
    return dict(_per_file(schema))


def schema_text() -> str:
    return json.dumps(spec_schema(), indent=2, sort_keys=True) + "\n"
