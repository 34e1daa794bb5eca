"""Importer: an existing TripleA game XML -> a spec folder (YAML), optionally as a child variant.

The importer reads XML safely (no DTD loading, no entities, no network) and writes a spec that
reads like one: a unit's stats under the unit, a territory's facts under the territory, values
typed (ints as ints, booleans as booleans, ':'-joined values as lists). A value is typed only when
writing it back gives the same text, so importing never changes what the engine reads.
Anything it cannot represent yet is reported as an error, never dropped silently.
"""

from __future__ import annotations

import re
import textwrap
from pathlib import Path
from typing import Any

from lxml import etree

from generator.diagnostics import Diagnostic, Mark
from generator.load import DELETE
from generator.model import (
    ATTACHMENT_PACKAGE,
    CLASS_BY_NAME_PREFIX,
    DELEGATE_PACKAGE,
)

Tree = dict[str, Any]
_INT = re.compile(r"-?(0|[1-9][0-9]*)")
# The spec's files and which top-level keys each holds, in writing order.
FILE_LAYOUT: dict[str, tuple[str, ...]] = {
    "game.yaml": ("extends", "game", "dice_sides", "resources", "players", "properties", "notes"),
    "units.yaml": ("units", "production_rules", "production_frontiers"),
    "territories.yaml": ("territories",),
    "sequence.yaml": ("delegates", "sequence"),
}
_ATTACH_TYPES = ("unitType", "territory", "player", "resource")


def safe_parser() -> etree.XMLParser:
    """An XML parser that never loads a DTD, expands an entity or touches the network."""
    return etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False, huge_tree=False
    )


def att(element: etree._Element, name: str, default: str = "") -> str:
    """An attribute's text; a missing one reads as `default` (the model then reports empty names)."""
    value = element.get(name)
    return default if value is None else str(value)


def typed(text: str) -> Any:
    """The YAML value for an XML attribute text; only when it writes back to the same text."""
    if text in ("true", "false"):
        return text == "true"
    if _INT.fullmatch(text) and len(text) < 16:
        return int(text)
    if ":" in text:
        parts = text.split(":")
        if all(parts):
            return [typed(p) for p in parts]
    return text


