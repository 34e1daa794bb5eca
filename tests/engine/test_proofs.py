"""Every enforced rule carries its proof, and every proof holds in the real engine.

A ledger entry graded exact or approximate names `proof: {scenario: NAME}` (an engine scenario run
by a test on the variant, see tests/proofs.py) and/or `proof: {dump: FACTS}` (facts of the engine's
own dump of the built game). Here: the dump facts of every variant are checked against the dump
engine 1.9 makes of `output/games/<variant>.xml`; every scenario a ledger names is run on that
variant by a test; the scenario list matches the Java driver; and the build reports proofs that
cannot hold (unknown scenario or subject, a scenario of another variant, a notes-only rule).
"""

from __future__ import annotations

import importlib
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from generator.catalog.scenarios import SCENARIOS
from generator.engine.harness import dump
from generator.engine.proof import EMPTY_ATTACHMENT, check_facts, readable_by_19
from generator.engine.scenario import players, run_scenario, run_scenarios
from generator.spec.ledger import DumpFacts
from tests.helpers import ROOT, run_cli, variant_spec, write_tree
from tests.proofs import PROVEN, game_for_engine, map_files_for_engine

LEDGER_VARIANTS = ("aare", "aare-2x", "aarhe", "aarhe-2x", "aarhe-draft", "aarhe-phase1", "expansion")


