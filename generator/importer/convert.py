"""Importer: an existing TripleA game XML -> a spec tree (plain dicts), ready to write as YAML.

The importer reads XML safely (no DTD loading, no entities, no network) and writes a spec that
reads like one: a unit's stats under the unit, a territory's facts under the territory, values
typed (ints as ints, booleans as booleans, ':'-joined values as lists). A value is typed only when
writing it back gives the same text, so importing never changes what the engine reads.
Anything it cannot represent yet is reported as an error, never dropped silently.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lxml import etree

from generator.diagnostics import Diagnostic, Mark
from generator.importer.read import INT_TEXT, SetupReader, Tree, att, natural_key, typed
from generator.paths import UnreadableFile, read_regular_file
from generator.safe_xml import safe_parser, unreadable
from generator.spec.kinds import ATTACHMENT_PACKAGE, KIND_OF_TYPE, class_from_name
from generator.spec.load import SpecList, SpecMap
from generator.spec.model import DELEGATE_PACKAGE

__all__ = ["FILE_LAYOUT", "Tree", "att", "import_located", "import_xml", "natural_key", "safe_parser", "typed"]
# The spec's files and which top-level keys each holds, in writing order.
FILE_LAYOUT: dict[str, tuple[str, ...]] = {
    "game.yaml": ("extends", "game", "dice_sides", "round_offset", "resources", "players", "properties", "notes"),
    "templates.yaml": ("variables", "attachment_templates"),
    "units.yaml": ("units", "production_rules", "production_frontiers", "repair_rules", "repair_frontiers"),
    "territories.yaml": ("territories", "territory_effects"),
    "politics.yaml": ("relationship_types", "technologies"),
    "sequence.yaml": ("delegates", "sequence"),
}
_TOP_LEVEL = (
    "info", "loader", "triplea", "diceSides", "variableList", "map", "resourceList", "playerList", "unitList",
    "relationshipTypes", "territoryEffectList", "gamePlay", "production", "technology",
    "attachmentList", "initialize", "propertyList",
)  # fmt: skip


class _Importer(SetupReader):
    def run(self) -> Tree:
        root = self.root
        self.children(root, *_TOP_LEVEL)
        info = root.find("info")
        game: Tree = {"name": "", "version": "", "map": ""}
        if info is not None:
            game.update(name=att(info, "name"), version=att(info, "version"))
            if info.get("version") is None:
                del game["version"]  # engine 2.x only: 1.9 requires it
            self.at(info, "game")
        minimum = root.find("triplea")
        if minimum is not None:
            game["minimum_version"] = att(minimum, "minimumVersion")
        self.spec["game"] = game
        dice = root.find("diceSides")
        if dice is not None:
            self.spec["dice_sides"] = typed(att(dice, "value"))
        self.spec["resources"] = self._names("resources", root.find("resourceList"), "resource")
        for element in self.children(root.find("resourceList"), "resource"):
            shown = element.get("isDisplayedFor")
            if shown is not None:  # 2.x: the players who see it; NONE: nobody
                viewers = [] if shown.upper() == "NONE" else [p for p in shown.split(":") if p]
                self.spec["resources"][att(element, "name")]["displayed_for"] = viewers
        self._players()
        self.spec["units"] = self._names("units", root.find("unitList"), "unit")
        self._territories()
        for key, parent, tag in (
            ("relationship_types", "relationshipTypes", "relationshipType"),
            ("territory_effects", "territoryEffectList", "territoryEffect"),
        ):
            self.spec[key] = self._names(key, root.find(parent), tag)
        self._production()
        self._technology()
        self._gameplay()
        self._attachments()
        self._initialize()
        self._properties(game)
        self._tidy()
        self.unknown_attributes()
        keep = ("resources", "players") + (("technologies",) if root.find("technology") is not None else ())
        return {k: v for k, v in self.spec.items() if v != {} or k in keep}

    def _names(self, collection: str, parent: etree._Element | None, tag: str) -> Tree:
        out: Tree = {}
        for element in self.children(parent, tag):
            out[att(element, "name")] = {}
            self.at(element, collection, att(element, "name"))
        return out

    def _tidy(self) -> None:
        """Put each entry's keys in reading order: identity, facts, then collections."""
        first = {"territories": ("sea", "owner"), "players": ("optional", "alliances", "production_frontier")}
        last = {
            "territories": ("connections", "units", "damaged_units", "attachments"),
            "players": ("resources", "held_units", "tech_categories", "relationships", "attachments"),
        }
        for territory in self.spec["territories"].values():
            if "connections" in territory:  # the order of borders means nothing; sorted reads best
                territory["connections"] = sorted(territory["connections"], key=natural_key)
            for owner, counts in list(territory.get("units", {}).items()):
                territory["units"][owner] = {unit: n for unit, n in counts.items() if n != 0}
                if not territory["units"][owner]:
                    del territory["units"][owner]
            if territory.get("units") == {}:
                del territory["units"]
        for collection in first:
            for name, entry in self.spec[collection].items():
                head = {k: entry[k] for k in first[collection] if k in entry}
                tail = {k: entry[k] for k in last[collection] if k in entry}
                middle = {k: v for k, v in entry.items() if k not in head and k not in tail}
                self.spec[collection][name] = {**head, **middle, **tail}

    def _players(self) -> None:
        players: Tree = {}
        flags = {"optional": "optional", "canBeDisabled": "can_be_disabled", "isHidden": "hidden"}
        for element in self.children(self.root.find("playerList"), "player", "alliance"):
            if element.tag == "player":
                player: Tree = {key: True for attr, key in flags.items() if element.get(attr) == "true"}
                if element.get("defaultType") not in (None, "Human"):
                    player["default_type"] = att(element, "defaultType")
                players[att(element, "name")] = player
                self.at(element, "players", att(element, "name"))
            else:
                entry = players.setdefault(att(element, "player"), {})
                entry.setdefault("alliances", []).append(att(element, "alliance"))
                self.at(element, "players", att(element, "player"), "alliances")
        self.spec["players"] = players

    def _territories(self) -> None:
        territories: Tree = {}
        for element in self.children(self.root.find("map"), "territory", "connection"):
            if element.tag == "territory":
                territories[att(element, "name")] = {"sea": True} if element.get("water") == "true" else {}
                self.at(element, "territories", att(element, "name"))
                continue
            a, b = att(element, "t1"), att(element, "t2")
            for here, there in ((a, b), (b, a)):
                if here not in territories:
                    self.unsupported(element, f"connection to unknown territory '{here}'")
                    continue
                neighbours = territories[here].setdefault("connections", [])
                self.at(element, "territories", here, "connections", str(len(neighbours)))
                if there not in neighbours:
                    neighbours.append(there)
        self.spec["territories"] = territories

    def _rule(self, element: etree._Element, key: str) -> Tree:
        rule: Tree = {"cost": {}, "result": {}}
        for part in self.children(element, "cost", "result"):
            side, name = (
                ("cost", att(part, "resource")) if part.tag == "cost" else ("result", att(part, "resourceOrUnit"))
            )
            rule[side][name] = self.number(part, "quantity")
            self.at(part, key, att(element, "name"), side, name)
        return rule

    def _production(self) -> None:
        spec, players = self.spec, self.spec["players"]
        for key in ("production_rules", "production_frontiers", "repair_rules", "repair_frontiers"):
            spec[key] = {}
        tags = ("productionRule", "repairRule", "repairFrontier", "productionFrontier", "playerProduction")
        for element in self.children(self.root.find("production"), *tags, "playerRepair"):
            name = att(element, "name")
            key = {
                "productionRule": "production_rules",
                "repairRule": "repair_rules",
                "productionFrontier": "production_frontiers",
                "repairFrontier": "repair_frontiers",
            }.get(element.tag, "players")
            self.at(element, key, name or att(element, "player"))
            if element.tag == "productionRule":
                spec["production_rules"][name] = self._rule(element, "production_rules")
            elif element.tag == "repairRule":
                spec["repair_rules"][name] = self._rule(element, "repair_rules")
            elif element.tag == "productionFrontier":
                rules = self.children(element, "frontierRules")
                spec["production_frontiers"][name] = [att(f, "name") for f in rules]
            elif element.tag == "repairFrontier":
                spec["repair_frontiers"][name] = [att(f, "name") for f in self.children(element, "repairRules")]
            else:
                key = "production_frontier" if element.tag == "playerProduction" else "repair_frontier"
                players.setdefault(att(element, "player"), {})[key] = att(element, "frontier")

    def _technology(self) -> None:
        techs: Tree = {}
        for element in self.children(self.root.find("technology"), "technologies", "playerTech"):
            if element.tag == "technologies":
                for tech in self.children(element, "techname"):
                    techs[att(tech, "name")] = {"tech": att(tech, "tech")} if tech.get("tech") else {}
                continue
            player = self.spec["players"].setdefault(att(element, "player"), {})
            categories = player.setdefault("tech_categories", {})
            for category in self.children(element, "category"):
                categories[att(category, "name")] = [att(t, "name") for t in self.children(category, "tech")]
        self.spec["technologies"] = techs

    def _gameplay(self) -> None:
        delegates: Tree = {}
        steps: Tree = {}
        for element in self.children(self.root.find("gamePlay"), "delegate", "sequence", "offset"):
            if element.tag == "offset":
                self.spec["round_offset"] = typed(att(element, "round"))
            elif element.tag == "delegate":
                entry: Tree = {"class": att(element, "javaClass").removeprefix(DELEGATE_PACKAGE)}
                if element.get("display") is not None:
                    entry["display"] = att(element, "display")
                delegates[att(element, "name")] = entry
                self.at(element, "delegates", att(element, "name"))
            else:
                for step in self.children(element, "step"):
                    steps[att(step, "name")] = self._step(step)
                    self.at(step, "sequence", att(step, "name"))
        self.spec["delegates"] = delegates
        self.spec["sequence"] = steps

    def _step(self, step: etree._Element) -> Tree:
        spec_step: Tree = {"delegate": att(step, "delegate")}
        for attr, key in (("player", "player"), ("display", "display"), ("maxRunCount", "max_run_count")):
            if step.get(attr) is not None:
                spec_step[key] = typed(att(step, attr)) if key == "max_run_count" else att(step, attr)
        props = self.children(step, "stepProperty")
        if props:
            spec_step["properties"] = {att(p, "name"): typed(att(p, "value")) for p in props}
        return spec_step

    def _attachments(self) -> None:
        variables = self.children(self.root.find("variableList"), "variable")
        if variables:
            self.spec["variables"] = {
                att(v, "name"): [att(e, "name") for e in self.children(v, "element")] for v in variables
            }
            for variable in variables:
                self.at(variable, "variables", att(variable, "name"))
        for element in self.children(self.root.find("attachmentList"), "attachment"):
            if att(element, "foreach"):
                self._template(element)
            else:
                self._attachment(element)

    def _template(self, element: etree._Element) -> None:
        """A 2.x `foreach` attachment stays one entry: an attachment template (see expand)."""
        name = att(element, "name")
        templates = self.spec.setdefault("attachment_templates", {})
        key, number = name, 1
        while key in templates:  # several templates may make attachments of one name pattern
            number += 1
            key = f"{name} ({number})"
        self.at(element, "attachment_templates", key)
        short = att(element, "javaClass").removeprefix(ATTACHMENT_PACKAGE)
        inferred = class_from_name(name)
        template: Tree = {} if key == name else {"name": name}
        template.update(foreach=att(element, "foreach"), attach_to=att(element, "attachTo"))
        template["type"] = att(element, "type", "unitType")
        if inferred != short:
            template["class"] = short
        template["options"] = self._options(element, ("attachment_templates", key, "options"))
        templates[key] = template

    def _attachment(self, element: etree._Element) -> None:
        name, target = att(element, "name"), att(element, "attachTo")
        kind, java = att(element, "type", "unitType"), att(element, "javaClass")
        of = KIND_OF_TYPE.get(kind)
        collection = of.collection if of is not None else ""
        short = java.removeprefix(ATTACHMENT_PACKAGE)
        flat = of is not None and of.main == name and of.main_class == short
        base = (collection, target) if flat else (collection, target, "attachments", name)
        self.at(element, *base)
        options = self._options(element, base)
        owners = self.spec.get(collection, {})
        if target not in owners:
            self.unsupported(element, f"attachment '{name}' to {kind} '{target}'")
            return
        owner = owners[target]
        if flat:
            if (kind, target) in self.flat_seen:
                self.normalised(element, f"second '{name}' on {kind} '{target}' replaces the first, as in the engine")
                for key in self.flat_seen[(kind, target)]:
                    owner.pop(key, None)
            self.flat_seen[(kind, target)] = list(options)
            owner.update(options)
            return
        inferred = class_from_name(name)
        entry: Tree = {} if inferred == short else {"class": short}
        entry.update(options)
        attachments = owner.setdefault("attachments", {})
        if name in attachments:
            self.normalised(element, f"second '{name}' on {kind} '{target}' replaces the first, as in the engine")
            del attachments[name]
        attachments[name] = entry

    def _options(self, element: etree._Element, base: tuple[str, ...]) -> Tree:
        """Options by name; a repeated option becomes a list with one item per occurrence."""
        written: dict[str, list[Any]] = {}
        for option in self.children(element, "option"):
            self.at(option, *base, att(option, "name"))
            text, count = att(option, "value"), att(option, "count")
            value = typed(text)
            if count:
                value = {"value": value, "count": int(count) if INT_TEXT.fullmatch(count) else count}
            written.setdefault(att(option, "name"), []).append(value)
        options: Tree = {}
        for key, values in written.items():
            if len(values) == 1:
                options[key] = values[0]
            else:  # repeated: each item must be a list or a {value, count} mapping
                options[key] = [v if isinstance(v, list | dict) else [v] for v in values]
        return options


