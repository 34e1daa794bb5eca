"""The typed attachment-option catalog (generator/catalog): data, regeneration, and the value checker.

The value checks run over the shared TripleA game XMLs: every option a file uses must be known to
the engine catalog with a type, and every value must parse under the declared syntax, with the
references resolved against the names the file defines.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from generator.catalog import ENGINES, REFERENCE_TYPES, check_value, load_catalog, resolve_option, syntax
from tests.helpers import DATA, OFFICIAL_GAMES, REFERENCE_XMLS, ROOT

CATALOG_DIR = DATA / "catalog"
XML_FILES = REFERENCE_XMLS + sorted(OFFICIAL_GAMES.glob("*.xml"))
SHARED_LISTS = {"1.9": CATALOG_DIR / "options-1.9.json", "2.x": CATALOG_DIR / "options-head-2026.json"}

TYPES = {"int", "bool", "string", "decimal", "enum", "never", "list", "tuple", "oneOf", "propertyChange"}
TYPES |= REFERENCE_TYPES


# ---------------------------------------------------------------------------------------------
# the JSON files


@pytest.mark.parametrize("engine", ENGINES)
def test_catalog_loads_with_stable_key_order(engine: str) -> None:
    path = ROOT / "generator" / "catalog" / f"engine-{engine}.json"
    text = path.read_text(encoding="utf-8")
    data = json.loads(text)
    assert text == json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    assert data["engine"] == engine
    assert set(data) == {"engine", "schemaVersion", "source", "parser", "attachments", "properties", "legacyProperties"}
    assert len(data["attachments"]) == 13
    for cls, att in data["attachments"].items():
        assert att["javaClass"] == "games.strategy.triplea.attachments." + cls
        assert att["attachTo"], cls
        assert not cls.startswith("Abstract")


def _walk(spec: dict[str, Any]) -> Iterator[dict[str, Any]]:
    yield spec
    for part in spec.get("parts", []):
        yield from _walk(part)
    for part in spec.get("group", []):
        yield from _walk(part)
    for alt in spec.get("alternatives", []):
        yield from _walk(alt)
    if "items" in spec:
        yield from _walk(spec["items"])


@pytest.mark.parametrize("engine", ENGINES)
def test_every_option_has_a_known_type(engine: str) -> None:
    cat = load_catalog(engine)
    for cls, att in cat["attachments"].items():
        for opt, spec in att["options"].items():
            where = f"{engine} {cls}.{opt}"
            assert isinstance(spec["repeatable"], bool), where
            assert spec["syntax"] == syntax(spec), where
            for sub in _walk(spec):
                if "group" not in sub:
                    assert sub["type"] in TYPES, where
                if sub.get("type") == "enum":
                    assert sub["values"], where
            if spec["type"] == "propertyChange":
                assert all(c in cat["attachments"] for c in spec["of"]), where


@pytest.mark.parametrize("engine", ENGINES)
def test_properties_have_type_and_default(engine: str) -> None:
    props = load_catalog(engine)["properties"]
    assert len(props) > 100
    for name, p in props.items():
        assert p["type"] in ("bool", "int", "string"), name
        expected = {"bool": bool, "int": int, "string": str}[p["type"]]
        assert isinstance(p["default"], expected), name
    assert props["Low Luck"] == {"type": "bool", "default": False, "readers": props["Low Luck"]["readers"]}
    assert props["maxFactoriesPerTerritory"]["default"] == 1
    assert props["{player} Income Percentage"]["perPlayer"] is True


# Starting values: 1.9 read from instances of the jar's classes, 2.x from the source's field initialisers.
KNOWN_DEFAULTS = [
    ("UnitAttachment", "movement", "0", "0"),
    ("UnitAttachment", "isSea", "false", "false"),
    ("UnitAttachment", "hitPoints", "1", "1"),
    ("UnitAttachment", "attackAA", "1", "1"),
    ("UnitAttachment", "maxAAattacks", "-1", "-1"),
    ("UnitAttachment", "transportCost", "-1", "-1"),
    ("UnitAttachment", "typeAA", "AA", "AA"),
    ("UnitAttachment", "isMarine", "0", "0"),
    ("UnitAttachment", "bombingBonus", "-1", "0"),  # differs between the engines
    ("TerritoryAttachment", "blockadeZone", "false", "false"),
    ("TerritoryAttachment", "victoryCity", "0", "0"),
    ("RulesAttachment", "switch", "true", "true"),
    ("RulesAttachment", "conditionType", "AND", "AND"),
    ("RulesAttachment", "uses", "-1", "-1"),
    ("TriggerAttachment", "chance", "1:1", "1:1"),
    ("RelationshipTypeAttachment", "archeType", "war", "war"),
    ("RelationshipTypeAttachment", "canMoveThroughCanals", "default", "default"),
    ("TechAbilityAttachment", "rocketNumberPerTerritory", "0", "1"),  # differs between the engines
    ("CanalAttachment", "canalName", None, ""),  # 1.9 starts at null
]


@pytest.mark.parametrize(("cls", "option", "default_19", "default_2x"), KNOWN_DEFAULTS)
def test_known_option_defaults(cls: str, option: str, default_19: str | None, default_2x: str) -> None:
    for engine, expected in (("1.9", default_19), ("2.x", default_2x)):
        assert load_catalog(engine)["attachments"][cls]["options"][option].get("default") == expected, engine


@pytest.mark.parametrize(
    ("engine", "cls", "option"),
    [
        ("1.9", "UnitAttachment", "name"),  # the attachment's own name: not a constant
        ("1.9", "TerritoryAttachment", "capital"),  # null
        ("1.9", "UnitAttachment", "requiresUnits"),  # an empty list: no value text means "empty"
        ("1.9", "UnitAttachment", "isAA"),  # sets other fields; nothing to read
        ("1.9", "RulesAttachment", "rounds"),  # stored in m_turns, not readable under its name
        ("2.x", "UnitAttachment", "canRetreatOnStalemate"),  # Boolean without initialiser: null
        ("2.x", "UnitAttachment", "requiresUnits"),  # null collection
        ("2.x", "UnitAttachment", "placementLimit"),  # its getter reads movementLimit: field uncertain
        ("2.x", "RulesAttachment", "atWarPlayers"),  # its setter writes two fields
        ("2.x", "UnitAttachment", "isTwoHit"),  # stores hitPoints = 2 or 1: not the option's text
        ("2.x", "UserActionAttachment", "costPU"),  # getter reads costPu, the setter writes costResources
    ],
)
def test_no_default_when_unknown(engine: str, cls: str, option: str) -> None:
    assert "default" not in load_catalog(engine)["attachments"][cls]["options"][option]


@pytest.mark.parametrize("engine", ENGINES)
def test_defaults_have_the_option_syntax(engine: str) -> None:
    count = 0
    for cls, att in load_catalog(engine)["attachments"].items():
        for opt, spec in att["options"].items():
            if "default" not in spec:
                continue
            count += 1
            default, where = spec["default"], f"{engine} {cls}.{opt}"
            assert isinstance(default, str), where
            if spec["type"] == "int":
                assert -(2**31) <= int(default) < 2**31, where
            if spec["type"] == "bool":
                assert default in ("true", "false"), where
            # what the engine starts at is a value the option accepts (except where nothing is)
            if not spec.get("readOnly") and spec["type"] != "never":
                assert check_value(engine, cls, opt, default) is None, where
    assert count > 150


def test_unverified_options_are_few() -> None:
    unverified = [
        (engine, cls, opt)
        for engine in ENGINES
        for cls, att in load_catalog(engine)["attachments"].items()
        for opt, spec in att["options"].items()
        if spec.get("unverified")
    ]
    assert unverified == []


def _load_build_module() -> Any:
    spec = importlib.util.spec_from_file_location("catalog_build", ROOT / "scripts" / "catalog" / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_committed_json_is_what_the_build_script_generates() -> None:
    build = _load_build_module()
    warnings: list[str] = []
    generated = build.build_all(warnings)
    for engine, text in generated.items():
        assert (ROOT / "generator" / "catalog" / f"engine-{engine}.json").read_text(encoding="utf-8") == text
    # no untyped option, no stray table entry, and every `repeatable` agrees with the 1.9
    # @GameProperty(adds=...) annotation and with the 2.x setter-body heuristic
    assert warnings == []


# ---------------------------------------------------------------------------------------------
# the shared name lists


@pytest.mark.parametrize("engine", ENGINES)
def test_every_shared_option_name_is_in_the_catalog(engine: str) -> None:
    listed: dict[str, list[str]] = json.loads(SHARED_LISTS[engine].read_text(encoding="utf-8"))
    cat = load_catalog(engine)["attachments"]
    for key, names in listed.items():
        cls = key.removesuffix(" (abstract)")
        if cls in cat:
            holders = [cat[cls]]
        else:  # an abstract class or interface: its options live in every concrete subclass
            holders = [a for a in cat.values() if cls in a["supertypes"]]
            assert holders or not names, f"no concrete subclass of {cls}"
        for raw in names:
            name = raw.removesuffix(" (read-only)")
            for att in holders:
                spec = att["options"].get(name)
                assert spec is not None and spec["type"] in TYPES, f"{engine} {cls}.{name}"
                assert bool(spec.get("readOnly")) == raw.endswith("(read-only)"), f"{engine} {cls}.{name}"


def test_engine_differences_from_the_docs() -> None:
    one, two = (load_catalog(e)["attachments"] for e in ENGINES)
    ua1, ua2 = set(one["UnitAttachment"]["options"]), set(two["UnitAttachment"]["options"])
    assert {"isInfantry", "isMechanized", "isParatroop", "name"} == ua1 - ua2
    assert {"isFirstStrike", "canEvade", "fuelFlatCost", "whenHitPointsRepairedChangesInto"} <= ua2 - ua1
    assert two["TerritoryAttachment"]["aliases"] == {"isImpassible": "isImpassable", "occupiedTerrOf": "originalOwner"}
    assert two["RulesAttachment"]["aliases"] == {"turns": "rounds"}
    assert resolve_option("2.x", "UnitAttachment", "isParatroop") == (
        "isAirTransportable",
        two["UnitAttachment"]["options"]["isAirTransportable"],
    )
    assert resolve_option("1.9", "RulesAttachment", "turns") is None
    assert one["UnitAttachment"]["options"]["isParatroop"]["noop"] is True


# ---------------------------------------------------------------------------------------------
# check_value on hand-written values


@pytest.mark.parametrize(
    ("engine", "cls", "option", "value", "count"),
    [
        ("1.9", "UnitAttachment", "attack", "3", None),
        ("1.9", "UnitAttachment", "Attack", "-1", None),  # first letter is case-insensitive
        ("1.9", "games.strategy.triplea.attachments.UnitAttachment", "isSea", "TRUE", None),
        ("1.9", "UnitAttachment", "consumesUnits", "factory", "1"),
        ("1.9", "UnitAttachment", "isMarine", "true", None),
        ("1.9", "UnitAttachment", "isMarine", "2", None),
        ("1.9", "UnitAttachment", "whenCapturedChangesInto", "any:Germans:true:factory:1:infantry:2", None),
        ("1.9", "UnitAttachment", "whenCombatDamaged", "unitsMayNotLandOnCarrier", "1:2"),
        ("1.9", "UnitAttachment", "canInvadeOnlyFrom", "all", None),
        ("1.9", "UnitAttachment", "repairsUnits", "infantry:armour", None),
        ("1.9", "UnitAttachment", "repairsUnits", "2:infantry", None),
        ("1.9", "UnitAttachment", "destroyedWhenCapturedBy", "FROM:Germans:Russians", None),
        ("1.9", "RulesAttachment", "alliedOwnershipTerritories", "Germany:France", "1"),
        ("1.9", "RulesAttachment", "directPresenceTerritories", "each:Germany", None),
        ("1.9", "RulesAttachment", "alliedExclusionTerritories", "controlled", None),
        ("1.9", "RulesAttachment", "rounds", "1:3-5:8-+", None),
        ("1.9", "RulesAttachment", "conditionType", "XOR", None),
        ("1.9", "RulesAttachment", "conditionType", "2-4", None),
        ("1.9", "RulesAttachment", "relationship", "Germans:Russians:anyWar", None),
        ("1.9", "RulesAttachment", "battle", "Germans:any:any:2-4:France", None),
        ("1.9", "RulesAttachment", "unitPresence", "infantry:any", "2"),
        ("1.9", "TriggerAttachment", "when", "before:germansPlace", None),
        ("1.9", "TriggerAttachment", "chance", "1:6", None),
        ("1.9", "TriggerAttachment", "placement", "France:infantry:armour", "2"),
        ("1.9", "TriggerAttachment", "placement", "France:infantry", None),
        ("1.9", "TriggerAttachment", "removeUnits", "all:all", "1"),
        ("1.9", "TriggerAttachment", "availableTech", "Land:heavyBomber:-jetPower", None),
        ("1.9", "TriggerAttachment", "unitProperty", "attack", "3"),
        ("1.9", "TriggerAttachment", "unitProperty", "createsResourcesList", "2:PUs"),
        ("1.9", "TriggerAttachment", "territoryProperty", "territoryEffect", "-reset-"),
        ("1.9", "TriggerAttachment", "playerAttachmentName", "RulesAttachment", "conditionAttachmentX"),
        ("1.9", "TriggerAttachment", "activateTrigger", "triggerAttachmentX:1:false:false:false:false", None),
        ("1.9", "RelationshipTypeAttachment", "upkeepCost", "10:percentage", None),
        ("1.9", "RelationshipTypeAttachment", "archeType", "War", None),
        ("1.9", "PlayerAttachment", "placementLimit", "owned:ALL", "3"),
        ("1.9", "UnitSupportAttachment", "side", "offence:defence", None),
        ("1.9", "TerritoryAttachment", "convoyAttached", "", None),
        ("1.9", "TerritoryAttachment", "victoryCity", "1", None),
        ("2.x", "TerritoryAttachment", "isImpassible", "true", None),  # legacy alias
        ("2.x", "TerritoryAttachment", "victoryCity", "true", None),  # legacy value rewrite
        ("2.x", "RulesAttachment", "conditionType", "xor", None),
        ("2.x", "RulesAttachment", "turns", "1-+", None),
        ("2.x", "PlayerAttachment", "giveUnitControl", "true", None),  # ignored by the 2.x parser
        ("2.x", "PlayerAttachment", "takeUnitControl", "whatever", None),
        ("2.x", "UnitAttachment", "isInfantry", "true", None),
        ("2.x", "UnitAttachment", "givesMovement", "1:infantry:armour", None),
        ("2.x", "UnitAttachment", "createsUnitsList", "0:infantry", None),
        ("2.x", "UnitAttachment", "whenHitPointsDamagedChangesInto", "1:true:damagedBattleship", None),
        ("2.x", "UnitSupportAttachment", "dice", "AAroll", None),
        ("2.x", "UnitSupportAttachment", "bonusType", "Artillery", "2"),
        ("2.x", "TerritoryEffectAttachment", "movementCostModifier", "infantry:armour", "0.5"),
        ("2.x", "UserActionAttachment", "costResources", "PUs", "5"),
    ],
)
def test_check_value_accepts(engine: str, cls: str, option: str, value: str, count: str | None) -> None:
    assert check_value(engine, cls, option, value, count=count) is None


@pytest.mark.parametrize(
    ("engine", "cls", "option", "value", "count", "message"),
    [
        ("1.9", "UnitAttachment", "attack", "three", None, "is not an integer"),
        ("1.9", "UnitAttachment", "attack", "99999999999", None, "is not an integer"),
        ("1.9", "UnitAttachment", "isSea", "yes", None, "is not true/false"),
        ("1.9", "UnitAttachment", "hitPoints", "0", None, "minimum 1"),
        ("1.9", "UnitAttachment", "maxAAattacks", "-2", None, "minimum -1"),
        ("1.9", "UnitAttachment", "isFirstStrike", "true", None, "no such option in engine 1.9"),
        ("1.9", "UnitAttachment", "consumesUnits", "0:factory", None, "minimum 1"),
        ("1.9", "UnitAttachment", "consumesUnits", "factory", None, "field 1"),
        ("1.9", "UnitAttachment", "givesMovement", "1:infantry:armour", None, "wrong number of fields"),
        ("1.9", "UnitAttachment", "whenCapturedChangesInto", "any:Germans:true:factory", None, "fields"),
        ("1.9", "UnitAttachment", "whenCombatDamaged", "sinks", "1:2", "unitsMayNotLandOnCarrier"),
        ("1.9", "UnitAttachment", "special", "canOnlyPlaceInOriginalTerritories:sometimes", None, "item 2"),
        ("1.9", "UnitAttachment", "movementLimit", "mine", "1", "owned|allied|total"),
        ("1.9", "TerritoryAttachment", "resources", "PUs", "3", "not allowed"),
        ("1.9", "TerritoryAttachment", "isImpassible", "true", None, "no such option"),
        ("1.9", "RulesAttachment", "chance", "1:6", None, "rejects every value"),
        ("1.9", "RulesAttachment", "turns", "1", None, "no such option"),
        ("1.9", "RulesAttachment", "conditionType", "NAND", None, "matches none of"),
        ("1.9", "RulesAttachment", "destroyedTUV", "sometimes", "100", "currentRound|allRounds"),
        ("1.9", "RulesAttachment", "movementRestrictionType", "Allowed", None, "allowed|disallowed"),
        ("1.9", "TriggerAttachment", "when", "during:germansPlace", None, "before|after"),
        ("1.9", "TriggerAttachment", "chance", "7:6:x", None, "field"),
        ("1.9", "TriggerAttachment", "chance", "1:121", None, "maximum 120"),
        ("1.9", "TriggerAttachment", "purchase", "infantry", None, "at least 2 fields"),
        ("1.9", "TriggerAttachment", "unitProperty", "costResources", "5:PUs", "not an option of"),
        ("1.9", "TriggerAttachment", "unitProperty", "attack", "strong", "new value for UnitAttachment.attack"),
        ("1.9", "TriggerAttachment", "playerAttachmentName", "UnitAttachment", "unitAttachment", "field 1"),
        ("1.9", "TriggerAttachment", "unitAttachmentName", "UnitAttachment", "myAttachment", "does not match"),
        ("1.9", "TriggerAttachment", "activateTrigger", "t:1:false:false:false", None, "fields"),
        ("1.9", "RelationshipTypeAttachment", "upkeepCost", "10:percent", None, "matches none of"),
        ("1.9", "RelationshipTypeAttachment", "canMoveThroughCanals", "True", None, "default|true|false"),
        ("1.9", "TechAbilityAttachment", "rocketNumberPerTerritory", "-1", None, "minimum 0"),
        ("1.9", "UnitSupportAttachment", "dice", "AAroll", None, "roll|strength"),
        ("1.9", "NoSuchAttachment", "attack", "1", None, "not an attachment class"),
        ("2.x", "RulesAttachment", "countEach", "true", None, "read-only"),
        ("2.x", "RulesAttachment", "conditionType", "+2", None, "matches none of"),
        ("2.x", "UnitAttachment", "isParatroop", "maybe", None, "UnitAttachment.isAirTransportable"),
        ("2.x", "UnitAttachment", "name", "x", None, "no such option in engine 2.x"),
        ("2.x", "TechAbilityAttachment", "rocketNumberPerTerritory", "-2", None, "minimum -1"),
        ("2.x", "TerritoryEffectAttachment", "movementCostModifier", "infantry", "half", "not a decimal"),
    ],
)
def test_check_value_rejects(engine: str, cls: str, option: str, value: str, count: str | None, message: str) -> None:
    err = check_value(engine, cls, option, value, count=count)
    assert err is not None and message in err, err


def test_fields_are_split_like_the_engine() -> None:
    assert check_value("1.9", "UnitAttachment", "requiresUnits", "factory:") is None  # String.split
    err = check_value("2.x", "UnitAttachment", "requiresUnits", "factory:")  # Guava Splitter
    assert err is not None and "empty unit name" in err


def test_check_value_resolves_names() -> None:
    names = {"unit": {"infantry", "factory"}, "player": {"Germans"}}
    assert check_value("1.9", "UnitAttachment", "requiresUnits", "factory", names=names) is None
    err = check_value("1.9", "UnitAttachment", "requiresUnits", "factory:barracks", names=names)
    assert err is not None and "unknown unit 'barracks'" in err
    # the null player "Neutral" always exists; step names are not resolved by the engines
    assert check_value("2.x", "RulesAttachment", "players", "Germans:Neutral", names=names) is None
    assert check_value("2.x", "TriggerAttachment", "when", "before:Never", names={"step": {"germansPlace"}}) is None
    # references of a type missing from `names` are only checked to be non-empty
    assert check_value("1.9", "UnitAttachment", "targetsAA", "fighter:bomber", names={"player": {"Germans"}}) is None
    err = check_value("1.9", "UnitAttachment", "targetsAA", "fighter::bomber")
    assert err is not None and "empty unit name" in err


# ---------------------------------------------------------------------------------------------
# the shared game XMLs


@dataclass(frozen=True)
class Attachment:
    java_class: str
    name: str
    options: tuple[tuple[str, str, str | None], ...]  # (name, value, count), variables expanded


@dataclass(frozen=True)
class Game:
    path: Path
    uses_variables: bool
    attachments: tuple[Attachment, ...]
    names: dict[str, frozenset[str]]


def _variables(xml: Any) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for var in xml.iterfind("variableList/variable"):
        values: list[str] = []
        for element in var.iterfind("element"):
            values.extend(found.get(element.get("name"), [element.get("name")]))
        found["$" + var.get("name") + "$"] = values
    return found


def _foreach_maps(foreach: str, variables: dict[str, list[str]]) -> list[dict[str, str]]:
    def expand(spec: str) -> list[dict[str, str]]:
        keys = spec.split(":")
        return [{"@" + k.strip("$") + "@": variables[k][i] for k in keys} for i in range(len(variables[keys[0]]))]

    levels = foreach.split("^")
    combos = expand(levels[0])
    if len(levels) == 2:
        combos = [{**inner, **outer} for outer in combos for inner in expand(levels[1])]
    return combos


def _attachments(xml: Any) -> Iterator[Attachment]:
    """Attachments with 2.x's variable and foreach expansion (GameParser.parseAttachments)."""
    variables = _variables(xml)
    for att in xml.iterfind("attachmentList/attachment"):
        foreach = att.get("foreach")
        for fmap in _foreach_maps(foreach, variables) if foreach else [{}]:

            def sub(text: str, fmap: dict[str, str] = fmap) -> str:
                for key, val in fmap.items():
                    text = text.replace(key, val)
                return text

            options = []
            for opt in att.iterfind("option"):
                name, value, count = opt.get("name"), opt.get("value"), opt.get("count")
                if name is None or value is None:
                    continue
                if foreach and any(key in (count or "") + value and not val for key, val in fmap.items()):
                    continue
                value, count = sub(value), sub(count) if count else count
                for key, vals in variables.items():
                    value = value.replace(key, ":".join(vals))
                    count = count.replace(key, ":".join(vals)) if count else count
                options.append((name, value, count))
            yield Attachment(att.get("javaClass").rsplit(".", 1)[-1], sub(att.get("name") or ""), tuple(options))


