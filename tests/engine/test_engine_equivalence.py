"""The real TripleA 1.9 engine reads our generated XML exactly as it reads the official XML.

Whole-dump equality: every player, territory, unit option, attachment, rule, step and property the
engine holds after parsing (see generator/engine/java/GameDump.java for the layout).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.engine.harness import dump
from tests.helpers import OFFICIAL_GAMES, ROOT

PAIRS = [("ww2v2.xml", "revised.xml"), ("lhtr.xml", "lhtr.xml")]


@pytest.fixture(scope="module")
def dumps() -> dict[str, dict[str, object]]:
    paths = [p for official, ours in PAIRS for p in (OFFICIAL_GAMES / official, ROOT / "output" / "games" / ours)]
    return dump(paths)


@pytest.mark.engine
@pytest.mark.parametrize(("official", "ours"), PAIRS)
def test_generated_game_equals_official(dumps: dict[str, dict[str, object]], official: str, ours: str) -> None:
    expected = dumps[str(OFFICIAL_GAMES / official)]
    actual = dumps[str(ROOT / "output" / "games" / ours)]
    assert "error" not in actual, actual.get("error")
    assert actual.get("saxErrors", []) == []
    differing = sorted(k for k in set(expected) | set(actual) if expected.get(k) != actual.get(k))
    assert differing == []
    assert actual == expected


@pytest.mark.engine
def test_dump_sees_a_one_value_change(tmp_path: Path) -> None:
    """The equality above is meaningful: one changed unit stat changes the dump."""
    source = (ROOT / "output" / "games" / "lhtr.xml").read_text(encoding="utf-8")
    changed = source.replace('<option name="attack" value="1"/>', '<option name="attack" value="2"/>', 1)
    assert changed != source
    mutant = tmp_path / "mutant.xml"
    mutant.write_text(changed, encoding="utf-8")
    result = dump([ROOT / "output" / "games" / "lhtr.xml", mutant])
    original, mutated = result[str(ROOT / "output" / "games" / "lhtr.xml")], result[str(mutant)]
    assert original["unitTypes"] != mutated["unitTypes"]