# A game XML is read whole; the biggest real maps are about 12 MB.
MAX_XML_BYTES = 256 * 1024 * 1024
# What both engines' game.dtd require of <game>; without them there is no game to import.
_REQUIRED = ("info", "map", "playerList", "gamePlay")


def read_game(path: Path, display: str) -> tuple[etree._Element | None, list[Diagnostic]]:
    """The `<game>` root of a game XML, or why the file is not one (located where possible)."""
    try:
        data = read_regular_file(path, MAX_XML_BYTES)
        root = etree.fromstring(data, safe_parser())
    except UnreadableFile as exc:
        return None, [Diagnostic(str(exc), Mark(display, 1, 1))]
    except etree.XMLSyntaxError as exc:
        return None, [unreadable(exc, display)]
    line: int = root.sourceline or 1  # type: ignore[assignment]
    if root.tag != "game":
        message = f"not a TripleA game XML: the root element is <{root.tag}>, not <game>"
        return None, [Diagnostic(message, Mark(display, line, 1))]
    missing = [tag for tag in _REQUIRED if root.find(tag) is None]
    if missing:
        wanted = ", ".join(f"<{tag}>" for tag in missing)
        message = f"not a TripleA game: <game> has no {wanted} (both engines require info, map, playerList, gamePlay)"
        return None, [Diagnostic(message, Mark(display, line, 1))]
    return root, []