@cache
def _game(path: Path) -> Game:
    parser = etree.XMLParser(load_dtd=False, no_network=True, resolve_entities=False)
    xml = etree.parse(str(path), parser).getroot()
    attachments = tuple(_attachments(xml))

    def names(xpath: str, *attrs: str) -> frozenset[str]:
        return frozenset(str(e.get(a)) for e in xml.iterfind(xpath) for a in attrs or ("name",) if e.get(a))

    by_class = {
        "condition": "RulesAttachment",
        "trigger": "TriggerAttachment",
        "unitSupport": "UnitSupportAttachment",
        "politicalAction": "PoliticalActionAttachment",
        "userAction": "UserActionAttachment",
    }
    known = {
        "unit": names("unitList/unit"),
        "territory": names("map/territory"),
        "player": names("playerList/player"),
        "resource": names("resourceList/resource"),
        "tech": names("technology/technologies/techname", "name", "tech"),
        "relationshipType": names("relationshipTypes/relationshipType"),
        "territoryEffect": names("territoryEffectList/territoryEffect"),
        "productionFrontier": names("production/productionFrontier"),
        "productionRule": names("production/productionRule"),
        "property": names("propertyList/property"),
        "step": names("gamePlay/sequence/step"),
        "attachment": frozenset(a.name for a in attachments),
    }
    for kind, cls in by_class.items():
        known[kind] = frozenset(a.name for a in attachments if a.java_class == cls)
    return Game(path, xml.find("variableList") is not None, attachments, known)


