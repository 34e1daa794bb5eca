"""The spec reference page: every key of a spec file with its type and default, from the spec model.

Types and defaults come from the model's JSON schema (the one `triplea-forge schema` extends for
editors); the meaning of a key from its `Field(description=...)`, else the comment the model's
source gives it (on its line or the lines above), so the page says what the code says.
"""

from __future__ import annotations

import inspect
import io
import tokenize
from collections.abc import Iterator
from types import ModuleType
from typing import Any

from pydantic import BaseModel

from generator.docs.markdown import GENERATED, anchor, cell, code, prose, table
from generator.spec import ledger as spec_ledger
from generator.spec import model as spec_model
from generator.spec import patterns as pattern_package
from generator.spec import unit_image as spec_unit_image
from generator.spec.kinds import WITH_MAIN
from generator.spec.model import Spec

TOP = "Spec"  # the model of a whole variant: the keys at the top of a spec file


def _modules() -> list[ModuleType]:
    import importlib
    import pkgutil

    found = [spec_model, spec_ledger, spec_unit_image]
    for info in pkgutil.iter_modules(pattern_package.__path__):
        found.append(importlib.import_module(f"{pattern_package.__name__}.{info.name}"))
    return found


def model_classes() -> dict[str, type[BaseModel]]:
    """The spec's models by class name, as the JSON schema's `$defs` name them."""
    classes: dict[str, type[BaseModel]] = {}
    for module in _modules():
        for value in vars(module).values():
            if inspect.isclass(value) and issubclass(value, BaseModel):
                classes.setdefault(value.__name__, value)
    return classes


def _comments(cls: type[BaseModel]) -> dict[str, str]:
    """Each field's comment in the source of the class or the class it inherits the field from."""
    found: dict[str, str] = {}
    for base in cls.__mro__:
        if issubclass(base, BaseModel) and base is not BaseModel and base.__module__.startswith("generator."):
            for name, comment in _own_comments(base).items():
                found.setdefault(name, comment)
    return found


def _own_comments(cls: type[BaseModel]) -> dict[str, str]:
    """Each field's comment in the class's own source: the one on its line, else the comment lines above it."""
    source = inspect.cleandoc("\n" + inspect.getsource(cls))
    comments: dict[int, str] = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            comments[token.start[0]] = token.string.lstrip("#").strip()
    lines = source.splitlines()
    found: dict[str, str] = {}
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not line.startswith("    ") or line.startswith("     ") or ":" not in stripped:
            continue
        name = stripped.split(":", 1)[0].strip()
        if not name.isidentifier() or name not in cls.model_fields:
            continue
        if number in comments and not stripped.startswith("#"):
            found[name] = comments[number]
            continue
        above: list[str] = []
        at = number - 1
        while at >= 1 and lines[at - 1].strip().startswith("#"):
            above.insert(0, comments.get(at, ""))
            at -= 1
        if above:
            found[name] = " ".join(above)
    return found