class _Importer:
    def __init__(self, root: etree._Element, display: str) -> None:
        self.root = root
        self.display = display
        self.problems: list[Diagnostic] = []
        self.spec: Tree = {}

    def unsupported(self, element: etree._Element, what: str = "") -> None:
        label = what or f"<{element.tag}>"
        self.problems.append(
            Diagnostic(
                f"{label} is not supported by import yet",
                Mark(self.display, element.sourceline or 0, 1),  # type: ignore[arg-type]
            )
        )

    def children(self, parent: etree._Element | None, *tags: str) -> list[etree._Element]:
        """Child elements named `tags`; anything else (except comments) is reported."""
        if parent is None:
            return []
        out = []
        for child in parent:
            if not isinstance(child.tag, str):
                continue  # comments and processing instructions
            if child.tag in tags:
                out.append(child)
            else:
                self.unsupported(child)
        return out

    def run(self) -> Tree:
        root = self.root
        known = {
            "info",
            "loader",
            "diceSides",
            "map",
            "resourceList",
            "playerList",
            "unitList",
            "gamePlay",
            "production",
            "attachmentList",
            "initialize",
            "propertyList",
        }
        for child in root:
            if isinstance(child.tag, str) and child.tag not in known:
                self.unsupported(child)
        info = root.find("info")
        game: Tree = {
            "name": att(info, "name", "") if info is not None else "",
            "version": att(info, "version", "") if info is not None else "",
            "map": "",
        }
        self.spec["game"] = game
        dice = root.find("diceSides")
        if dice is not None:
            self.spec["dice_sides"] = typed(att(dice, "value", ""))
        self.spec["resources"] = {att(r, "name"): {} for r in self.children(root.find("resourceList"), "resource")}
        self._players()
        self._units()
        self._territories()
        self._production()
        self._gameplay()
        self._attachments()
        self._initialize()
        self._properties(game)
        self._tidy()
        return self.spec

    def _tidy(self) -> None:
        """Put each entry's keys in reading order: identity, facts, then collections."""
        first = {"territories": ("sea", "owner"), "players": ("optional", "alliances", "production_frontier")}
        last = {
            "territories": ("connections", "units", "attachments"),
            "players": ("resources", "attachments"),
        }
        for collection in first:
            for name, entry in self.spec[collection].items():
                head = {k: entry[k] for k in first[collection] if k in entry}
                tail = {k: entry[k] for k in last[collection] if k in entry}
                middle = {k: v for k, v in entry.items() if k not in head and k not in tail}
                self.spec[collection][name] = {**head, **middle, **tail}

    def _players(self) -> None:
        players: Tree = {}
        for element in self.children(self.root.find("playerList"), "player", "alliance"):
            if element.tag == "player":
                player: Tree = {"optional": True} if att(element, "optional") == "true" else {}
                players[att(element, "name")] = player
                for attr in element.attrib:
                    if attr not in ("name", "optional"):
                        self.unsupported(element, f"attribute {attr!s} of <player>")
            else:
                entry = players.setdefault(att(element, "player"), {})
                entry.setdefault("alliances", []).append(att(element, "alliance"))
        self.spec["players"] = players

    def _units(self) -> None:
        self.spec["units"] = {att(u, "name"): {} for u in self.children(self.root.find("unitList"), "unit")}

    def _territories(self) -> None:
        territories: Tree = {}
        game_map = self.root.find("map")
        for element in self.children(game_map, "territory", "connection"):
            if element.tag == "territory":
                entry: Tree = {}
                if att(element, "water") == "true":
                    entry["sea"] = True
                territories[att(element, "name")] = entry
            else:
                a, b = att(element, "t1"), att(element, "t2")
                for here, there in ((a, b), (b, a)):
                    if here not in territories:
                        self.unsupported(element, f"connection to unknown territory '{here}'")
                        continue
                    neighbours = territories[here].setdefault("connections", [])
                    if there not in neighbours:
                        neighbours.append(there)
        self.spec["territories"] = territories

    def _production(self) -> None:
        rules: Tree = {}
        frontiers: Tree = {}
        tags = ("productionRule", "productionFrontier", "playerProduction")
        for element in self.children(self.root.find("production"), *tags):
            if element.tag == "productionRule":
                rule: Tree = {"cost": {}, "result": {}}
                for part in self.children(element, "cost", "result"):
                    if part.tag == "cost":
                        rule["cost"][att(part, "resource")] = typed(att(part, "quantity", ""))
                    else:
                        rule["result"][att(part, "resourceOrUnit")] = typed(att(part, "quantity", ""))
                rules[att(element, "name")] = rule
            elif element.tag == "productionFrontier":
                frontiers[att(element, "name")] = [att(f, "name") for f in self.children(element, "frontierRules")]
            else:
                player = self.spec["players"].setdefault(att(element, "player"), {})
                player["production_frontier"] = att(element, "frontier")
        self.spec["production_rules"] = rules
        self.spec["production_frontiers"] = frontiers

    def _gameplay(self) -> None:
        delegates: Tree = {}
        steps: Tree = {}
        play = self.root.find("gamePlay")
        for element in self.children(play, "delegate", "sequence"):
            if element.tag == "delegate":
                java = att(element, "javaClass", "")
                entry: Tree = {"class": java.removeprefix(DELEGATE_PACKAGE)}
                if element.get("display") is not None:
                    entry["display"] = att(element, "display")
                delegates[att(element, "name")] = entry
                continue
            for step in self.children(element, "step"):
                spec_step: Tree = {"delegate": att(step, "delegate")}
                for attr, key in (
                    ("player", "player"),
                    ("display", "display"),
                    ("maxRunCount", "max_run_count"),
                ):
                    if step.get(attr) is not None:
                        text = att(step, attr)
                        spec_step[key] = typed(text) if key == "max_run_count" else text
                props = self.children(step, "stepProperty")
                if props:
                    spec_step["properties"] = {att(p, "name"): typed(att(p, "value", "")) for p in props}
                steps[att(step, "name")] = spec_step
        self.spec["delegates"] = delegates
        self.spec["sequence"] = steps

    def _attachments(self) -> None:
        for element in self.children(self.root.find("attachmentList"), "attachment"):
            name, target = att(element, "name", ""), att(element, "attachTo", "")
            kind, java = att(element, "type", ""), att(element, "javaClass", "")
            options: Tree = {}
            for option in self.children(element, "option"):
                key = att(option, "name", "")
                if key in options or option.get("count") is not None:
                    self.unsupported(option, f"repeated option or count on option '{key}'")
                options[key] = typed(att(option, "value", ""))
            collection = {
                "unitType": "units",
                "territory": "territories",
                "player": "players",
                "resource": "resources",
            }.get(kind)
            if collection is None or target not in self.spec[collection]:
                self.unsupported(element, f"attachment '{name}' to {kind} '{target}'")
                continue
            owner = self.spec[collection][target]
            flat = (kind, name) in (("unitType", "unitAttachment"), ("territory", "territoryAttachment"))
            if flat:
                owner.update(options)
                continue
            inferred = next((c for p, c in CLASS_BY_NAME_PREFIX.items() if name.startswith(p)), None)
            short = java.removeprefix(ATTACHMENT_PACKAGE)
            entry: Tree = {} if inferred == short else {"class": short}
            entry.update(options)
            owner.setdefault("attachments", {})[name] = entry

    def _initialize(self) -> None:
        init = self.root.find("initialize")
        tags = ("ownerInitialize", "unitInitialize", "resourceInitialize")
        territories, players = self.spec["territories"], self.spec["players"]
        for section in self.children(init, *tags):
            if section.tag == "ownerInitialize":
                for owner in self.children(section, "territoryOwner"):
                    territories[att(owner, "territory")]["owner"] = att(owner, "owner")
            elif section.tag == "unitInitialize":
                for place in self.children(section, "unitPlacement"):
                    if att(place, "hitsTaken") or att(place, "unitDamage"):
                        self.unsupported(place, "damaged unit placement")
                    units = territories[att(place, "territory")].setdefault("units", {})
                    counts = units.setdefault(att(place, "owner"), {})
                    unit = att(place, "unitType")
                    counts[unit] = counts.get(unit, 0) + int(att(place, "quantity", "0"))
            else:
                for given in self.children(section, "resourceGiven"):
                    resources = players[att(given, "player")].setdefault("resources", {})
                    resources[att(given, "resource")] = typed(att(given, "quantity", ""))

    def _properties(self, game: Tree) -> None:
        props: Tree = {}
        for element in self.children(self.root.find("propertyList"), "property"):
            name = att(element, "name", "")
            value_text = att(element, "value")
            kinds = [c for c in element if isinstance(c.tag, str) and c.tag != "value"]
            if not value_text:
                value_el = element.find("value")
                value_text = value_el.text or "" if value_el is not None else ""
            if name == "mapName":
                game["map"] = value_text
                continue
            if name == "notes":
                self.spec["notes"] = _clean_notes(value_text)
                continue
            props[name] = self._property(element, kinds, value_text)
        self.spec["properties"] = props

    def _property(self, element: etree._Element, kinds: list[etree._Element], text: str) -> Any:
        editable = att(element, "editable") == "true"
        kind = kinds[0] if kinds else None
        entry: Tree = {}
        if kind is None:
            value: Any = int(text) if _INT.fullmatch(text) else text
        elif kind.tag == "boolean":
            value = text.strip().lower() == "true"
        elif kind.tag == "number":
            value = int(text) if _INT.fullmatch(text) else 0
            entry.update({"min": int(att(kind, "min", "0")), "max": int(att(kind, "max", "0"))})
        elif kind.tag == "string":
            value = text
        elif kind.tag == "list":
            value = text
            entry["choices"] = (att(kind, "values") or "").split(",")
        else:
            self.unsupported(kind, f"property type <{kind.tag}>")
            value = text
        if not editable and not entry and (kind is None or kind.tag == "boolean"):
            return value
        return {"value": value, **({"editable": True} if editable else {}), **entry}


