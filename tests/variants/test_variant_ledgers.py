"""What every variant written from a rules document shares: each rule of its seed in the ledger, by
section, sourced, a note wherever it is not exact, summaries in our own words, every rule in the
notes and in `coverage`. What is particular to a variant stays in its own test_<variant>_spec.py."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pytest

from tests.helpers import ROOT, run_cli, variant_spec


@dataclass(frozen=True)
class Seed:
    variant: str
    document: str  # the seed's number: every ledger entry's source is "<document> §..."
    sections: dict[str, int]  # section of the document -> its rules in the ledger
    rules: int  # the ledger's size, written out (the sections must add up to it)
    ids: tuple[str, ...]  # every rule id starts with one of these
    copied_words: int  # no run of this many words of a summary is copied from the document


SEEDS = [
    Seed(
        "aare",
        "003",
        {
            "Base game": 12,
            "Weapons development": 9,
            "National advantages": 1,
            "National advantages: Russia": 6,
            "National advantages: Germany": 6,
            "National advantages: United Kingdom": 6,
            "National advantages: Japan": 6,
            "National advantages: United States": 6,
            "LHTR summary": 11,  # with "LHTR unless stated" and the two combat sequences
        },
        63,
        ("aare-",),
        7,
    ),
    Seed(
        "aarhe",
        "000",
        {
            "Foreword": 1,
            "Game Sequence": 6,
            "Game modes": 3,
            "Victory Cities": 7,
            "Phase 1 - Purchase Units and Developments": 4,
            "Phase 2 - Collect Income": 4,
            "Phase 3 - Combat Move": 9,
            "Phase 4 - Conduct Combat": 27,
            "Phase 5 - Non-combat Move": 5,
            "Phase 6 - Mobilize New Units": 3,
            "Phase 7 - Develop Weapon": 16,
            "Phase 8 - Diplomacy": 4,
            "Appendix: Units": 9,
            "Appendix: Neutrals": 2,
            "Appendix: Special Terrains": 3,
            "Italy player (optional)": 3,
            "New Units (optional)": 5,
            "National Build (optional)": 6,
            "National Attack (optional)": 6,
            "National Victory (optional)": 7,
        },
        130,
        ("aarhe-",),
        7,
    ),
    Seed(
        "aarhe-draft",
        "001",
        {
            "Turn Sequence": 2,
            "Victory Conditions": 9,
            "Income": 2,
            "Unit Purchase and Mobilisation": 6,
            "Units": 5,
            "Land Combat": 1,
            "Naval Combat": 1,
            "National Units (optional)": 5,
            "National Attack (optional)": 5,
        },
        36,
        ("aarhe-", "aarhe1-"),
        7,
    ),
    Seed(
        "aarhe-phase1",
        "004",
        {
            "Preamble": 1,
            "Victory Cities": 6,
            "Infantry Unit Placement at VCs": 5,
            "Non-Infantry Unit Placement at ICs": 6,
            "Infantry Unit Costs": 1,
            "Victory Conditions": 4,
            "Changes to Fighter Movement": 3,
            "Turn Sequence": 1,
            "Optional Rules: Technology": 10,
            "Diplomatic Relations": 1,
        },
        38,
        ("aarhe-", "aarhe4-"),
        10,  # two summaries share seven words in a row with 004 (technology names)
    ),
    Seed(
        "expansion",
        "002",
        {
            "Base rules": 1,
            "Victory conditions": 2,
            "Bid": 1,
            "Italy": 6,
            "Lend-lease": 2,
            "Non-aggression treaty": 3,
            "Convoy raids": 3,
            "Placement of new units": 2,
            "Air supremacy": 1,
            "D-Day invasion": 4,
            "Price changes": 3,
            "Transport changes": 2,
            "Submarines, destroyers and aircraft": 5,
            "Units": 12,
            "Weapons development": 6,
            "National advantages": 3,
        },
        56,
        ("exp-",),
        10,  # one summary shares seven words in a row with 002
    ),
]
SEED_OF = {seed.variant: seed for seed in SEEDS}
each_seed = pytest.mark.parametrize("seed", SEEDS, ids=[seed.variant for seed in SEEDS])


@each_seed
def test_ledger_has_every_rule_of_the_seed(seed: Seed) -> None:
    ledger = variant_spec(seed.variant).rule_ledger
    assert Counter(entry.section for entry in ledger.values()) == seed.sections
    assert len(ledger) == sum(seed.sections.values()) == seed.rules
    assert all(rule_id.startswith(seed.ids) for rule_id in ledger)
    assert all(entry.source.startswith(f"{seed.document} §") for entry in ledger.values())
    assert all(
        entry.fidelity.note and entry.fidelity.note.strip()
        for entry in ledger.values()
        if entry.fidelity.grade != "exact"
    )


@each_seed
def test_summaries_are_our_own_words(seed: Seed) -> None:
    document = (ROOT / "rules" / seed.variant / "document.txt").read_text(encoding="utf-8", errors="replace")
    document_words = " ".join(document.lower().split())
    n = seed.copied_words
    for rule_id, entry in variant_spec(seed.variant).rule_ledger.items():
        words = entry.summary.lower().split()
        runs = {" ".join(words[i : i + n]) for i in range(len(words) - n + 1)}
        assert not [run for run in runs if run in document_words], rule_id


@each_seed
def test_notes_list_every_rule(seed: Seed) -> None:
    notes = (ROOT / "output" / "games" / f"{seed.variant}.notes.html").read_text(encoding="utf-8")
    for rule_id in variant_spec(seed.variant).rule_ledger:
        assert f"[{rule_id}]" in notes, rule_id


@each_seed
def test_coverage_command_runs(seed: Seed) -> None:
    result = run_cli("coverage", seed.variant, cwd=ROOT)
    assert result.code == 0, result.err
    assert f"rule coverage: {seed.variant} ({seed.rules} rules)" in result.out
    assert "All rules" in result.out
