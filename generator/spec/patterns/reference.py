"""The reference of the rule patterns, written from their models: what `triplea-forge patterns` prints.

Each pattern: the spec key of its uses, what it is for, every parameter with its type, default
and meaning (from the model's JSON schema), and an example use.
"""

from __future__ import annotations

from typing import Any

from generator.spec.patterns import PATTERNS, Pattern

HEADER = """\
# Rule patterns

A rule pattern writes one rule of a rules document as one spec entry: triplea-forge makes it into
the conditions, triggers, user actions and steps that enforce it before the rest of the spec is
read (`generator/spec/patterns`, templates in `templates/patterns`). A use is keyed by name under
the pattern's key, like any spec collection: a child variant changes one parameter of a use it
inherits, or deletes the use (`national_advantages: {RuWinter: !delete}`). Errors are reported at
the use; `triplea-forge diff` compares uses parameter by parameter. A parameter that every use
gives alike is given once per variant under `pattern_defaults:` (`pattern_defaults: {triggers_on:
Germans}`): each use that takes it and does not give it gets that value, said at that line.

Written by `triplea-forge patterns -o templates/patterns/README.md`; every parameter below comes
from the pattern's model.
"""


def _type(schema: dict[str, Any], defs: dict[str, Any]) -> str:
    """A parameter's type in words: text, whole number, true/false, list of..., {name: ...}, a part."""
    if "$ref" in schema:
        return _part_name(schema["$ref"])
    if "anyOf" in schema:
        kinds = [_type(s, defs) for s in schema["anyOf"] if s.get("type") != "null"]
        return " or ".join(dict.fromkeys(kinds))
    kind = schema.get("type")
    if kind == "array":
        return f"list of {_type(schema.get('items', {}), defs)}"
    if kind == "object":
        values = schema.get("additionalProperties")
        return f"{{name: {_type(values, defs)}}}" if isinstance(values, dict) else "mapping"
    return {"string": "text", "integer": "whole number", "boolean": "true/false"}.get(str(kind), "any")


def _part_name(ref: str) -> str:
    return ref.rsplit("/", 1)[-1]


def _rows(schema: dict[str, Any], defs: dict[str, Any]) -> list[str]:
    required = set(schema.get("required", []))
    rows = []
    for name, field in schema.get("properties", {}).items():
        default = "required" if name in required else f"default `{_default(field.get('default'))}`"
        description = str(field.get("description", "")).replace("|", "\\|")
        rows.append(f"| `{name}` | {_type(field, defs)} | {default} | {description} |")
    return rows


def _default(value: Any) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict) and not value:
        return "{}"
    return "[]" if isinstance(value, list) and not value else str(value)


def _pattern(pattern: type[Pattern]) -> list[str]:
    schema = pattern.model_json_schema(by_alias=True)
    defs = schema.get("$defs", {})
    doc = " ".join((pattern.__doc__ or "").split())
    lines = [f"## `{pattern.collection}`: {pattern.noun}", "", doc, ""]
    lines += ["| parameter | type | | meaning |", "|---|---|---|---|", *_rows(schema, defs), ""]
    for part, sub in defs.items():
        lines += [f"`{part}`:", "", "| field | type | | meaning |", "|---|---|---|---|", *_rows(sub, defs), ""]
    lines += ["Example:", "", "```yaml", pattern.example.rstrip("\n"), "```", ""]
    return lines


def reference_markdown(only: str | None = None) -> str:
    """The reference of every pattern (or of the one whose key or noun is `only`)."""
    chosen = [p for p in PATTERNS if only in (None, p.collection, p.noun)]
    lines = [HEADER] if only is None else []
    for pattern in chosen:
        lines += _pattern(pattern)
    return "\n".join(lines).rstrip("\n") + "\n"


def pattern_names() -> list[str]:
    return [p.collection for p in PATTERNS]