def test_the_shared_xmls_are_all_there() -> None:
    assert len(XML_FILES) == 23


def _loadable_by_19(game: Game) -> bool:
    return not game.uses_variables and all(
        resolve_option("1.9", a.java_class, name) is not None for a in game.attachments for name, _, _ in a.options
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_xml_option_names_are_typed(engine: str) -> None:
    """Every option the engine accepts is in the catalog with a type; the others are 2.x-only names."""
    rejected: set[tuple[str, str]] = set()
    for path in XML_FILES:
        for att in _game(path).attachments:
            for name, _, _ in att.options:
                resolved = resolve_option(engine, att.java_class, name)
                if resolved is None:
                    rejected.add((att.java_class, name))
                else:
                    assert resolved[1]["type"] in TYPES
    if engine == "2.x":
        assert rejected == set()
    else:  # what 1.9 rejects exists in 2.x (those maps need 2.x)
        assert rejected, "expected some 2.x-only options in the shared XMLs"
        for cls, name in rejected:
            assert resolve_option("2.x", cls, name) is not None, (cls, name)


@pytest.mark.parametrize("path", XML_FILES, ids=lambda p: p.name)
@pytest.mark.parametrize("engine", ENGINES)
def test_xml_values_parse(engine: str, path: Path) -> None:
    game = _game(path)
    if engine == "1.9" and not _loadable_by_19(game):
        pytest.skip("uses 2.x-only features (variables or options)")
    errors = []
    checked = 0
    for att in game.attachments:
        for name, value, count in att.options:
            err = check_value(engine, att.java_class, name, value, count=count, names=game.names)
            checked += 1
            if err is not None:
                errors.append(f"{att.name}: {err}")
    assert checked > 0
    assert errors == [], "\n".join(errors[:20])


def test_most_shared_xmls_load_in_19() -> None:
    loadable = [p.name for p in XML_FILES if _loadable_by_19(_game(p))]
    assert len(loadable) >= 15, loadable
    assert "lhtr.xml" in loadable and "ww2v2.xml" in loadable
