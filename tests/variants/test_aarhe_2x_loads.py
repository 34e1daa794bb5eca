"""`aarhe-2x` loads in TripleA 2.x (issue 28): what 2.x refuses or misreads in a shipped game.

Facts from TripleA 2.x's source (UnitAttachment, TechAbilityAttachment; the same in 2.6, 2.7 and
the current build), since no 2.x engine runs in the suite:
- `setCanNotTarget` throws "Can't use canNotTarget with isSub/isSuicide, replace isSub with individual
  sub properties or isSuicide with isSuicideOnAttack/isSuicideOnDefense" when the unit already has
  isSub or isSuicide, and setting isSub after the lists silently empties both (`resetCanNotTarget`,
  `resetCanNotBeTargetedBy`; isSuicide empties canNotTarget): the old shorthands and the lists do
  not mix.
- `isSub` reads as canEvade, isFirstStrike, canMoveThroughEnemies (with "Submersible Subs"),
  canBeMovedThroughByEnemies (with "Ignore Sub In Movement"), no aircraft targeted, and aircraft
  unable to hit it (with "Air Attack Sub Restricted").
- Super Subs' default attachment gives +1 attack to every first-strike unit, and
  "Super Sub Defence Bonus" adds to the defence of every first-strike unit.
Every variant TripleA 2.x plays (target 2.x or portable) is checked in its built game.
"""

from __future__ import annotations

from lxml import etree

from generator.engine.proof import readable_by_19
from generator.engine.sub_options import fold_sub_options
from generator.safe_xml import safe_parser
from generator.spec.resolve import Rules
from tests.helpers import ROOT, variant_target

GAMES = ROOT / "output" / "games"
PLAYED_BY_2X = [v for v in Rules(ROOT / "rules").variants() if variant_target(v) != "1.9"]
AIRCRAFT = {"fighter", "bomber", "navalFighter", "diveBomber", "spitfire"}


def _game(variant: str) -> etree._Element:
    return etree.fromstring((GAMES / f"{variant}.xml").read_bytes(), safe_parser())


def _unit_options(root: etree._Element) -> dict[str, dict[str, list[str]]]:
    """Unit type -> option name -> its values, from the unit attachments of a game."""
    units: dict[str, dict[str, list[str]]] = {}
    for attachment in root.iter("attachment"):
        if (attachment.get("javaClass") or "").endswith(".UnitAttachment"):
            options = units.setdefault(attachment.get("attachTo") or "", {})
            for option in attachment.findall("option"):
                options.setdefault(option.get("name") or "", []).append(option.get("value") or "")
    return units


def _on(options: dict[str, list[str]], name: str) -> bool:
    return options.get(name, ["false"])[-1] == "true"


def _units(options: dict[str, list[str]], name: str) -> set[str]:
    return {unit for value in options.get(name, []) for unit in value.split(":") if unit}


def test_the_variants_2x_plays_include_both_2x_variants() -> None:
    assert {"aare-2x", "aarhe-2x"} <= set(PLAYED_BY_2X)


def test_no_unit_2x_plays_mixes_is_sub_or_is_suicide_with_target_lists() -> None:
    mixed = [
        (variant, unit, shorthand, lists)
        for variant in PLAYED_BY_2X
        for unit, options in _unit_options(_game(variant)).items()
        for shorthand in ("isSub", "isSuicide")
        if _on(options, shorthand)
        for lists in [[name for name in ("canNotTarget", "canNotBeTargetedBy") if name in options]]
        if lists
    ]
    assert mixed == []


def test_aarhe_2x_submarines_keep_every_submarine_ability() -> None:
    root = _game("aarhe-2x")
    properties = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert properties["Submersible Subs"] == "true"
    assert "Ignore Sub In Movement" not in properties and "Air Attack Sub Restricted" not in properties
    units = _unit_options(root)
    air = {unit for unit, options in units.items() if _on(options, "isAir")}
    assert air == AIRCRAFT
    for sub in ("submarine", "typeVIISubmarine"):
        options = units[sub]
        assert "isSub" not in options
        assert [_on(options, name) for name in ("canEvade", "isFirstStrike", "canMoveThroughEnemies")] == [True] * 3
        assert "canBeMovedThroughByEnemies" not in options  # isSub blocks ships without "Ignore Sub In Movement"
        assert _units(options, "canNotTarget") == air | {"submarine", "typeVIISubmarine"}
        assert _units(options, "canNotBeTargetedBy") == air
    # No unit is a destroyer for the engine: nothing lifts the first strike or the aircraft's blindness.
    assert not any(_on(options, "isDestroyer") for options in units.values())


