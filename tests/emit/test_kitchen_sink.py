"""The kitchen-sink spec: every spec feature, built through the CLI, pinned by goldens, loaded by the engine.

Goldens live in tests/goldens/kitchen_sink/ and are compared after canonicalising (XML C14N), so a
change of formatting alone shows as no difference. Regenerate with `pytest --update-goldens`.
"""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest
from lxml import etree

from generator.engine.harness import dump
from tests.helpers import ROOT, run_cli

FIXTURE = ROOT / "tests" / "fixtures" / "kitchen_sink"
GOLDENS = ROOT / "tests" / "goldens" / "kitchen_sink"
FILES = [
    "games/sink_base.xml",
    "games/sink_base.notes.html",
    "games/kitchen_sink.xml",
    "games/kitchen_sink.notes.html",
    "games/sink_2x.xml",
    "map.yml",
]


def canonical(rel: str, data: bytes) -> str:
    if rel.endswith(".xml"):
        parser = etree.XMLParser(resolve_entities=False, no_network=True, remove_blank_text=True)
        root = etree.fromstring(data, parser)
        return etree.tostring(root, method="c14n2").decode().replace("><", ">\n<")
    return data.decode("utf-8")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = tmp_path_factory.mktemp("sink")
    shutil.copytree(FIXTURE / "rules", project / "rules")
    result = run_cli("build", cwd=project)
    assert result.code == 0, result.err
    return project / "output"


@pytest.mark.parametrize("rel", FILES)
def test_matches_golden(built: Path, rel: str, update_goldens: bool) -> None:
    actual = canonical(rel, (built / rel).read_bytes())
    golden = GOLDENS / rel
    if update_goldens:
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes((built / rel).read_bytes())
    expected = canonical(rel, golden.read_bytes())
    if actual != expected:
        diff = "\n".join(
            difflib.unified_diff(expected.splitlines(), actual.splitlines(), "golden", "built", lineterm="")
        )
        pytest.fail(f"{rel} differs from its golden (pytest --update-goldens to accept):\n{diff[:4000]}")


@pytest.mark.engine
def test_engine_reads_every_feature(built: Path) -> None:
    base, child = built / "games" / "sink_base.xml", built / "games" / "kitchen_sink.xml"
    dumps = dump([base, child])
    for path in (base, child):
        assert "error" not in dumps[str(path)], dumps[str(path)].get("error")
        assert dumps[str(path)].get("saxErrors", []) == []
    parent, game = dumps[str(base)], dumps[str(child)]
    assert [p["name"] for p in parent["players"]] == ["Reds", "Blues", "Greens"]
    assert [p["name"] for p in game["players"]] == ["Reds", "Blues"]
    steps = [s["name"] for s in game["sequence"]]
    assert steps.index("redsTechActivation") == steps.index("redsPlace") + 1
    assert "greensPurchase" not in steps
    assert "fighter" not in game["unitTypes"] and "artillery" in game["unitTypes"]
    infantry = game["unitTypes"]["infantry"]["attachments"]["unitAttachment"]["options"]
    assert infantry["attack"] == 2 and infantry["defense"] == 2
    alpha = game["territories"]["Alpha"]
    assert alpha["damagedUnits"] == [{"count": 1, "damage": 2, "hits": 0, "owner": "Reds", "unitType": "factory"}]
    reds = game["players"][0]
    assert sorted(reds["attachments"]) == [
        "conditionAttachmentRedsHoldHome",
        "playerAttachment",
        "triggerAttachmentRedsBonus",
    ]
    assert game["properties"]["Low Luck"] is True
    assert "neutralCharge" not in game["properties"]
    assert parent["properties"]["neutralCharge"] == 3
    assert parent["properties"]["Max Rounds"] == 10  # the option is read, not the constant (12) kept beside it


@pytest.mark.engine
def test_a_2x_only_variant_is_refused_by_19_in_its_own_words(built: Path) -> None:
    """`game.target: 2.x` allows 2.x-only options; `minimum_version` makes 1.9 say why it cannot play it."""
    path = built / "games" / "sink_2x.xml"
    assert b'<option name="canEvade" value="true"/>' in path.read_bytes()
    error = dump([path])[str(path)]["error"]
    assert error.startswith("games.strategy.engine.data.EngineVersionException: Current engine version: 1.9, ")
    assert "required by map: Kitchen Sink 2x" in error
