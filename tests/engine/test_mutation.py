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
import os
import shutil
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from generator.engine.mutation import Mutant, expanded_tree, mutants_of, parent_tree, render_mutant
from generator.engine.scenario import run_scenarios
from generator.engine.sweep import fingerprint, sweep
from generator.spec.resolve import Rules
from tests.engine.test_proofs import LEDGER_VARIANTS, _scenario_test_modules
from tests.helpers import ROOT, TINY, run_cli, variant_spec, variant_target, write_tree
from tests.proofs import ASSERTIONS, Facts, map_files_for_engine

RESULTS = ROOT / "output" / "mutation"
# Variants made for 2.x are played as 1.9 reads them; their 1.9 game is their parent's plus
# 2.x-only options, so their mutants are their parent's: swept there.
SWEPT = tuple(v for v in LEDGER_VARIANTS if variant_target(v) != "2.x")


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
    # While working on a few rules: FORGE_SWEEP_ENTRIES=id,id sweeps only those (never recorded).
    only = [e for e in os.environ.get("FORGE_SWEEP_ENTRIES", "").split(",") if e]
    if only:
        entries = {rule_id: entry for rule_id, entry in entries.items() if rule_id in only}
        update_goldens = False
    result = sweep(
        variant,
        entries,
        tree,
        _assertions_hold(variant),
        parent=parent,
        map_files=map_files_for_engine(variant),
        progress=lambda line: print(line, flush=True),  # with -s, where a long sweep is
    )
    record = result.as_json()
    if update_goldens:
        RESULTS.mkdir(parents=True, exist_ok=True)
        text = json.dumps(record, indent=1, sort_keys=True) + "\n"
        (RESULTS / f"{variant}.json").write_text(text, encoding="utf-8")
    print(f"{variant}: {result.seconds} s, {result.counts}")
    for rule_id, entry in record["entries"].items():
        print(f"  {rule_id}: {entry['mutants']} mutants, {len(entry['survivors'])} survive")
        print("".join(f"    {edit}\n" for edit in entry["survivors"]), end="")
    assert {r: e["survivors"] for r, e in record["entries"].items() if e["survivors"]} == {}
    assert [r for r, e in record["entries"].items() if not e["mutants"]] == []


# Variants whose recorded sweep still has survivors (issue 29 is open until this is empty): their
# survivor test is expected to fail, strictly, so that killing the last survivor shows.
SURVIVORS_LEFT: dict[str, str] = {}
# Records made before the last change of the variant's proofs, swept again by `scripts/sweep-stale`
# in CI: whether the new sweep kills every mutant is not known when they land, so both record tests
# may pass or fail (not strict). Empty: every record is current.
STALE_LEFT: dict[str, str] = {}


def _expected_to_fail(variants: tuple[str, ...], why: dict[str, str]) -> list[Any]:
    return [
        pytest.param(v, marks=pytest.mark.xfail(reason=why[v], strict=v not in STALE_LEFT)) if v in why else v
        for v in variants
    ]


@pytest.mark.parametrize("variant", _expected_to_fail(SWEPT, STALE_LEFT))
def test_the_recorded_sweep_is_current(variant: str) -> None:
    """Cheap: the committed record of the sweep is of the variant as it is."""
    recorded = _recorded(variant)
    how = f"pytest -m mutation -k {variant} --update-goldens"
    assert recorded.get("fingerprint") == fingerprint(_trees(variant)[0]), f"{variant}: stale sweep ({how})"
    assert sorted(recorded["entries"]) == sorted(_enforced(variant)), how


@pytest.mark.parametrize("variant", _expected_to_fail(SWEPT, {**SURVIVORS_LEFT, **STALE_LEFT}))
def test_the_recorded_sweep_kills_every_mutant(variant: str) -> None:
    """Cheap: every mutant of the committed record is killed, and every entry has one."""
    entries = _recorded(variant).get("entries", {})
    assert entries, f"{variant}: no sweep recorded"
    assert {r: e["survivors"] for r, e in entries.items() if e["survivors"]} == {}
    assert [r for r, e in entries.items() if not e["mutants"]] == []


_LEDGERED = """
extends: tiny
units:
  infantry:
    defense: 3
    attack: 2
    ledger: [t-defence, t-attack]
    ledger_options: {t-defence: [defense], t-attack: [attack]}
rule_ledger:
  t-defence:
    section: Units
    source: "tiny §1"
    summary: Infantry defends on 3.
    fidelity: {grade: exact}
    proof: {dump: {units: {infantry: {defense: 3}}}}
  t-attack:
    section: Units
    source: "tiny §2"
    summary: Infantry attacks on 2.
    fidelity: {grade: exact}
    proof: {dump: {units: {infantry: {PROVEN}}}}
"""


def _ledgered(tmp_path: Path, proven: str, narrowed: bool = True) -> Path:
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    text = _LEDGERED.replace("PROVEN", proven)
    if not narrowed:
        text = text.replace("    ledger_options: {t-defence: [defense], t-attack: [attack]}\n", "")
    write_tree(tmp_path / "rules", {"ledgered/game.yaml": text})
    return tmp_path


def _without_time(out: str) -> list[str]:
    return [line.rsplit("; ", 1)[0] if "enforced of" in line else line for line in out.splitlines()]


