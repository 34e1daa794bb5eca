"""The gates catalog (generator/catalog/gates-*.json) is what scripts/catalog/extract_gates.py finds in the engines.

* 1.9: the extraction re-run on the installed jar (its bytecode, `javap -c -p`) gives the committed file;
* 2.x: the assembly re-run on the committed digest of the source (scripts/catalog/raw/gates-2.x.source.json)
  gives the committed file (the suite has no 2.x source);
* both files have the catalog's layout, and a few facts a reader relies on are spelled out;
* a fact of scripts/catalog/gates.yaml whose evidence is not found stops the extraction.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import re
import shutil
import sys
from functools import cache
from typing import Any

import pytest

from tests.helpers import ENGINE_JAR, ROOT

SCRIPTS = ROOT / "scripts" / "catalog"
CATALOG = ROOT / "generator" / "catalog"
DIGEST_2X = SCRIPTS / "raw" / "gates-2.x.source.json"
RULE_KINDS = ("objective", "userAction", "politicalAction", "trigger")


@cache
def _extractor() -> Any:
    spec = importlib.util.spec_from_file_location("extract_gates", SCRIPTS / "extract_gates.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(SCRIPTS))
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _gates(engine: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((CATALOG / f"gates-{engine}.json").read_text(encoding="utf-8"))
    return loaded


def _digest_2x() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(DIGEST_2X.read_text(encoding="utf-8"))
    return loaded


def _kind(gates: dict[str, Any], match: str) -> dict[str, Any]:
    found: list[dict[str, Any]] = [k for k in gates["triggerKinds"] if k["match"] == match]
    assert len(found) == 1, f"{match}: {found}"
    return found[0]


def _needs(entry: dict[str, Any]) -> set[str]:
    return {q.get("property") or q["condition"] for q in entry["requires"] if q["is"]}


needs_javap = pytest.mark.skipif(
    shutil.which("javap") is None, reason="javap (a JDK) is not installed: the 1.9 extraction reads the jar's bytecode"
)


@pytest.mark.engine
@needs_javap
def test_the_19_catalog_is_what_the_jar_gives() -> None:
    x = _extractor()
    made = x.dumps(x.assemble(x.digest_19(str(ENGINE_JAR))))
    assert made == (CATALOG / "gates-1.9.json").read_text(encoding="utf-8"), (
        "generator/catalog/gates-1.9.json is stale: python scripts/catalog/extract_gates.py --engine 1.9 "
        "> generator/catalog/gates-1.9.json"
    )


def test_the_2x_catalog_is_what_its_digest_gives() -> None:
    x = _extractor()
    made = x.dumps(x.assemble(_digest_2x()))
    assert made == (CATALOG / "gates-2.x.json").read_text(encoding="utf-8"), (
        "generator/catalog/gates-2.x.json is stale: python scripts/catalog/extract_gates.py --from-digest "
        "scripts/catalog/raw/gates-2.x.source.json > generator/catalog/gates-2.x.json"
    )
    assert _gates("2.x")["source"] == _digest_2x()["source"]
    assert _gates("2.x")["source"].startswith("triplea-game/triplea@")


@pytest.mark.parametrize("engine", ["1.9", "2.x"])
def test_layout(engine: str) -> None:
    gates = _gates(engine)
    assert gates["engine"] == engine and gates["schemaVersion"] == 1 and gates["source"]
    assert list(gates) == sorted(gates), "keys are sorted"
    for name, prop in gates["properties"].items():
        assert isinstance(prop["default"], bool) and prop["readIn"], name
        assert set(prop["gates"]) <= set(RULE_KINDS), name
    assert set(gates["rules"]) == set(RULE_KINDS)
    classes = {"objective": "RulesAttachment", "userAction": "UserActionAttachment"}
    classes |= {"politicalAction": "PoliticalActionAttachment", "trigger": "TriggerAttachment"}
    for kind, rule in gates["rules"].items():
        assert rule["class"] == classes[kind]
        if kind != "trigger":
            assert rule["when"] and rule["delegates"] and rule["player"] in ("attached", "any")
    with_when = gates["rules"]["trigger"]["withWhen"]
    assert with_when["delegates"] and with_when["player"] in ("attached", "any")
    delegates = set(gates["delegateSubclasses"])
    for kind in gates["triggerKinds"]:
        assert kind["match"].endswith("Match") and kind["options"] and kind["phase"]
        assert kind["player"] in ("attached", "any")
        assert set(kind["delegates"]) <= delegates
        subclasses = {n for d in kind["delegates"] for n in gates["delegateSubclasses"][d]}
        assert set(kind["stepDelegates"]) <= subclasses
    for never in gates["neverOptions"]:
        assert {"class", "option", "value", "why"} <= set(never)
    option_names = json.loads((CATALOG / f"engine-{engine}.json").read_text(encoding="utf-8"))["attachments"]
    for kind in gates["triggerKinds"]:
        assert set(kind["options"]) <= set(option_names["TriggerAttachment"]["options"])


@pytest.mark.parametrize("engine", ["1.9", "2.x"])
def test_the_gates_a_mod_maker_meets(engine: str) -> None:
    """The facts the catalog is for, spelled out (the same in both engines)."""
    gates = _gates(engine)
    props = gates["properties"]
    assert props["Use Triggers"]["default"] is False and "trigger" in props["Use Triggers"]["gates"]
    assert props["National Objectives"]["gates"] == ["objective"]
    assert props["Use Politics"]["gates"] == ["politicalAction"]
    # the victory and activateTrigger triggers without `when` are fired by EndRoundDelegate under
    # Triggered Victory, not Use Triggers; resource triggers only where objectives are paid
    assert props["Use Triggers"]["exceptTriggerKinds"] == ["activateTriggerMatch", "victoryMatch"]
    assert props["Triggered Victory"]["gatesTriggerKinds"] == ["activateTriggerMatch", "victoryMatch"]
    assert props["National Objectives"]["gatesTriggerKinds"] == ["resourceMatch"]

    place = _kind(gates, "placeMatch")
    assert (place["options"], place["delegates"], place["player"]) == (["placement"], ["MoveDelegate"], "attached")
    assert _needs(place) == {"Use Triggers", "GameStepPropertiesHelper.isCombatMove"}
    assert place["phase"] == "the start of the combat move step"
    purchase = _kind(gates, "purchaseMatch")
    assert purchase["delegates"] == ["PurchaseDelegate"]
    assert purchase["stepDelegates"] == ["BidPurchaseDelegate", "NoPUPurchaseDelegate", "PurchaseDelegate"]
    resource = _kind(gates, "resourceMatch")
    assert resource["options"] == ["resource", "resourceCount"] and resource["delegates"] == ["EndTurnDelegate"]
    assert _needs(resource) == {"Use Triggers", "National Objectives", "AbstractEndTurnDelegate.canPlayerCollectIncome"}
    victory = _kind(gates, "victoryMatch")
    assert (victory["delegates"], victory["player"], _needs(victory)) == (
        ["EndRoundDelegate"],
        "any",
        {"Triggered Victory"},
    )
    assert _kind(gates, "relationshipChangeMatch")["phase"] == "the end of the politics step"

    objective = gates["rules"]["objective"]
    assert objective["namePrefix"] == "objectiveAttachment" and objective["player"] == "attached"
    assert objective["stepDelegates"] == ["EndTurnDelegate", "NoPUEndTurnDelegate"]  # not two-if-by-sea's
    assert _needs(objective) == {"National Objectives", "AbstractEndTurnDelegate.canPlayerCollectIncome"}
    assert gates["rules"]["userAction"]["requires"] == []
    assert gates["rules"]["politicalAction"]["namePrefix"] == "politicalActionAttachment"

    trigger = gates["rules"]["trigger"]
    assert trigger["withWhen"]["delegates"] == ["BaseTripleADelegate"] and trigger["withWhen"]["player"] == "any"
    assert _needs(trigger["withWhen"]) == {"Use Triggers"}
    by_action = [a for a in trigger["activatedBy"] if a["by"] == "userAction"]
    assert by_action and by_action[0]["requires"] == []  # a user action fires triggers whatever Use Triggers says
    never = {(n["class"], n["option"]): n["value"] for n in gates["neverOptions"]}
    assert never[("TriggerAttachment", "uses")] == 0 and never[("RulesAttachment", "uses")] == 0


def test_a_fact_without_evidence_stops_the_assembly() -> None:
    x = _extractor()
    digest = _digest_2x()
    del digest["evidence"]["condition:GameStepPropertiesHelper.isCombatMove"]
    with pytest.raises(x.GateError, match=re.escape("no evidence found in 2.x")):
        x.assemble(digest)


def test_a_guard_gates_yaml_does_not_describe_stops_the_assembly() -> None:
    x = _extractor()
    spec = x.load_yaml()
    del spec["conditions"]["AbstractEndTurnDelegate.canPlayerCollectIncome"]
    with pytest.raises(x.GateError, match=re.escape("describe it in gates.yaml")):
        x.assemble(_digest_2x(), spec)


def test_a_2x_evidence_pattern_the_source_lacks_stops_the_digest() -> None:
    x = _extractor()
    spec = copy.deepcopy(x.load_yaml())
    spec["neverOptions"] = spec["neverOptions"][:1]
    spec["neverOptions"][0]["evidence"]["2.x"][0]["regex"] = r"availableUses\s*=\s*t\s*->\s*t\.getUses\(\)\s*>\s*7"
    spec["conditions"], spec["facts"] = {}, {}
    source = "public abstract class AbstractTriggerAttachment { availableUses = t -> t.getUses() != 0; }"
    with pytest.raises(x.GateError, match="lacks"):
        x.verify_evidence_2x(lambda path: source, spec)
    spec["neverOptions"][0]["evidence"]["2.x"][0]["regex"] = r"t\.getUses\(\)\s*!=\s*0"
    found = x.verify_evidence_2x(lambda path: source, spec)
    assert found == {"never:TriggerAttachment.uses": ["AbstractTriggerAttachment.java"]}


@pytest.mark.engine
@needs_javap
def test_a_19_evidence_pattern_the_jar_lacks_stops_the_digest() -> None:
    x = _extractor()
    spec = copy.deepcopy(x.load_yaml())
    spec["conditions"], spec["facts"] = {}, {}
    spec["neverOptions"] = spec["neverOptions"][:1]
    spec["neverOptions"][0]["evidence"]["1.9"][0]["code"] = ["getUses:\\(\\)I", "ifgt"]
    with pytest.raises(x.GateError, match=re.escape("1.9 has no")):
        x.verify_evidence_19(str(ENGINE_JAR), spec)