def describe_type(schema: dict[str, Any]) -> str:
    """A key's type in words, with links to the sections of the parts it holds."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#{anchor(name)})"
    for combiner in ("anyOf", "oneOf"):
        if combiner in schema:
            kinds = [describe_type(s) for s in schema[combiner] if s.get("type") != "null"]
            return " or ".join(dict.fromkeys(kinds))
    if "enum" in schema:
        return "one of " + ", ".join(f"`{v}`" for v in schema["enum"])
    if "const" in schema:
        return f"`{schema['const']}`"
    kind = schema.get("type")
    if isinstance(kind, list):
        return " or ".join(describe_type({"type": k}) for k in kind if k != "null")
    if kind == "array":
        return f"list of {describe_type(schema.get('items', {}))}"
    if kind == "object":
        values = schema.get("additionalProperties")
        return f"{{name: {describe_type(values)}}}" if isinstance(values, dict) else "mapping"
    words = {"string": "text", "integer": "whole number", "boolean": "true/false", "number": "number"}
    text = words.get(str(kind), "any value")
    if kind == "string" and "pattern" in schema:
        text += f" matching `{schema['pattern']}`"
    if kind == "integer" and ("minimum" in schema or "maximum" in schema):
        text += f" ({schema.get('minimum', '...')}..{schema.get('maximum', '...')})"
    return text


def _default(field: dict[str, Any], required: bool) -> str:
    if required:
        return "required"
    if "default" not in field:
        return "none"
    value = field["default"]
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "`true`" if value else "`false`"
    if value == "":
        return '`""`'
    if value == {}:
        return "`{}`"
    if value == []:
        return "`[]`"
    return code(str(value))


def _order(schema: dict[str, Any]) -> Iterator[str]:
    """The `$defs` in the order a reader meets them from the top level (breadth first)."""
    defs = schema.get("$defs", {})
    seen: list[str] = []
    queue = [schema]
    while queue:
        node = queue.pop(0)
        for ref in _refs(node):
            if ref not in seen and ref in defs:
                seen.append(ref)
                queue.append(defs[ref])
    yield from seen
    yield from (name for name in defs if name not in seen)


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value.rsplit("/", 1)[-1]
            elif key != "$defs":
                yield from _refs(value)
    elif isinstance(node, list):
        for item in node:
            yield from _refs(item)


def documented_keys() -> dict[str, list[str]]:
    """Every model of the spec and its keys: what the page must cover (the coverage test counts it)."""
    schema = Spec.model_json_schema(by_alias=True)
    keys = {TOP: list(schema.get("properties", {}))}
    for name, sub in schema.get("$defs", {}).items():
        keys[name] = list(sub.get("properties", {}))
    return keys


_FLAT = {
    "Unit": "UnitAttachment",
    "Territory": "TerritoryAttachment",
    "RelationshipType": "RelationshipTypeAttachment",
    "TerritoryEffect": "TerritoryEffectAttachment",
    "Technology": "TechAbilityAttachment",
}


def _section(name: str, schema: dict[str, Any], cls: type[BaseModel] | None) -> list[str]:
    title = "Top level: a spec file" if name == TOP else name
    lines = [f"## {name}" if name != TOP else f"## {title}", ""]
    if cls is not None and cls.__doc__:  # its own docstring's first paragraph (a class's is not inherited)
        lines += [prose(inspect.cleandoc(cls.__doc__).split("\n\n")[0]), ""]
    if name in _FLAT:
        catalog = "[1.9](catalog-1.9.md#" + anchor(_FLAT[name]) + "), [2.x](catalog-2.x.md#" + anchor(_FLAT[name])
        lines += [f"Besides the keys below, every `{_FLAT[name]}` option of the engines ({catalog})) sits "
                  "directly here, under its TripleA name.", ""]  # fmt: skip
    if name == "Attachment":
        lines += ["Besides `class`, an attachment's keys are the options of its class (see the option catalogs).", ""]
    comments = _comments(cls) if cls is not None else {}
    required = set(schema.get("required", []))
    rows = []
    for key, field in schema.get("properties", {}).items():
        field_name = key
        if cls is not None:
            field_name = next((n for n, f in cls.model_fields.items() if (f.alias or n) == key), key)
        meaning = field.get("description") or comments.get(field_name, "")
        rows.append([f"`{key}`", describe_type(field), _default(field, key in required), cell(meaning)])
    lines += [*table(["key", "type", "default", "meaning"], rows), ""]
    return lines


def spec_reference() -> str:
    schema = Spec.model_json_schema(by_alias=True)
    classes = model_classes()
    collections = ", ".join(f"`{kind.collection}`" for kind in WITH_MAIN)
    lines = [
        GENERATED,
        "",
        "# Spec keys",
        "",
        "Every key a spec file (`rules/<variant>/*.yaml`) may hold, with its type and default, from the "
        "spec model (`generator/spec/`: `model.py`, `ledger.py`, `unit_image.py` and the pattern models). A key "
        "may appear in one file of a variant only; no key is required in a file of a child variant (it restates "
        "only what it changes). "
        f"The entries of {collections} also take their main attachment's options directly, by their "
        "TripleA names (see the option catalogs). `triplea-forge schema` writes the same model as a JSON "
        "Schema for editors.",
        "",
    ]
    lines += _section(TOP, schema, Spec)
    for name in _order(schema):
        lines += _section(name, schema["$defs"][name], classes.get(name))
    return "\n".join(lines).rstrip("\n") + "\n"