@pytest.mark.engine
def test_coverage_mutate_names_each_survivor_under_the_rule_its_option_serves(tmp_path: Path) -> None:
    """`coverage --mutate` through the CLI: the attack's proof states the defence, so every edit of
    the attack survives, and `ledger_options` puts them under the attack's rule alone."""
    result = run_cli("coverage", "ledgered", "--mutate", cwd=_ledgered(tmp_path, "defense: 3"))
    assert result.code == 1, result
    attack = ["removed", "2 -> 3", "2 -> 1", "2 -> 4"]  # dropped, moved by one either way, doubled
    assert _without_time(result.out) == [
        "ledgered: 2 enforced of 2 rules; 8 mutants, 4 killed, 0 equivalent, 4 survivors",
        "  removed: 2 mutants, 1 killed, 0 equivalent, 1 survivors (0 stillborn)",
        "  number: 6 mutants, 3 killed, 0 equivalent, 3 survivors (0 stillborn)",
        "  t-attack: 4 of 4 mutants survive",
        *(f"    units.infantry.attack: {edit}" for edit in attack),
    ]
    assert "ledgered: 8 mutants built, 0 stillborn; dumping them (" in result.err
    # Without the narrowing, each edit of the unit serves both rules: killed by either's proof, and
    # a survivor is each rule's, naming the other.
    result = run_cli("coverage", "ledgered", "--mutate", cwd=_ledgered(tmp_path / "claimed", "defense: 3", False))
    assert result.code == 1, result
    lines = _without_time(result.out)
    assert lines[0] == "ledgered: 2 enforced of 2 rules; 16 mutants, 8 killed, 0 equivalent, 8 survivors"
    for rule, other in (("t-defence", "t-attack"), ("t-attack", "t-defence")):
        at = lines.index(f"  {rule}: 4 of 8 mutants survive")
        assert lines[at + 1 : at + 5] == [f"    units.infantry.attack: {edit} (also {other})" for edit in attack]
    # A proof of the attack kills them all.
    result = run_cli("coverage", "ledgered", "--mutate", cwd=_ledgered(tmp_path / "fixed", "attack: 2"))
    assert result.code == 0, result
    assert (
        _without_time(result.out)[0]
        == "ledgered: 2 enforced of 2 rules; 8 mutants, 8 killed, 0 equivalent, 0 survivors"
    )


def test_coverage_lists_the_variants_whose_recorded_sweep_is_stale(tmp_path: Path) -> None:
    """CI sweeps only what changed: a record with the variant's fingerprint is current, any edit of
    the variant makes it stale (and the coverage line says so), a missing record is stale too."""
    project = _ledgered(tmp_path, "attack: 2")
    assert run_cli("coverage", "--list-stale", cwd=project).out == "ledgered\n"
    tree = expanded_tree(Rules(project / "rules"), "ledgered")
    record = {"variant": "ledgered", "fingerprint": fingerprint(tree), "entries": {}}
    (project / "output" / "mutation").mkdir(parents=True)
    (project / "output" / "mutation" / "ledgered.json").write_text(json.dumps(record), encoding="utf-8")
    assert run_cli("coverage", "--list-stale", cwd=project).out == ""
    game = project / "rules" / "ledgered" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("attack: 2\n", "attack: 3\n", 1), encoding="utf-8")
    assert run_cli("coverage", "--list-stale", cwd=project).out == "ledgered\n"
    out = run_cli("coverage", "ledgered", "--format", "markdown", cwd=project).out
    assert (
        "- ledgered: mutation: 0 of 2 enforced rules swept, 0 mutants, 0 killed "
        "(stale: the variant changed since the sweep)" in out
    )


# Issue 49's slips, each made as an author makes it: both load in the engine and change its dump,
# and the sweep makes each (its kind of edit, on its rule). The proof's scenario kills it: the
# Siberian Conscripts' declaration scenario loses Soviet Far East alone at the Mobilize, and the
# convoy scenario puts a submarine off the Eastern United States.
SLIPS = {
    "aare": (
        "aare-na-ru-6",
        "players.Russians.attachments.userActionAttachmentRuSiberianInSovietFarEast.conditions[2]: "
        "conditionAttachmentRuOwnsSovietFarEast -> conditionAttachmentRuOwnsYakut",
        "declare-RuSiberian",
    ),
    "expansion": ("exp-convoy-01", "territories.10 Sea Zone.blockadeZone: True -> False", "convoy-zones"),
}


@pytest.mark.engine
@pytest.mark.parametrize("variant", sorted(SLIPS))
def test_an_authors_slip_is_a_mutant_its_rules_scenario_kills(variant: str, tmp_path: Path) -> None:
    rule_id, edit, scenario = SLIPS[variant]
    tree, parent = _trees(variant)
    mutant = next(m for m in mutants_of(tree, rule_id, parent=parent) if m.edit == edit)
    games = []
    for name, made in (("original", Mutant("", "", tree)), ("slip", mutant)):
        xml = render_mutant(variant, made)
        assert xml is not None, name
        games.append(tmp_path / f"{name}.xml")
        games[-1].write_bytes(xml)
    original, slip = run_scenarios([(scenario, g) for g in games], map_files=map_files_for_engine(variant))
    holds = _assertions_hold(variant)
    assert holds(scenario, original)
    assert not holds(scenario, slip)
    if variant == "aare":  # Soviet Far East lost, its placement is still offered
        lost = slip["offeredAtMobilize1WithoutEachPlace"]["Soviet Far East"]
        assert "userActionAttachmentRuSiberianInSovietFarEast" in lost["offered"]
    else:  # a submarine there costs the Americans nothing
        assert "10 Sea Zone" in original["losses"]["Americans"]
        assert "10 Sea Zone" not in slip["losses"]["Americans"]
