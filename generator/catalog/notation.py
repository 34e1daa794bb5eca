"""How a value spec of the catalog is written for people: `[int]:<territory>:[<unit>...]`.

The same text is stored as "syntax" in the catalog's JSON and ends the messages of values that do
not parse.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Spec = Mapping[str, Any]
# The kinds of names a value may hold, each checked against the names the game defines.
REFERENCE_TYPES = frozenset(
    {
        "unit",
        "territory",
        "player",
        "resource",
        "tech",
        "relationshipType",
        "territoryEffect",
        "productionFrontier",
        "productionRule",
        "condition",
        "trigger",
        "unitSupport",
        "politicalAction",
        "userAction",
        "property",
        "step",
        "attachment",
    }
)


def syntax(spec: Spec) -> str:
    """Compact human-readable rendering of a value spec (also stored as "syntax" in the JSON)."""
    t = spec.get("type")
    if "group" in spec:
        inner = ":".join(_part(p) for p in spec["group"])
        return f"({inner})"
    if t == "list":
        item = _wrap(syntax(spec["items"]))
        return f"{item}[{spec['sep']}{item}...]"
    if t == "tuple":
        return str(spec["sep"]).join(_part(p) for p in spec["parts"])
    if t == "oneOf":
        return " | ".join(_wrap(syntax(a)) for a in spec["alternatives"])
    if t == "propertyChange":
        return f"[-clear-|-reset-]newValue:<option of {'|'.join(spec['of'])}>"
    if t == "enum":
        return "|".join(str(v) for v in spec["values"])
    if t == "int":
        lo, hi = spec.get("min"), spec.get("max")
        if lo is None and hi is None:
            return "int"
        if hi is None:
            return f"int>={lo}"
        if lo is None:
            return f"int<={hi}"
        return f"int[{lo}..{hi}]"
    if t in REFERENCE_TYPES:
        return f"<{'-' if spec.get('minusPrefix') else ''}{t}>"
    return str(t)


def _wrap(s: str) -> str:
    return f"({s})" if any(c in s for c in "|: ") and not (s.startswith("(") and s.endswith(")")) else s


def _part(p: Spec) -> str:
    s = syntax(p)
    if "group" not in p and "|" in s:
        s = _wrap(s)
    if p.get("repeat"):
        s += "..."
    if p.get("optional"):
        s = f"[{s}]"
    return s
