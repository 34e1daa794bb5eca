"""Reading TripleA game XML for the importer: typed values, and the game's
starting state (owners, units, resources, relationships) and properties.
"""

from __future__ import annotations

import re
import textwrap
from typing import Any

from lxml import etree

from generator.catalog.grammar import XML_ATTRIBUTES as ATTRIBUTES
from generator.diagnostics import Diagnostic, Mark, Severity
from generator.spec.model import NEUTRAL

Tree = dict[str, Any]
INT_TEXT = re.compile(r"-?(0|[1-9][0-9]*)")


def att(element: etree._Element, name: str, default: str = "") -> str:
    """An attribute's text; a missing one reads as `default` (the model then reports empty names)."""
    value = element.get(name)
    return default if value is None else str(value)


def natural_key(name: str) -> list[Any]:
    """Sort key that puts '2 Sea Zone' before '13 Sea Zone'."""
    return [int(part) if part.isdigit() else part.lower() for part in re.split(r"(\d+)", name)]


def typed(text: str) -> Any:
    """The YAML value for an XML attribute text; only when it writes back to the same text."""
    if text in ("true", "false"):
        return text == "true"
    if INT_TEXT.fullmatch(text) and len(text) < 16:
        return int(text)
    if ":" in text:
        parts = text.split(":")
        if all(parts):
            return [typed(p) for p in parts]
    return text


class XmlReader:
    """What every part of the importer shares: problems, notes, and where entries came from."""

    def __init__(self, root: etree._Element, display: str) -> None:
        self.root = root
        self.display = display
        self.problems: list[Diagnostic] = []
        self.notes: list[Diagnostic] = []  # what was normalised on the way (engine-equivalent)
        self.spec: Tree = {}
        self.flat_seen: dict[tuple[str, str], list[str]] = {}
        # The XML line each spec key path came from, so checks of an XML can point into it.
        self.lines: dict[tuple[str, ...], int] = {}

    def at(self, element: etree._Element, *path: str) -> None:
        line: int = element.sourceline or 0  # type: ignore[assignment]
        self.lines.setdefault(path, line)

    def unsupported(self, element: etree._Element, what: str = "") -> None:
        label = what or f"<{element.tag}>"
        line: int = element.sourceline or 0  # type: ignore[assignment]
        self.problems.append(Diagnostic(f"{label} is not supported by import yet", Mark(self.display, line, 1)))

    def normalised(self, element: etree._Element, what: str) -> None:
        line: int = element.sourceline or 0  # type: ignore[assignment]
        self.notes.append(Diagnostic(what, Mark(self.display, line, 1), severity=Severity.WARNING))

    def number(self, element: etree._Element, name: str, default: str = "0") -> int:
        """An attribute the engine reads as a whole number; anything else is a located error."""
        text = att(element, name, default).strip()
        if INT_TEXT.fullmatch(text) and len(text) < 16:
            return int(text)
        line: int = element.sourceline or 0  # type: ignore[assignment]
        message = f"<{element.tag} {name}={text[:40]!r}>: the engine reads a whole number here"
        self.problems.append(Diagnostic(message, Mark(self.display, line, 1)))
        return 0

    def unknown_attributes(self) -> None:
        """Attributes neither engine knows are dropped by both: say so instead of in silence."""
        for element in self.root.iter():
            known = ATTRIBUTES.get(element.tag) if isinstance(element.tag, str) else None
            if known is None:
                continue  # comments, and unknown elements (reported as unsupported)
            for name in element.attrib:
                if str(name) not in known:
                    message = f"attribute {name!s} of <{element.tag}> is in neither engine's game.dtd: dropped"
                    self.normalised(element, message)

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


