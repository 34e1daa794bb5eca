"""Mistakes engine 1.9 accepts without a word (engine notes §1.3), each reported by us.

| case (engine notes §1.3)        | engine 1.9          | triplea-forge                         |
|---------------------------------|---------------------|---------------------------------------|
| c3 negative movement            | accepted            | error: movement must not be negative  |
| q property outside its range    | accepted            | error: value outside its range        |
| x  player without a frontier    | accepted, never buys| warning: they can never buy           |
| x2 player without a capital     | fails in round 1    | warning: no capital                   |
| x3 step with an unknown player  | accepted (DTD note) | error: unknown player                 |
| f  elements out of order (XML)  | accepted (DTD note) | error: the DTD message                |
| a unit type naming itself       | cannot copy the game| warning: 1.9 cannot save or copy it   |
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import OFFICIAL_GAMES, ROOT, run_cli, write_tree

TINY = ROOT / "tests" / "fixtures" / "tiny"

SPEC_CASES = {
    "negative_movement": (
        "units:\n  infantry: {movement: -1}\n",
        "rules/broken/game.yaml:3:24: units.infantry.movement: movement must not be negative "
        "(the engine accepts it silently)",
    ),
    "property_out_of_range": (
        "properties:\n  Max Rounds: {value: 99, editable: true, min: 8, max: 12}\n",
        "rules/broken/game.yaml:3:23: properties.'Max Rounds'.value: value 99 is outside its range 8..12 (the "
        "engine refuses an editable one)",
    ),
    "missing_frontier": (
        "players:\n  Blues:\n    production_frontier: !delete\n",
        "rules/broken/game.yaml:4:5: players.Blues: Blues has a purchase step but no production_frontier: "
        "they can never buy",
    ),
    "missing_capital": (
        "territories:\n  Beta: {capital: !delete }\n",
        "rules/tiny/game.yaml:7:3: players.Blues: no territory is the capital of Blues (capital: Blues) and Blues is "
        'not optional; TripleA 1.9 loads the game and fails when bluesPurchase runs: "Capital not found for:" '
        "(TerritoryAttachment.getAllCapitals)",
    ),
    "step_unknown_player": (
        "sequence:\n  bluesPurchase: {player: Blue}\n",
        "rules/broken/game.yaml:3:27: sequence.bluesPurchase.player: unknown player 'Blue' (did you mean 'Blues'?)",
    ),
    "support_for_own_type": (
        "units:\n  infantry:\n    attachments:\n      supportAttachmentDrill: {unitType: [infantry], faction: allied,"
        " side: offence,\n        dice: strength, bonus: 1, number: 1, bonusType: Drill}\n",
        "rules/broken/game.yaml:5:42: units.infantry.attachments.supportAttachmentDrill.unitType: engine 1.9 "
        "cannot save or copy a game with this support (its AIs fail on their first purchase): it gives its bonus to "
        "infantry, the unit type it is attached to",
    ),
    "unit_names_own_type": (
        "units:\n  infantry: {givesMovement: [1, infantry]}\n",
        "rules/broken/game.yaml:3:29: units.infantry.givesMovement: engine 1.9 cannot save or copy a game with this "
        "unit (its AIs fail on their first purchase): its givesMovement names infantry, the unit type it belongs to",
    ),
}


@pytest.mark.parametrize("case", sorted(SPEC_CASES))
def test_silently_accepted_case_is_reported(tmp_path: Path, case: str) -> None:
    text, expected = SPEC_CASES[case]
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    write_tree(tmp_path / "rules", {"broken/game.yaml": "extends: tiny\n" + text})
    result = run_cli("validate", "broken", "--strict", cwd=tmp_path)
    assert result.code == 1
    assert expected in result.err.splitlines()


@pytest.mark.engine
def test_elements_out_of_order_are_reported(tmp_path: Path) -> None:
    text = (OFFICIAL_GAMES / "ww2v2.xml").read_text(encoding="utf-8")
    start, end = text.index("  <resourceList>"), text.index("  </resourceList>\n") + len("  </resourceList>\n")
    resources = text[start:end]
    moved = text[:start] + text[end:]
    moved = moved.replace("  </playerList>\n", "  </playerList>\n" + resources, 1)
    (tmp_path / "order.xml").write_text(moved, encoding="utf-8")
    result = run_cli("validate", "--target", "1.9", "order.xml", cwd=tmp_path)
    assert result.code == 1
    assert "DTD: Element game content does not follow the DTD" in result.err


def test_support_for_own_type_is_not_reported_for_2x(tmp_path: Path) -> None:
    """The warning is about engine 1.9 (measured there): a check for 2.x alone does not give it."""
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    text = SPEC_CASES["support_for_own_type"][0]
    write_tree(tmp_path / "rules", {"broken/game.yaml": "extends: tiny\n" + text})
    result = run_cli("validate", "broken", "--target", "2.x", cwd=tmp_path)
    assert result.code == 0, result.err
    # The tests install tiny's map ($TRIPLEA_MAPS), so the board is checked too: no warning is left.
    assert [line for line in result.err.splitlines() if "warning" in line] == [], result.err