def _scenario_test_modules() -> list[str]:
    """Test modules holding `@proves` tests; importing them fills PROVEN."""
    names = []
    for path in sorted((ROOT / "tests").rglob("test_*.py")):
        if "@proves(" in path.read_text(encoding="utf-8"):
            names.append(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return names


@cache
def _engine_dump(variant: str) -> dict[str, Any]:
    game = game_for_engine(variant)
    return dump([game])[str(game)]


def test_ledger_variants_are_all_the_variants_with_a_ledger() -> None:
    with_ledger = {
        path.name for path in (ROOT / "rules").iterdir() if path.is_dir() and variant_spec(path.name).rule_ledger
    }
    assert with_ledger == set(LEDGER_VARIANTS)


@pytest.mark.engine
@pytest.mark.parametrize("variant", LEDGER_VARIANTS)
def test_dump_facts_hold_in_the_engine(variant: str) -> None:
    game = _engine_dump(variant)
    assert "error" not in game, game.get("error")
    # Only a 2.x game's attachments left without their 2.x options may miss an option for 1.9's DTD.
    assert [e for e in game["saxErrors"] if EMPTY_ATTACHMENT not in e] == []
    wrong = {
        rule_id: [problem for facts in entry.proof.facts for problem in check_facts(facts, game)]
        for rule_id, entry in variant_spec(variant).rule_ledger.items()
        if entry.proof is not None
    }
    assert {rule_id: problems for rule_id, problems in wrong.items() if problems} == {}


def test_every_scenario_proof_is_run_by_a_test_on_its_variant() -> None:
    for module in _scenario_test_modules():
        importlib.import_module(module)
    missing = [
        (variant, rule_id, scenario)
        for variant in LEDGER_VARIANTS
        for rule_id, entry in variant_spec(variant).rule_ledger.items()
        if entry.proof is not None
        for scenario in entry.proof.scenarios
        if (scenario, variant) not in PROVEN
    ]
    assert missing == []
    # ... and every variant a scenario is listed for has its test.
    untested = [(name, v) for name, info in SCENARIOS.items() for v in info.variants if (name, v) not in PROVEN]
    assert untested == []


@pytest.mark.engine
def test_a_scenario_played_in_a_batch_reports_what_it_reports_alone() -> None:
    """The proofs play a variant's scenarios one after another in one JVM (tests/proofs.py): a run
    there, after another on the same game, reports the facts it reports in a JVM of its own."""
    game, map_files = game_for_engine("expansion"), map_files_for_engine("expansion")
    alone = run_scenario("expansion-units", game, map_files=map_files)
    batched = run_scenarios([("expansion-turn", game), ("expansion-units", game)], map_files=map_files)
    assert "error" not in alone
    assert batched[1] == alone


@pytest.mark.engine
def test_every_listed_scenario_is_played_by_one_proof_class() -> None:
    """The driver finds one compiled proof class (rules/<variant>/proofs/) for each scenario the
    catalog lists, and none for a name nobody provides."""
    found = players([*SCENARIOS, "no-such-scenario"])
    assert {name: who for name, who in found.items() if who is None or " " in who} == {"no-such-scenario": None}


def test_check_facts_words_each_difference() -> None:
    game = {
        "unitTypes": {"tank": {"attachments": {"unitAttachment": {"options": {"attack": 3, "movement": 2}}}}},
        "territories": {"Home": {"owner": "Reds", "units": {"Reds": {"tank": 2}}, "attachments": {}}},
        "players": [{"name": "Reds", "productionFrontier": "main", "resources": {"PUs": 10}, "attachments": {}}],
        "productionRules": {"buyTank": {"costs": {"PUs": 5}, "results": {"tank": 1}}},
        "productionFrontiers": {"main": ["buyTank"]},
        "properties": {"WW2V2": True},
        "sequence": [{"name": "a", "delegate": "purchase"}, {"name": "b"}, {"name": "c"}],
        "technologies": {"Jet Power": {"property": "jetPower", "attachments": {}}},
    }
    holds = DumpFacts.model_validate(
        {
            "units": {"tank": {"attack": 3}},
            "territories": {"Home": {"owner": "Reds", "units": {"Reds": {"tank": 2}}}},
            "players": {"Reds": {"production_frontier": "main", "resources": {"PUs": 10}}},
            "production_rules": {"buyTank": {"cost": {"PUs": 5}}},
            "production_frontiers": {"main": ["buyTank"]},
            "properties": {"WW2V2": True},
            "steps": ["a", "c"],
            "sequence": {"a": {"delegate": "purchase"}},
            "technologies": {"jetPower": {}},
        }
    )
    assert check_facts(holds, game) == []
    fails = DumpFacts.model_validate(
        {
            "units": {"tank": {"attack": 4, "defense": 1}, "plane": {"attack": 1}},
            "production_rules": {"buyTank": {"cost": {"PUs": 6}}},
            "production_frontiers": {"main": ["buyPlane"]},
            "properties": {"WW2V2": False},
            "steps": ["c", "a"],
        }
    )
    assert check_facts(fails, game) == [
        "units 'tank' unitAttachment.attack: the engine reads 3, the proof claims 4",
        "units 'tank' unitAttachment.defense: the engine's dump has no such value",
        "units 'plane': not in the engine's game",
        "production rule 'buyTank' cost: the engine reads {'PUs': 5}, the proof claims {'PUs': 6}",
        "production frontier 'main' lacks buyPlane",
        "property 'WW2V2': the engine reads True, the proof claims False",
        "steps: 'a' does not come after the steps before it in the proof",
    ]


def test_a_2x_game_is_read_by_19_without_its_2x_parts() -> None:
    xml = (ROOT / "output" / "games" / "aare-2x.xml").read_bytes()
    assert b"<triplea minimumVersion" in xml and b'name="movementCostModifier"' in xml
    readable = readable_by_19(xml)
    assert b"<triplea minimumVersion" not in readable
    assert b'name="movementCostModifier"' not in readable
    assert readable.count(b"<territory ") == xml.count(b"<territory ")


BAD_PROOFS = """
    game: {name: Proofs, version: "1", map: m}
    players: {Reds: {}}
    units: {tank: {attack: 3, ledger: [r-1, r-2, r-3]}}
    territories: {Home: {owner: Reds}}
    rule_ledger:
      r-1:
        {head}
        fidelity: {grade: exact}
        proof: {scenario: victroy}
      r-2:
        {head}
        fidelity: {grade: exact}
        proof: {scenario: victory}
      r-3:
        {head}
        fidelity: {grade: exact}
        proof: {dump: {units: {tnak: {attack: 3}}, territories: {Home: {atack: 1}}, steps: [nope]}}
      r-5:
        {head}
        fidelity: {grade: notes-only, note: n}
        proof: {scenario: victory}
"""


def test_the_build_reports_proofs_that_cannot_hold(tmp_path: Path) -> None:
    head = 'section: S\n        source: "x"\n        summary: s'
    write_tree(tmp_path, {"rules/bad/game.yaml": BAD_PROOFS.replace("{head}", head)})
    result = run_cli("validate", "bad", cwd=tmp_path)
    assert result.code == 1
    out = result.out + result.err
    assert "rule_ledger.r-1.proof.scenario: unknown scenario 'victroy' (did you mean 'victory'?)" in out
    assert "rule_ledger.r-2.proof.scenario: scenario 'victory' is not run on 'bad'" in out
    assert "rule_ledger.r-3.proof.dump.units.tnak: unknown unit 'tnak' (did you mean 'tank'?)" in out
    assert "rule_ledger.r-3.proof.dump.territories.Home.atack: unknown option 'atack' for TerritoryAttachment" in out
    assert "rule_ledger.r-3.proof.dump.steps[0]: unknown step 'nope'" in out
    assert "rule_ledger.r-5.proof: rule 'r-5' is notes-only on engine 1.9" in out
    assert re.search(r"game\.yaml:\d+:\d+: rule_ledger\.r-1\.proof\.scenario", out)


def test_an_unknown_kind_of_fact_is_a_located_error(tmp_path: Path) -> None:
    head = 'section: S\n        source: "x"\n        summary: s'
    text = BAD_PROOFS.replace("{head}", head).replace("{dump: {units: {tnak:", "{dump: {unit: {tnak:")
    write_tree(tmp_path, {"rules/bad/game.yaml": text})
    result = run_cli("validate", "bad", cwd=tmp_path)
    assert result.code == 1
    assert "rule_ledger.r-3.proof.dump.unit: unknown key 'unit' (did you mean 'units'?)" in result.out + result.err