def test_super_subs_bonuses_stay_on_submarines_where_other_units_strike_first() -> None:
    wrong = []
    for variant in PLAYED_BY_2X:
        root = _game(variant)
        units = _unit_options(root)
        subs = {u for u, o in units.items() if _on(o, "isSub") or _on(o, "canEvade")}
        first = {u for u, o in units.items() if _on(o, "isSub") or _on(o, "isSuicide") or _on(o, "isFirstStrike")}
        has_super_subs = any(t.get("name") == "superSub" or t.get("tech") == "superSub" for t in root.iter("techname"))
        if not has_super_subs or first <= subs:
            continue
        own = [
            a
            for a in root.iter("attachment")
            if a.get("attachTo") == "superSub" and (a.get("javaClass") or "").endswith(".TechAbilityAttachment")
        ]
        named = {o.get("value", "").split(":")[-1] for a in own for o in a.findall("option")}
        bonus = {p.get("name"): p.get("value") for p in root.iter("property")}.get("Super Sub Defence Bonus", "0")
        if not own or not named <= subs or bonus != "0":
            wrong.append((variant, sorted(first - subs), sorted(named), bonus))
    assert wrong == []


def test_the_19_reading_of_aarhe_2x_reads_its_submarines_as_is_sub() -> None:
    root = etree.fromstring(readable_by_19((GAMES / "aarhe-2x.xml").read_bytes()), safe_parser())
    units = _unit_options(root)
    assert sorted(u for u, o in units.items() if _on(o, "isSub")) == ["submarine", "typeVIISubmarine"]
    assert not any(name in o for o in units.values() for name in ("canEvade", "canNotTarget", "isFirstStrike"))


GAME = """<game><propertyList>{properties}</propertyList><attachmentList>
<attachment name="unitAttachment" attachTo="plane" javaClass="games.strategy.triplea.attachments.UnitAttachment">
  <option name="isAir" value="true"/></attachment>
<attachment name="unitAttachment" attachTo="boat" javaClass="games.strategy.triplea.attachments.UnitAttachment">
  <option name="isSea" value="true"/>{options}</attachment>
</attachmentList></game>"""
SUB = (
    '<option name="canEvade" value="true"/><option name="isFirstStrike" value="true"/>'
    '<option name="canMoveThroughEnemies" value="true"/><option name="canNotTarget" value="boat:plane"/>'
)
SUBMERSIBLE = '<property name="Submersible Subs" value="true"/>'


def _folded(options: str, properties: str = SUBMERSIBLE) -> list[str]:
    root = etree.fromstring(GAME.format(options=options, properties=properties), safe_parser())
    fold_sub_options(root)
    boat = next(a for a in root.iter("attachment") if a.get("attachTo") == "boat")
    return [o.get("name") or "" for o in boat.findall("option")]


def test_options_that_amount_to_is_sub_are_read_as_is_sub_by_19() -> None:
    assert _folded(SUB) == ["isSea", "isSub", "canEvade", "isFirstStrike", "canMoveThroughEnemies", "canNotTarget"]
    # More than isSub gives (aircraft cannot hit it) is 2.x's alone and left to be dropped.
    assert "isSub" in _folded(SUB + '<option name="canNotBeTargetedBy" value="plane"/>')


def test_options_short_of_is_sub_or_beyond_what_it_allows_are_not() -> None:
    assert "isSub" not in _folded(SUB.replace('"canEvade" value="true"', '"canEvade" value="false"'))
    assert "isSub" not in _folded(SUB.replace("isFirstStrike", "isAir"))
    # isSub passes hostile sea zones only with Submersible Subs, and always blocks without
    # "Ignore Sub In Movement".
    assert "isSub" not in _folded(SUB, properties="")
    assert "isSub" not in _folded(SUB + '<option name="canBeMovedThroughByEnemies" value="true"/>')
    # isSub never fires at aircraft; with "Air Attack Sub Restricted", aircraft never hit it.
    assert "isSub" not in _folded(SUB.replace("boat:plane", "boat"))
    restricted = SUBMERSIBLE + '<property name="Air Attack Sub Restricted" value="true"/>'
    assert "isSub" not in _folded(SUB, properties=restricted)
    assert "isSub" in _folded(SUB + '<option name="canNotBeTargetedBy" value="plane"/>', properties=restricted)


def test_the_notes_say_how_2x_plays_a_rule_it_grades_the_same() -> None:
    notes = (GAMES / "aarhe-2x.notes.html").read_text(encoding="utf-8")
    line = next(li for li in notes.splitlines() if "[aarhe-p4-16]" in li)
    assert "TripleA 2.x: Enforced approximately, Variant aarhe-2x: submarines, aircraft and battleships" in line
