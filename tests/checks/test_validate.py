"""`triplea-forge validate` on specs and on any TripleA XML: no false errors, located true ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import DATA, OFFICIAL_GAMES, REFERENCE_XMLS, ROOT, run_cli

# Games the 1.9 engine refuses (checked with the engine harness: newer options, no version...).
NOT_FOR_19 = {
    "Civil_War_Eastern_Campaigns.xml",
    "Invasion_USA.xml",
    "imperialism_1974_board_game.xml",
    "revised_test.xml",
}
# 2.x variables/foreach: 1.9 cannot read these games at all.
USES_VARIABLES = {"Invasion_USA.xml", "imperialism_1974_board_game.xml"}


def test_validate_variants() -> None:
    result = run_cli("validate", cwd=ROOT)
    assert result.code == 0, result.err
    assert result.out.strip().endswith("no errors")


@pytest.mark.engine
def test_reference_xmls_19_matches_the_engine() -> None:
    """For 1.9, validate passes exactly the files the real engine parses."""
    from generator.engine.harness import dump

    dumps = dump(REFERENCE_XMLS)
    accepted = {p.name for p in REFERENCE_XMLS if "error" not in dumps[str(p)]}
    assert accepted == {p.name for p in REFERENCE_XMLS} - NOT_FOR_19
    result = run_cli("validate", "--target", "1.9", *[str(p) for p in REFERENCE_XMLS if p.name in accepted], cwd=ROOT)
    assert result.code == 0, result.err[-3000:]


@pytest.mark.parametrize("name", sorted(NOT_FOR_19 - USES_VARIABLES))
def test_reference_xmls_refused_by_19_are_reported(name: str) -> None:
    result = run_cli("validate", "--target", "1.9", str(DATA / "xml" / name), cwd=ROOT)
    assert result.code == 1
    assert "Traceback" not in result.err


@pytest.mark.slow
def test_reference_xmls_2x_no_false_errors() -> None:
    files = [str(p) for p in REFERENCE_XMLS]
    result = run_cli("validate", "--target", "2.x", *files, cwd=ROOT)
    assert result.code == 0, result.err[-3000:]


def test_hand_written_xml_mistakes_point_at_lines(tmp_path: Path) -> None:
    text = (OFFICIAL_GAMES / "lhtr.xml").read_text(encoding="utf-8")
    lines = text.splitlines()
    attack = next(i for i, line in enumerate(lines) if '<option name="attack" value="1"/>' in line)
    lines[attack] = lines[attack].replace('value="1"', 'value="x"')
    blitz = next(i for i, line in enumerate(lines) if '<option name="canBlitz"' in line)
    lines[blitz] = lines[blitz].replace("canBlitz", "canBlits")
    capital = next(i for i, line in enumerate(lines) if '<option name="capital" value="British"/>' in line)
    lines[capital] = lines[capital].replace("British", "Brits")
    broken = tmp_path / "broken.xml"
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_cli("validate", str(broken), cwd=tmp_path)
    assert result.code == 1
    assert result.err.splitlines() == [
        # Warnings show beside errors: here, what the misspelt capital leaves the British without.
        "broken.xml:508:1: warning: players.British: no territory is the capital of British (capital: British); "
        "the engine stops at their first technology or income step",
        f"broken.xml:{attack + 1}:1: units.infantry.attack: 'x' is not an integer",
        f"broken.xml:{blitz + 1}:1: units.armour.canBlits: unknown option 'canBlits' for UnitAttachment "
        "(did you mean 'canBlitz'?)",
        f"broken.xml:{capital + 1}:1: territories.'United Kingdom'.capital: unknown player 'Brits' "
        "(did you mean 'British'?)",
        "3 errors and 1 warning found.",
    ]


@pytest.mark.engine
def test_dtd_messages_of_an_xml_are_errors(tmp_path: Path) -> None:
    text = (OFFICIAL_GAMES / "ww2v2.xml").read_text(encoding="utf-8")
    broken = tmp_path / "order.xml"
    broken.write_text(text.replace("<map>", "<map>\n    <island/>", 1), encoding="utf-8")
    result = run_cli("validate", "--target", "1.9", str(broken), cwd=tmp_path)
    assert result.code == 1
    assert "order.xml:7:1: DTD: No declaration for element island" in result.err


def test_strict_schema_catches_what_it_covers(tmp_path: Path) -> None:
    """The catalog-derived XSD on its own: a bad value and an unknown option name, each at its attachment."""
    from generator.checks.xsd import check_xml_against_xsd

    data = (OFFICIAL_GAMES / "lhtr.xml").read_bytes()
    assert check_xml_against_xsd(data, "lhtr.xml") == []
    broken = data.replace(b'<option name="attack" value="1"/>', b'<option name="attack" value="x"/>', 1)
    broken = broken.replace(b'name="canBlitz"', b'name="canBlits"', 1)
    messages = [d.message for d in check_xml_against_xsd(broken, "broken.xml")]
    assert messages == [
        "XSD: attachment 'unitAttachment' on 'infantry' (games.strategy.triplea.attachments.UnitAttachment): "
        "option 'attack' has a value of the wrong kind ('x')",
        "XSD: attachment 'unitAttachment' on 'armour' (games.strategy.triplea.attachments.UnitAttachment): "
        "'canBlits' is not an option of this class",
    ]


def test_strict_schema_digest_finds_what_the_whole_document_does() -> None:
    """The XSD runs on a digest (each distinct option of a class once); every original occurrence is
    still reported, at the same elements the schema flags when it reads the whole document."""
    from lxml import etree

    from generator.checks.xsd import check_xml_against_xsd, strict_schema

    data = (OFFICIAL_GAMES / "lhtr.xml").read_bytes()
    broken = (
        data.replace(b'name="isAir"', b'name="isAire"')  # fighter and bomber: one digest option
        .replace(b'<option name="attack" value="1"/>', b'<option name="attack" value="one"/>')
        .replace(b'<option name="movement" value="2"/>', b'<option name="movement" value="2" count="1"/>', 1)
        .replace(b'name="isSea" value="true"', b'name="isSea" value="yes"', 1)
        .replace(b"attachments.CanalAttachment", b"attachments.KanalAttachment")
        .replace(b'<option name="isSub" value="true"/>', b'<option name="isSub" value="true"/><sub/>', 1)
    )
    assert broken.count(b"isAire") > 1 and broken.count(b'value="one"') > 1
    findings = check_xml_against_xsd(broken, "broken.xml")
    document = etree.fromstring(broken, etree.XMLParser(resolve_entities=False, load_dtd=False, no_network=True))
    whole = sorted(error.elem.sourceline for error in strict_schema("portable").iter_errors(document))
    assert [f.mark.line for f in findings] == whole
    messages = [f.message for f in findings]
    assert sum("is not an option of this class" in m for m in messages) == broken.count(b"isAire")
    assert sum("value of the wrong kind" in m for m in messages) == broken.count(b'value="one"') + 2
    assert sum(m.endswith("unknown attachment class") for m in messages) == broken.count(b"KanalAttachment")


def _mutations() -> list[bytes]:
    """The official LHTR game, and broken copies hitting each rule of the strict schema."""
    data = (OFFICIAL_GAMES / "lhtr.xml").read_bytes()
    return [
        data,
        data.replace(b'name="isAir"', b'name="isAire"'),  # unknown option names, several
        data.replace(b'name="isAir"', b'name="IsAir"'),  # a capital first letter: both engines take it
        data.replace(b'<option name="attack" value="1"/>', b'<option name="attack" value="one"/>'),
        data.replace(b'<option name="movement" value="2"/>', b'<option name="movement" value="2" count="1"/>', 1),
        data.replace(b'<option name="movement" value="2"/>', b'<option name="movement" value=" +2 "/>', 1),
        data.replace(b'name="isSea" value="true"', b'name="isSea" value="yes"', 1),
        data.replace(b"attachments.CanalAttachment", b"attachments.KanalAttachment"),
    ]


@pytest.mark.slow
def test_the_build_applies_the_strict_schema_rules_as_the_schema_does(tmp_path: Path) -> None:
    """The build checks the XML it renders with the schema's rules directly (no xmlschema: half a
    second saved in a fresh process); on every case here both find the same, line by line."""
    import os

    from generator.checks import xsd
    from generator.checks.xml_options import check_xml_options

    os.environ["XDG_CACHE_HOME"] = str(tmp_path)  # no remembered passes: the schema always runs
    try:
        corpus = [*_mutations(), *(p.read_bytes() for p in REFERENCE_XMLS if b"<variableList" not in p.read_bytes())]
        corpus += [p.read_bytes() for p in sorted((ROOT / "output" / "games").glob("*.xml"))]
        for target in ("portable", "1.9", "2.x"):
            for data in corpus:
                schema = xsd.check_xml_against_xsd(data, "game.xml", target)
                assert check_xml_options(data, "game.xml", target) == schema
    finally:
        del os.environ["XDG_CACHE_HOME"]
    assert check_xml_options(_mutations()[1], "game.xml") != []  # the corpus does hold findings
