"""No false alarms on real games: what the engine loads and plays, import turns into a spec that
builds, and the engine reads the build as it reads the original.

`fixtures/precision/community.xml` is the `tiny` game written the ways real community maps write
things the checks once refused: a text property that looks like a number (`<string/>`), a map
named "1941", `editable="True"`, a number property outside the range it declares (fixed, so the
engine never checks it), a victory threshold, a relationship of the engine's own type
(`default_war_relation`) and an option value only engine 1.9 takes (`unitProperty` naming
`isInfantry`), so the game can only be meant for 1.9, a trigger naming the support attachment
the engine makes of an `artillery` unit (`supportAttachmentArtyOldartillery`), and a resource with
2.x's `isDisplayedFor`, which 1.9's grammar lacks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.engine.harness import dump
from tests.helpers import ROOT, run_cli

COMMUNITY = ROOT / "tests" / "fixtures" / "precision" / "community.xml"


def _game(doc: dict[str, Any]) -> dict[str, Any]:
    """The engine's dump without its DTD messages (the original's, which the rebuild no longer has)."""
    return {k: v for k, v in doc.items() if k != "saxErrors"}


def test_validate_takes_the_game_for_the_engine_it_is_meant_for(tmp_path: Path) -> None:
    result = run_cli("validate", str(COMMUNITY), cwd=tmp_path)
    assert result.code == 0, result.err
    assert "warning: checked for TripleA 1.9 alone: the game uses options only that engine takes" in result.err
    # An attribute only 2.x declares: 1.9 ignores it and plays the game.
    assert (
        "warning: DTD: No declaration for attribute isDisplayedFor of element resource (an attribute of TripleA 2.x: "
        "1.9 ignores it and plays the game)"
    ) in result.err


@pytest.mark.engine
def test_import_builds_and_the_engine_reads_the_same_game(tmp_path: Path) -> None:
    imported = run_cli("import", str(COMMUNITY), "--name", "community", cwd=tmp_path)
    assert imported.code == 0, imported.err
    spec = yaml.safe_load((tmp_path / "rules" / "community" / "game.yaml").read_text(encoding="utf-8"))
    assert spec["game"]["target"] == "1.9"
    assert spec["game"]["map"] == "1941" and spec["properties"]["Scenario Year"] == {"value": "1941"}
    assert spec["properties"]["Total Victory"]["editable"] is True
    assert spec["resources"]["PUs"] == {"displayed_for": ["Reds", "Blues"]}  # 2.x's isDisplayedFor, kept
    built = run_cli("build", "community", cwd=tmp_path)
    assert built.code == 0, built.err
    rebuilt = tmp_path / "output" / "games" / "community.xml"
    assert '<resource name="PUs" isDisplayedFor="Reds:Blues"/>' in rebuilt.read_text(encoding="utf-8")
    dumps = dump([COMMUNITY, rebuilt])
    assert _game(dumps[str(COMMUNITY)]) == _game(dumps[str(rebuilt)])
