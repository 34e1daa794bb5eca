"""Write spec trees as YAML files that read like hand-written specs."""

from __future__ import annotations

import re
from typing import Any

import yaml

from generator.spec.load import DELETE, Delete, plain_scalar_tag

SCHEMA_COMMENT = (
    "# yaml-language-server: $schema=../../spec.schema.json\n"
    "# Spec file of triplea-forge: see the README for the format."
)


_BaseDumper: type[yaml.SafeDumper] = getattr(yaml, "CSafeDumper", yaml.SafeDumper)


class _SpecDumper(_BaseDumper):  # type: ignore[valid-type,misc]
    """Block style for structure, flow style for short leaf collections, `!delete` for removals."""

    def ignore_aliases(self, data: Any) -> bool:
        return True  # every value is written out; no anchors in a spec

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        # Indent list items under their key, as most YAML in the wild does.
        super().increase_indent(flow, False)


def _represent_delete(dumper: yaml.SafeDumper, _: Delete) -> yaml.ScalarNode:
    return dumper.represent_scalar("!delete", "", style="")


def _represent_str(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    if "\n" in text:
        return dumper.represent_scalar("tag:yaml.org,2002:str", text, style="|")
    if plain_scalar_tag(text) != "tag:yaml.org,2002:str":  # text the loader would read as a number
        return dumper.represent_scalar("tag:yaml.org,2002:str", text, style="'")
    return dumper.represent_scalar("tag:yaml.org,2002:str", text)


_SpecDumper.add_representer(Delete, _represent_delete)
_SpecDumper.add_representer(str, _represent_str)


def _is_leaf(value: Any) -> bool:
    return isinstance(value, list | dict) and all(not isinstance(v, list | dict) for v in _values(value))


def _values(value: Any) -> list[Any]:
    return list(value.values()) if isinstance(value, dict) else list(value)


def dump_yaml(tree: dict[str, Any]) -> str:
    """YAML text of a spec tree; leaf collections of up to 12 items are written inline."""
    text = yaml.dump(
        _mark_flow(tree),
        Dumper=_SpecDumper,
        sort_keys=False,
        allow_unicode=True,
        width=120,
        default_flow_style=False,
    )
    # PyYAML quotes the empty value of a tagged scalar; the bare tag is what people write.
    text = re.sub(r"!delete ''$", "!delete", text, flags=re.MULTILINE)
    return f"{SCHEMA_COMMENT}\n{text}"


class _Flow(dict[str, Any]):
    pass


class _FlowList(list[Any]):
    pass


def _mark_flow(value: Any) -> Any:
    if value is DELETE:
        return value
    if isinstance(value, dict):
        if value and _is_leaf(value) and len(value) <= 12:
            return _Flow(value)
        return {k: _mark_flow(v) for k, v in value.items()}
    if isinstance(value, list):
        return _FlowList(value) if _is_leaf(value) else [_mark_flow(v) for v in value]
    return value


_SpecDumper.add_representer(
    _Flow, lambda d, v: d.represent_mapping("tag:yaml.org,2002:map", v.items(), flow_style=True)
)
_SpecDumper.add_representer(_FlowList, lambda d, v: d.represent_sequence("tag:yaml.org,2002:seq", v, flow_style=True))
