"""The reference of the rule patterns, written from their models: what `triplea-forge patterns` prints.

Each pattern: the spec key of its uses, what it is for, every parameter with its type, default
and meaning (from the model's JSON schema), an example use, and what that example makes: the
model's own `make`, written as YAML (the only place a pattern's output is text).
"""

from __future__ import annotations

import json
import re
from typing import Any

from generator.spec.load import SpecMap, load_text, plain_scalar_tag
from generator.spec.patterns import PATTERNS, Pattern
from generator.spec.patterns.expansion import merges_into

HEADER = """\
# Rule patterns

A rule pattern writes one rule of a rules document as one spec entry: triplea-forge makes it into
the conditions, triggers, user actions and steps that enforce it before the rest of the spec is
read (`generator/spec/patterns`: each pattern's model makes them as spec data). A use is keyed by
name under the pattern's key, like any spec collection: a child variant changes one parameter of a
use it inherits, or deletes the use (`national_advantages: {RuWinter: !delete}`). Errors are
reported at the use; `triplea-forge diff` compares uses parameter by parameter. A parameter that
every use gives alike is given once per variant under `pattern_defaults:` (`pattern_defaults:
{triggers_on: Germans}`): each use that takes it and does not give it gets that value, said at
that line.

Written by `triplea-forge patterns`; every parameter below comes from the pattern's model, and
what each example makes is what the model makes of it, as the build merges it into the spec.
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


def _pattern(pattern: type[Pattern], made: dict[str, Any]) -> list[str]:
    schema = pattern.model_json_schema(by_alias=True)
    defs = schema.get("$defs", {})
    doc = " ".join((pattern.__doc__ or "").split())
    lines = [f"## `{pattern.collection}`: {pattern.noun}", "", doc, ""]
    lines += ["| parameter | type | | meaning |", "|---|---|---|---|", *_rows(schema, defs), ""]
    for part, sub in defs.items():
        lines += [f"`{part}`:", "", "| field | type | | meaning |", "|---|---|---|---|", *_rows(sub, defs), ""]
    lines += ["Example:", "", "```yaml", pattern.example.rstrip("\n"), "```", ""]
    lines += ["What it makes:", "", "```yaml", *_block(made, ()), "```", ""]
    return lines


def reference_markdown(only: str | None = None) -> str:
    """The reference of every pattern (or of the one whose key or noun is `only`)."""
    chosen = [p for p in PATTERNS if only in (None, p.collection, p.noun)]
    made = examples_make()
    lines = [HEADER] if only is None else []
    for pattern in chosen:
        lines += _pattern(pattern, made[pattern.collection])
    return "\n".join(lines).rstrip("\n") + "\n"


def pattern_names() -> list[str]:
    return [p.collection for p in PATTERNS]


def examples_make() -> dict[str, dict[str, Any]]:
    """What each pattern's example makes (by the pattern's key), its uses made in order and merged as
    a build does; an example reads the examples before it (the advantages, the schedule's)."""
    uses: dict[str, dict[str, Pattern | None]] = {}
    made: dict[str, dict[str, Any]] = {}
    for pattern in PATTERNS:
        example, problems = load_text(pattern.example, f"<{pattern.collection} example>")
        assert not problems and isinstance(example, SpecMap), problems  # ours: tests/spec/test_patterns.py reads them
        merged: dict[str, Any] = {}
        for name, params in example[pattern.collection].items():
            use = pattern.model_validate(params)
            for document in use.make(name, uses):
                _merge(merged, document, ())
            uses.setdefault(pattern.collection, {})[name] = use
        made[pattern.collection] = merged
    return made


def _merge(target: dict[str, Any], made: dict[str, Any], path: tuple[str, ...]) -> None:
    for key, value in made.items():
        here = (*path, key)
        if isinstance(value, dict) and merges_into(here):
            _merge(target.setdefault(key, {}), value, here)
        else:
            target[key] = value


def _block(node: dict[str, Any], path: tuple[str, ...], indent: str = "") -> list[str]:
    """A made tree as YAML: its collections as blocks, each entry made on one line (flow style)."""
    lines = []
    for key, value in node.items():
        here = (*path, key)
        if isinstance(value, dict) and merges_into(here):
            lines += [f"{indent}{_flow(key)}:", *_block(value, here, indent + "  ")]
        else:
            lines.append(f"{indent}{_flow(key)}: {_flow(value)}")
    return lines


# Text written without quotes: what no YAML reader takes for anything else (no ':', '#', ',', brackets).
_PLAIN = re.compile(r"[A-Za-z0-9_](?:[A-Za-z0-9_ .()'+-]*[A-Za-z0-9_.()'+-])?")


def _flow(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_flow(k)}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_flow(item) for item in value) + "]"
    if isinstance(value, str) and _PLAIN.fullmatch(value) and plain_scalar_tag(value) == "tag:yaml.org,2002:str":
        return value
    return json.dumps(value, ensure_ascii=False)  # JSON is YAML: true, 5, "quoted text"