def import_xml(path: Path, display: str) -> tuple[Tree | None, list[Diagnostic]]:
    """Read a TripleA game XML into a spec tree (plain dicts) and the problems found."""
    imported, problems = _imported(path, display)
    return (imported[0] if imported else None), problems


def import_located(path: Path, display: str) -> tuple[SpecMap | None, list[Diagnostic]]:
    """Like `import_xml`, but as a located tree whose marks are the XML lines entries came from."""
    imported, problems = _imported(path, display)
    if imported is None:
        return None, problems
    tree, lines = imported
    return _located(tree, (), lines, Mark(display, 1, 1)), problems


def _imported(path: Path, display: str) -> tuple[tuple[Tree, dict[tuple[str, ...], int]] | None, list[Diagnostic]]:
    """The tree and the XML line of each entry, with the problems and notes; None if unreadable."""
    root, problems = read_game(path, display)
    if root is None:
        return None, problems
    importer = _Importer(root, display)
    tree = importer.run()
    return (tree, importer.lines), importer.problems + importer.notes


def _located(value: Any, path: tuple[str, ...], lines: dict[tuple[str, ...], int], mark: Mark) -> Any:
    if isinstance(value, dict):
        out = SpecMap()
        out.mark = mark
        for key, item in value.items():
            line = lines.get((*path, key))
            here = Mark(mark.file, line, 1) if line else mark
            out[key] = _located(item, (*path, key), lines, here)
            out.key_marks[key] = out.value_marks[key] = here
        return out
    if isinstance(value, list):
        items = SpecList()
        items.mark = mark
        for index, item in enumerate(value):
            line = lines.get((*path, str(index)))
            here = Mark(mark.file, line, 1) if line else mark
            items.append(_located(item, (*path, str(index)), lines, here))
            items.item_marks.append(here)
        return items
    return value
