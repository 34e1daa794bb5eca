"""Mutation-tested proofs: every enforced rule's proof fails on a game without (part of) the rule.

For each enforced entry of each ledger variant, `generator.engine.mutation` builds one-edit mutants
of the elements claiming it (an option dropped, a number changed by one, a switch flipped, a list
shortened) and runs the entry's proof on each: its dump facts against engine 1.9's dump of the
mutant, then its scenarios, through the very assertions of the `@proves` tests (tests/proofs.py).
A mutant the proof does not fail on survives.

The sweep plays the engine for every mutant a dump does not kill, so it is not part of the default
run: it is marked `mutation` (`pytest -m mutation`, one test per variant and entry; CI runs it for
the variants a change touches: `pytest -m mutation -k aarhe-p1-01` or `-k "[aarhe-"`). With
`--update-goldens` each test records its entry's numbers in `output/mutation/<variant>.json`,
which `triplea-forge coverage` shows.
"""

from __future__ import annotations

import importlib
import json
import re
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from generator.engine.mutation import EntryResult, expanded_tree, parent_tree, run_mutants
from generator.engine.scenario import ScenarioError, run_scenario
from generator.spec.resolve import Rules
from tests.conftest import ROOT, variant_spec
from tests.proofs import ASSERTIONS, map_files_for_engine
from tests.test_proofs import LEDGER_VARIANTS, _scenario_test_modules

RESULTS = ROOT / "output" / "mutation"
# Variants made for 2.x are played as 1.9 reads them; their 1.9 game is their parent's plus
# 2.x-only options, so their mutants are their parent's: swept there.
SWEPT = tuple(v for v in LEDGER_VARIANTS if variant_spec(v).game.target != "2.x")


# Equivalent mutants: edits no game can tell apart from the original, each with the reason. A
# survivor matching one is reported as equivalent, not as a weak proof.
_BUILD_UNITS = r"(patriotInfantry|t34Armour|spitfire|essexCarrier|typeVIISubmarine|regia\w+)"
EQUIVALENT: dict[str, str] = {
    rf"^units\.{_BUILD_UNITS}\.(attack|defense|movement|hitPoints|isSub|canAirBattle|airAttack|airDefense): ": (
        "a national build's unit becomes an ordinary unit at the end of the placement that puts it on "
        "the board: it never moves or fights as itself"
    ),
    r"^players\.\w+\.attachments\.conditionAttachmentBuilt\w+\.players: widened by ": (
        "the condition counts the build's units in its place; only the builder can buy them"
    ),
    r"^players\.Germans\.attachments\.triggerAttachment\w+BuildsHeavy(Tank|Artillery)\.(players|uses): removed$": (
        "a trigger with a `when` fires at its step whoever its players are, and its productionRule names the "
        "nation's frontiers itself; fired again, it adds a rule the frontier already holds, which the engine skips"
    ),
    r"^properties\.[^.]+\.editable: ": (
        "whether players may change a game option before the game changes nothing in a game played with "
        "its value: the rule is the value, which the proof checks"
    ),
    r"^players\.\w+\.attachments\.triggerAttachmentNa\w+\.(uses|when): ": (
        "the national attack's hidden tech is held from the nation's first turn on: giving it again, "
        "or at another step before that turn, changes nothing"
    ),
}


def equivalent(edit: str) -> str | None:
    """Why the mutant EDIT cannot change a game, when it cannot."""
    return next((why for pattern, why in EQUIVALENT.items() if re.search(pattern, edit)), None)


def _enforced(variant: str) -> list[str]:
    return [i for i, e in variant_spec(variant).rule_ledger.items() if e.fidelity.grade != "notes-only"]


CASES = [pytest.param(v, r, id=f"{v}:{r}") for v in SWEPT for r in _enforced(v)]


@cache
def _trees(variant: str) -> tuple[Any, Any]:
    rules = Rules(ROOT / "rules")
    return expanded_tree(rules, variant), parent_tree(rules, variant)


def _scenario_passes(variant: str) -> Any:
    for module in _scenario_test_modules():
        importlib.import_module(module)

    def check(scenario: str, game: Path) -> bool:
        try:
            facts = run_scenario(scenario, game, map_files=map_files_for_engine(variant))
            for assertion in ASSERTIONS[(scenario, variant)]:
                assertion(facts)
        except (AssertionError, ScenarioError, KeyError, TypeError, ValueError):
            return False
        return True

    return check


def _record(variant: str, result: EntryResult) -> None:
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{variant}.json"
    recorded = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    enforced = set(_enforced(variant))
    recorded = {rule_id: numbers for rule_id, numbers in recorded.items() if rule_id in enforced}
    numbers = result.as_json()
    numbers["equivalent"] = [edit for edit in numbers["survivors"] if equivalent(edit)]
    numbers["survivors"] = [edit for edit in numbers["survivors"] if not equivalent(edit)]
    recorded[result.rule_id] = numbers
    path.write_text(json.dumps(dict(sorted(recorded.items())), indent=1, sort_keys=True) + "\n", encoding="utf-8")


@pytest.mark.engine
@pytest.mark.mutation
@pytest.mark.parametrize(("variant", "rule_id"), CASES)
def test_the_proof_kills_every_mutant_of_its_rule(variant: str, rule_id: str, update_goldens: bool) -> None:
    tree, parent = _trees(variant)
    entry = variant_spec(variant).rule_ledger[rule_id]
    [result] = run_mutants(variant, {rule_id: entry}, tree, _scenario_passes(variant), parent=parent)
    if update_goldens:
        _record(variant, result)
    assert result.mutants, f"{rule_id}: no element of the rule can be mutated (stillborn: {result.stillborn})"
    assert [edit for edit in result.survivors if not equivalent(edit)] == []