class SetupReader(XmlReader):
    """The `<initialize>` and `<propertyList>` parts of a game."""

    spec: Tree
    flat_seen: dict[tuple[str, str], list[str]]

    def _initialize(self) -> None:
        init = self.root.find("initialize")
        tags = ("ownerInitialize", "unitInitialize", "resourceInitialize", "relationshipInitialize")
        territories, players = self.spec["territories"], self.spec["players"]
        for section in self.children(init, *tags):
            if section.tag == "ownerInitialize":
                for owner in self.children(section, "territoryOwner"):
                    self._owner(owner, territories)
            elif section.tag == "unitInitialize":
                for place in self.children(section, "unitPlacement", "heldUnits"):
                    self._units_at_start(place, territories, players)
            elif section.tag == "resourceInitialize":
                for given in self.children(section, "resourceGiven"):
                    resources = players.setdefault(att(given, "player"), {}).setdefault("resources", {})
                    resources[att(given, "resource")] = self.number(given, "quantity")
                    self.at(given, "players", att(given, "player"), "resources", att(given, "resource"))
            else:
                for relation in self.children(section, "relationship"):
                    one = players.setdefault(att(relation, "player1"), {})
                    kind, started = att(relation, "type"), self.number(relation, "roundValue")
                    value = kind if started == 0 else {"type": kind, "round": started}
                    one.setdefault("relationships", {})[att(relation, "player2")] = value
                    self.at(relation, "players", att(relation, "player1"), "relationships", att(relation, "player2"))

    def _owner(self, element: etree._Element, territories: Tree) -> None:
        territory = territories.setdefault(att(element, "territory"), {})
        self.at(element, "territories", att(element, "territory"), "owner")
        owner, first = att(element, "owner"), territory.get("owner")
        territory["owner"] = owner
        # The engine takes a territory's original owner from its first owner entry; keep that.
        has_attachment = ("territory", att(element, "territory")) in self.flat_seen
        if first is not None and first != owner and has_attachment and "originalOwner" not in territory:
            territory["originalOwner"] = first
            self.normalised(element, f"second owner of '{att(element, 'territory')}': originalOwner {first} kept")

    def _units_at_start(self, place: etree._Element, territories: Tree, players: Tree) -> None:
        unit, quantity = att(place, "unitType"), self.number(place, "quantity")
        if place.tag == "heldUnits":
            held = players.setdefault(att(place, "player"), {}).setdefault("held_units", {})
            held[unit] = held.get(unit, 0) + quantity
            self.at(place, "players", att(place, "player"), "held_units", unit)
            return
        territory = territories.setdefault(att(place, "territory"), {})
        hits, damage = self.number(place, "hitsTaken"), self.number(place, "unitDamage")
        if hits or damage:
            damaged: Tree = {"unit": unit, "quantity": quantity, "hits": hits, "damage": damage}
            if place.get("owner"):
                damaged["owner"] = att(place, "owner")
            territory.setdefault("damaged_units", []).append(damaged)
            return
        counts = territory.setdefault("units", {}).setdefault(att(place, "owner") or NEUTRAL, {})
        self.at(place, "territories", att(place, "territory"), "units", att(place, "owner") or NEUTRAL, unit)
        counts[unit] = counts.get(unit, 0) + quantity

    def _properties(self, game: Tree) -> None:
        props: Tree = {}
        beside: Tree = {}
        elements = self.children(self.root.find("propertyList"), "property")
        kept = _kept_by_engine(elements)
        for element in elements:
            name = att(element, "name")
            text = _text(element)
            if name == "mapName":
                game["map"] = text
            elif name == "notes":
                self.spec["notes"] = clean_notes(text)
            elif not any(element is k for k in kept[name]):
                self._replaced(element, kept[name])
            elif element is kept[name][0]:
                props[name] = self._property(element, text)
                self.at(element, "properties", name)
            else:  # the constant kept beside the editable one (kept[name][0]), which it may precede
                read = self._property(element, text)
                beside[name] = read["value"] if isinstance(read, dict) else read
                self.at(element, "properties", name, "constant")
        for name, constant in beside.items():
            props[name]["constant"] = constant
        self.spec["properties"] = props

    def _replaced(self, element: etree._Element, kept: list[etree._Element]) -> None:
        """A definition a later one of its kind (editable or constant) replaced: left out, with a warning."""
        later = next(k for k in kept if _editable(k) == _editable(element))
        self.normalised(
            element,
            f"property '{att(element, 'name')}' is defined again at line {later.sourceline}; the engine keeps that "
            "one (the last one counts) and drops this one, so import leaves it out",
        )

    def _property(self, element: etree._Element, text: str) -> Any:
        if element.get("player"):
            self.unsupported(element, "property attribute player")
        editable = _editable(element)
        kinds = [c for c in element if isinstance(c.tag, str) and c.tag != "value"]
        kind = kinds[0] if kinds else None
        entry: Tree = {}
        value: Any = text
        if kind is None:  # the engine reads it as a number when Integer.parseInt takes it, else as text
            value = int(text) if re.fullmatch(r"[+-]?[0-9]+", text) and -(2**31) <= int(text) < 2**31 else text
        elif kind.tag == "boolean":
            value = text.strip().lower() == "true"
        elif kind.tag == "number":
            value = int(text) if INT_TEXT.fullmatch(text) else 0
            entry.update({"min": self.number(kind, "min"), "max": self.number(kind, "max")})
        elif kind.tag == "list":
            entry["choices"] = att(kind, "values").split(",")
        elif kind.tag != "string":
            self.unsupported(kind, f"property type <{kind.tag}>")
        if not editable and not entry and (kind is None or kind.tag == "boolean"):
            return value
        return {"value": value, **({"editable": True} if editable else {}), **entry}


def _editable(element: etree._Element) -> bool:
    return (element.get("editable") or "").lower() == "true"  # as the engine compares it


def _text(element: etree._Element) -> str:
    """A property's value: its value attribute, else its <value> element's text (as the engines read it)."""
    text = att(element, "value")
    if not text:
        value_el = element.find("value")
        text = (value_el.text or "") if value_el is not None else ""
    return text


def _kept_by_engine(elements: list[etree._Element]) -> dict[str, list[etree._Element]]:
    """The definitions of each property name the engine keeps: the one it reads first, then the
    constant it keeps beside an editable one (measured with engine 1.9; 2.7 reads them alike).

    The engine keeps constants and editable properties apart, a later one of a kind replacing an
    earlier one, and reads an editable property before a constant of the same name: two real maps
    define "Total Victory" editable, then again as a constant; players get the option, and the
    engine's own export of the game writes both.
    """
    last: dict[tuple[str, bool], etree._Element] = {}
    for element in elements:
        last[att(element, "name"), _editable(element)] = element
    kept: dict[str, list[etree._Element]] = {}
    for (name, _), element in sorted(last.items(), key=lambda item: not item[0][1]):  # editable first
        kept.setdefault(name, []).append(element)
    return kept


def clean_notes(text: str) -> str:
    """Notes are HTML, where whitespace runs are insignificant: store them dedented and tidy."""
    lines = [line.rstrip() for line in textwrap.dedent(text.expandtabs(4)).splitlines()]
    return "\n".join(lines).strip() + "\n"
