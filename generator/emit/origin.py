"""Where in the spec a line of the generated XML came from.

The DTD and XSD checks read the XML a variant renders to, and their messages name its lines; but
that XML is never the user's file (and may never be written). Each element is traced back to the
spec entry that produced it (a territory, a unit, an attachment's option...) so a problem is
reported at the YAML line the user wrote, with the key path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lxml import etree

from generator.diagnostics import Diagnostic, Mark, key_path
from generator.safe_xml import safe_parser
from generator.spec.kinds import KIND_OF_TYPE
from generator.spec.locate import locate
from generator.spec.model import NEUTRAL

Path = tuple[str | int, ...]


def _attachment(e: etree._Element) -> Path:
    kind, name, owner = e.get("type", ""), e.get("name", ""), e.get("attachTo", "")
    of = KIND_OF_TYPE.get(kind)
    if of is None:
        return ()
    if of.main == name:
        return (of.collection, owner)  # its options sit directly under the entry
    return (of.collection, owner, "attachments", name)


def _option(e: etree._Element) -> Path:
    parent = e.getparent()
    return (*_attachment(parent), e.get("name", "")) if parent is not None else ()


def _property(e: etree._Element) -> Path:
    name = e.get("name", "")
    return {"mapName": ("game", "map"), "notes": ("notes",)}.get(name, ("properties", name))


def _named(collection: str) -> Callable[[etree._Element], Path]:
    return lambda e: (collection, e.get("name", ""))


def _child_of_named(collection: str) -> Callable[[etree._Element], Path]:
    def path(e: etree._Element) -> Path:
        parent = e.getparent()
        return (collection, parent.get("name", "")) if parent is not None else ()

    return path


# Element name -> the spec path of the entry that produced it.
_PATHS: dict[str, Callable[[etree._Element], Path]] = {
    "info": lambda e: ("game",),
    "triplea": lambda e: ("game", "minimum_version"),
    "diceSides": lambda e: ("dice_sides",),
    "territory": _named("territories"),
    "connection": lambda e: ("territories", e.get("t1", ""), "connections"),
    "resource": _named("resources"),
    "player": _named("players"),
    "alliance": lambda e: ("players", e.get("player", ""), "alliances"),
    "unit": _named("units"),
    "relationshipType": _named("relationship_types"),
    "territoryEffect": _named("territory_effects"),
    "delegate": _named("delegates"),
    "step": _named("sequence"),
    "stepProperty": lambda e: (*_child_of_named("sequence")(e), "properties", e.get("name", "")),
    "productionRule": _named("production_rules"),
    "repairRule": _named("repair_rules"),
    "cost": _child_of_named("production_rules"),
    "result": _child_of_named("production_rules"),
    "productionFrontier": _named("production_frontiers"),
    "repairFrontier": _named("repair_frontiers"),
    "frontierRules": _child_of_named("production_frontiers"),
    "playerProduction": lambda e: ("players", e.get("player", ""), "production_frontier"),
    "playerRepair": lambda e: ("players", e.get("player", ""), "repair_frontier"),
    "techname": _named("technologies"),
    "playerTech": lambda e: ("players", e.get("player", ""), "tech_categories"),
    "attachment": _attachment,
    "option": _option,
    "territoryOwner": lambda e: ("territories", e.get("territory", ""), "owner"),
    "unitPlacement": lambda e: (
        "territories", e.get("territory", ""), "units", e.get("owner") or NEUTRAL, e.get("unitType", "")
    ),
    "heldUnits": lambda e: ("players", e.get("player", ""), "held_units", e.get("unitType", "")),
    "resourceGiven": lambda e: ("players", e.get("player", ""), "resources", e.get("resource", "")),
    "relationship": lambda e: ("players", e.get("player1", ""), "relationships", e.get("player2", "")),
    "property": _property,
}  # fmt: skip


def spec_path(element: etree._Element | None) -> Path:
    """The spec path of the entry `element` (or its nearest traceable ancestor) came from."""
    while element is not None:
        trace = _PATHS.get(str(element.tag))
        if trace is not None:
            path = trace(element)
            if path:
                return path
        element = element.getparent()
    return ()


def in_spec(problems: list[Diagnostic], xml: bytes, tree: Any) -> list[Diagnostic]:
    """`problems` found in the generated `xml`, moved to the spec lines that produced each place."""
    if not problems:
        return problems
    try:
        root = etree.fromstring(xml, safe_parser())
    except etree.XMLSyntaxError:
        return problems
    by_line: dict[int, etree._Element] = {}
    for element in root.iter():
        line: int | None = element.sourceline  # type: ignore[assignment]
        if isinstance(element.tag, str) and line is not None:
            by_line.setdefault(line, element)
    moved = []
    for problem in problems:
        if problem.mark is None or problem.mark.line <= 1:  # e.g. no engine to check against: not a place
            moved.append(Diagnostic(problem.message, None, "", problem.severity))
            continue
        line = problem.mark.line if problem.mark else 0
        # A message names the line an element starts on, or (end of content) one inside it.
        at = max((n for n in by_line if n <= line), default=None)
        path = spec_path(by_line[at]) if at is not None else ()
        mark: Mark | None = locate(tree, path) if path else getattr(tree, "mark", None)
        moved.append(Diagnostic(problem.message, mark, key_path(path), problem.severity))
    return moved
