"""Mutation-tested proofs: every enforced rule's proof fails on a game without (part of) the rule.

For each enforced entry of each ledger variant, `generator.engine.mutation` builds one-edit mutants
of the options claiming it (an option dropped, a number changed by one, a switch flipped, a list
shortened or widened, a name swapped) and `generator.engine.sweep` runs the proofs of the rules the
edit serves on each: their dump facts against engine 1.9's dump of the mutant, then their
scenarios, judged by the very assertions of the `@proves` tests (tests/proofs.py), all mutants of a
variant in a few JVMs. A mutant no such proof fails on survives.

The sweep plays the engine for every mutant a dump does not kill, so it is not part of the default
run: it is marked `mutation` (`pytest -m mutation -k VARIANT`, one test per variant). With
`--update-goldens` it records the variant's numbers, and the fingerprint of what they depend on,
in `output/mutation/<variant>.json`, which `triplea-forge coverage` shows. The default run checks
those records instead (cheap): each is current (its fingerprint is the variant's today) and has no
survivors; `.ci/run` sweeps the variants whose record is stale before the suite runs.
"""

from __future__ import annotations

import importlib
import json
from functools import cache
from typing import Any

import pytest

from generator.engine.mutation import expanded_tree, parent_tree
from generator.engine.sweep import fingerprint, sweep
from generator.spec.resolve import Rules
from tests.conftest import ROOT, variant_spec
from tests.proofs import ASSERTIONS, Facts, map_files_for_engine
from tests.test_proofs import LEDGER_VARIANTS, _scenario_test_modules

RESULTS = ROOT / "output" / "mutation"
# Variants made for 2.x are played as 1.9 reads them; their 1.9 game is their parent's plus
# 2.x-only options, so their mutants are their parent's: swept there.
SWEPT = tuple(v for v in LEDGER_VARIANTS if variant_spec(v).game.target != "2.x")


def _enforced(variant: str) -> list[str]:
    return [i for i, e in variant_spec(variant).rule_ledger.items() if e.fidelity.grade != "notes-only"]


@cache
def _trees(variant: str) -> tuple[Any, Any]:
    rules = Rules(ROOT / "rules")
    return expanded_tree(rules, variant), parent_tree(rules, variant)


def _assertions_hold(variant: str) -> Any:
    """The verdict of the `@proves` tests of a scenario on a variant, for facts of a mutant."""
    for module in _scenario_test_modules():
        importlib.import_module(module)

    def holds(scenario: str, facts: Facts) -> bool:
        try:
            for assertion in ASSERTIONS[(scenario, variant)]:
                assertion(facts)
        except (AssertionError, KeyError, TypeError, ValueError, IndexError):
            return False
        return True

    return holds


def _recorded(variant: str) -> dict[str, Any]:
    path = RESULTS / f"{variant}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


@pytest.mark.engine
@pytest.mark.mutation
@pytest.mark.parametrize("variant", SWEPT)
def test_the_proofs_kill_every_mutant_of_their_rules(variant: str, update_goldens: bool) -> None:
    tree, parent = _trees(variant)
    spec = variant_spec(variant)
    entries = {rule_id: spec.rule_ledger[rule_id] for rule_id in _enforced(variant)}
    result = sweep(
        variant, entries, tree, _assertions_hold(variant), parent=parent, map_files=map_files_for_engine(variant)
    )
    record = result.as_json()
    if update_goldens:
        RESULTS.mkdir(parents=True, exist_ok=True)
        text = json.dumps(record, indent=1, sort_keys=True) + "\n"
        (RESULTS / f"{variant}.json").write_text(text, encoding="utf-8")
    print(f"{variant}: {result.seconds} s, {result.counts}")
    assert {r: e["survivors"] for r, e in record["entries"].items() if e["survivors"]} == {}
    assert [r for r, e in record["entries"].items() if not e["mutants"]] == []


@pytest.mark.parametrize("variant", SWEPT)
def test_the_recorded_sweep_is_current_and_kills_every_mutant(variant: str) -> None:
    """Cheap: the committed record of the sweep is of the variant as it is, and has no survivors."""
    recorded = _recorded(variant)
    how = f"pytest -m mutation -k {variant} --update-goldens"
    assert recorded.get("fingerprint") == fingerprint(_trees(variant)[0]), f"{variant}: stale sweep ({how})"
    entries = recorded["entries"]
    assert sorted(entries) == sorted(_enforced(variant)), how
    assert {r: e["survivors"] for r, e in entries.items() if e["survivors"]} == {}
    assert [r for r, e in entries.items() if not e["mutants"]] == []