def _clean_notes(text: str) -> str:
    """Notes are HTML, where whitespace runs are insignificant: store them dedented and tidy."""
    lines = [line.rstrip() for line in textwrap.dedent(text.expandtabs(4)).splitlines()]
    return "\n".join(lines).strip() + "\n"


def import_xml(path: Path, display: str) -> tuple[Tree | None, list[Diagnostic]]:
    """Read a TripleA game XML into a spec tree (plain dicts) and the problems found."""
    try:
        root = etree.parse(str(path), safe_parser()).getroot()
    except (OSError, etree.XMLSyntaxError) as exc:
        return None, [Diagnostic(f"cannot read XML: {exc}", Mark(display, 1, 1))]
    if root.tag != "game":
        return None, [Diagnostic("not a TripleA game XML (root element is not <game>)", Mark(display, 1, 1))]
    importer = _Importer(root, display)
    return importer.run(), importer.problems


def overlay(parent: Tree, child: Tree) -> Tree:
    """The smallest spec that, extending `parent`, resolves to `child` (deletions as !delete)."""
    out: Tree = {}
    for key, value in child.items():
        if key not in parent:
            out[key] = value
        elif isinstance(value, dict) and isinstance(parent[key], dict):
            inner = overlay(parent[key], value)
            if inner:
                out[key] = inner
        elif value != parent[key]:
            out[key] = value
    for key in parent:
        if key not in child:
            out[key] = DELETE
    return out


def order_hints(parent_order: list[str], child_order: list[str]) -> dict[str, str]:
    """`after:` anchors that turn the inherited step order into `child_order` (see Spec.ordered_steps)."""
    order = [s for s in parent_order if s in child_order] + [s for s in child_order if s not in parent_order]
    hints: dict[str, str] = {}
    for name in list(order):
        index = child_order.index(name)
        if index == 0:
            continue
        anchor = child_order[index - 1]
        if order.index(name) != order.index(anchor) + 1:
            order.remove(name)
            order.insert(order.index(anchor) + 1, name)
            hints[name] = anchor
    return hints
