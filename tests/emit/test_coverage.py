"""`triplea-forge coverage`: ledger counts by grade, section and engine, as a table and Markdown."""

from __future__ import annotations

from pathlib import Path

from generator.checks.variant import check_variant
from generator.emit.coverage import Coverage, coverage, render_markdown
from generator.spec.resolve import Rules
from tests.helpers import ROOT, run_cli, write_tree

KITCHEN = ROOT / "tests" / "fixtures" / "kitchen_sink"


def _report(rules_dir: Path, name: str) -> Coverage:
    loaded, problems = check_variant(Rules(rules_dir, str(rules_dir)), name)
    assert loaded is not None, problems
    return coverage(name, loaded.spec)


def test_counts_by_grade_section_and_engine() -> None:
    report = _report(KITCHEN / "rules", "sink_base")
    assert report.rules == 3
    assert report.total["1.9"].counts == {"exact": 1, "approximate": 1, "notes-only": 1}
    # sink-03 is approximate on 1.9 and exact on 2.x; the others keep their 1.9 grade on 2.x.
    assert report.total["2.x"].counts == {"exact": 2, "approximate": 0, "notes-only": 1}
    assert [s.title for s in report.sections] == ["Economy", "Combat: Land"]
    economy, combat = report.sections
    assert economy.by_engine["1.9"].counts == {"exact": 1, "approximate": 0, "notes-only": 1}
    assert combat.by_engine["2.x"].counts == {"exact": 1, "approximate": 0, "notes-only": 0}
    assert report.raised == [("sink-03", "approximate", "exact")]
    assert report.total["1.9"].enforced == 2
    # sink-01 (exact) names a proof; sink-03 does not. On 2.x sink-03 is exact by a 2.x-only means.
    assert report.total["1.9"].proven == {"exact": 1, "approximate": 0, "notes-only": 0}
    assert report.total["2.x"].enforced_proven == 1


def test_aare_ledger_accounts_for_sixty_three_rules() -> None:
    report = _report(ROOT / "rules", "aare")
    assert report.rules == 63
    assert report.total["1.9"].counts == {"exact": 20, "approximate": 30, "notes-only": 13}
    assert report.total["2.x"].counts == {"exact": 20, "approximate": 31, "notes-only": 12}
    # Every enforced rule names its proof; on 2.x the railway is enforced by 2.x alone, unproven.
    assert report.total["1.9"].enforced_proven == 50
    assert report.total["2.x"].enforced_proven == 50
    assert [s.title for s in report.sections][:3] == ["Base game", "Weapons development", "National advantages"]
    assert [r[0] for r in report.raised] == ["aare-na-ru-2"]


def test_markdown_table() -> None:
    text = render_markdown([_report(KITCHEN / "rules", "sink_base")])
    lines = text.splitlines()
    assert lines[0] == "## Rule coverage: sink_base"
    header = "| section | engine | exact | approximate | notes-only | rules | proven in the engine "
    assert header + "| proof: shown / pinned / none |" in lines
    assert "| Economy | 1.9 | 1 (50%) | 0 (0%) | 1 (50%) | 2 | 1 + 0 of 1 (100%) | 0 / 1 / 0 |" in lines
    total = (
        "| **All rules** | **2.x** | **2 (67%)** | **0 (0%)** | **1 (33%)** | **3** | **1 + 0 of 2 (50%)** "
        "| **0 / 1 / 1** |"
    )
    assert total in lines
    assert "- sink_base: 1 of 2 enforced rules proven in the engine on 1.9 (50%)" in lines
    assert "- `sink-03`: approximate in 1.9, exact in 2.x" in lines


def test_cli_table_and_markdown() -> None:
    table = run_cli("coverage", "aare", cwd=ROOT)
    assert table.code == 0, table.err
    assert "rule coverage: aare (63 rules)" in table.out
    assert "All rules" in table.out
    assert "aare-na-ru-2 is notes-only in 1.9, approximate in 2.x" in table.out
    markdown = run_cli("coverage", "aare", "--format", "markdown", cwd=ROOT)
    assert markdown.code == 0, markdown.err
    total = (
        "| **All rules** | **1.9** | **20 (32%)** | **30 (48%)** | **13 (21%)** | **63** | **20 + 30 of 50 (100%)** "
        "| **35 / 15 / 0** |"
    )
    assert total in markdown.out
    assert "- aare: 50 of 51 enforced rules proven in the engine on 2.x (98%)" in markdown.out


def test_cli_all_variants_skips_those_without_a_ledger() -> None:
    result = run_cli("coverage", "--rules", str(KITCHEN / "rules"), "--format", "markdown", cwd=ROOT)
    assert result.code == 0, result.err
    assert "## Rule coverage: sink_base" in result.out
    assert "## Rule coverage: kitchen_sink" in result.out


def test_cli_errors(tmp_path: Path) -> None:
    unknown = run_cli("coverage", "nosuch", cwd=ROOT)
    assert unknown.code == 2
    assert "no variant 'nosuch'" in unknown.err
    # A variant without a ledger is listed rule by rule (tests/emit/test_coverage_mod.py); the sweep needs one.
    no_ledger = run_cli("coverage", "lhtr", "--mutate", cwd=ROOT)
    assert no_ledger.code == 1
    assert "has no rule ledger" in no_ledger.err
    write_tree(tmp_path, {"rules/plain/game.yaml": "game: {name: Plain, version: '1', map: m}\n"})
    none = run_cli("coverage", "--list-stale", cwd=tmp_path)
    assert none.code == 1
    assert "no variant in rules/ has a rule ledger" in none.err


def test_every_variant_proves_nine_in_ten_of_its_enforced_rules() -> None:
    """Issue #15's target, per variant and engine (2.x counts only what 1.9 shows the same way)."""
    for name in ("aare", "aare-2x", "aarhe", "aarhe-2x", "aarhe-draft", "aarhe-phase1", "expansion"):
        report = _report(ROOT / "rules", name)
        for engine in ("1.9", "2.x"):
            tally = report.total[engine]
            assert tally.enforced_proven >= 0.9 * tally.enforced, (name, engine, tally.enforced_proven, tally.enforced)


def test_proof_kinds_and_the_mutation_score(tmp_path: Path) -> None:
    """Enforced rules by the kind of their proof; the sweep's recorded results, of rules still enforced."""
    loaded, problems = check_variant(Rules(ROOT / "rules", "rules"), "aare")
    assert loaded is not None, problems
    (tmp_path / "aare.json").write_text(
        '{"variant": "aare", "fingerprint": "f", "entries": {'
        '"aare-base-04": {"mutants": 30, "killed": 29, "survivors": ["x: removed"], "equivalent": []},'
        ' "aare-base-01": {"mutants": 3, "killed": 2, "survivors": [], "equivalent": ["y: removed"]},'
        ' "aare-gone-01": {"mutants": 5, "killed": 0, "survivors": ["z"], "equivalent": []}}}',
        encoding="utf-8",
    )
    report = coverage("aare", loaded.spec, tmp_path)
    kinds = report.total["1.9"].kinds
    assert sum(kinds.values()) == report.total["1.9"].enforced and kinds["none"] == 0
    assert kinds["shown"] > 0 and kinds["pinned"] > 0
    markdown = render_markdown([report])
    assert (
        "- aare: mutation: 2 of 50 enforced rules swept, 33 mutants, 31 killed (94%), 1 equivalent; "
        "survivors: aare-base-04 (1)"
    ) in markdown
    # Without recorded results there is no mutation line.
    assert "mutation:" not in render_markdown([coverage("aare", loaded.spec, tmp_path / "none")])
