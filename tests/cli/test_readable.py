"""Readable everywhere: tables fit an 80-column terminal, diff text has no line over 160 characters."""

from __future__ import annotations

import re

from tests.helpers import ROOT, run_cli

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_coverage_fits_80_columns_with_a_legend() -> None:
    """A terminal of 80 columns gets counts under short headers, explained below: no blank
    column, no cell cut to `1…`, nothing wrapped inside a cell."""
    env = {"TTY_COMPATIBLE": "1", "COLUMNS": "80", "NO_COLOR": "1"}  # as an 80-column terminal
    result = run_cli("coverage", "aare", cwd=ROOT, env=env)
    assert result.code == 0, result.err
    lines = ANSI.sub("", result.out).splitlines()
    assert max(len(line) for line in lines) <= 80
    assert "\N{HORIZONTAL ELLIPSIS}" not in result.out
    assert lines[1].split() == ["section", "eng", "exact", "appr", "notes", "all", "proven"]
    assert "National advantages: United Kingdom   1.9       3      3       0     6      6/6" in lines
    assert "All rules                             1.9      20     30      13    63    50/50" in lines
    total_2x = " " * 38 + "2.x      20     31      12    63    50/51"
    legend = "appr = approximate, notes = notes-only, all = rules in the section, proven = "
    assert lines[lines.index(total_2x) + 1] == legend
    wide = run_cli("coverage", "aare", cwd=ROOT, env={"COLUMNS": "200"})  # room enough: the full table, with shares
    assert "│ All rules                           │ 1.9    │ 20 (32%) │" in wide.out
    assert wide.out.splitlines()[2].rstrip().endswith("┃ proof: shown / pinned / none ┃")


def test_diff_text_has_no_line_over_160_characters() -> None:
    for old, new in (("lhtr", "aarhe"), ("revised", "expansion"), ("aarhe-draft", "aarhe-phase1")):
        result = run_cli("diff", old, new, cwd=ROOT)
        assert result.code == 0, result.err
        lines = result.out.splitlines()
        assert max(len(line) for line in lines) <= 160, (old, new)
        assert not any("<p>" in line or "<br>" in line for line in lines)  # notes as the text players read


def _record(variant: str, seed: int, winner: str | None) -> dict[str, object]:
    figures = {"income": 30 + seed, "pus": 10, "tuv": 200 + seed, "territories": 9, "victoryCities": 4, "units": 20}
    players = {"Germans": figures, "Russians": figures}
    return {
        "variant": variant, "seed": seed, "seconds": 1.0, "gameOver": winner is not None, "winningSide": winner,
        "sides": {"Germans": "Axis", "Russians": "Allies"}, "actionsTaken": [], "errors": [],
        "perRound": [{"round": 0, "players": players}, {"round": 1, "players": players}],
    }  # fmt: skip


def test_the_balance_table_fits_80_columns_without_wrapping_a_cell() -> None:
    """(The study itself needs the engine: test_balance; here its report, from made-up games.)"""
    from rich.console import Console

    from generator.balance.render import terminal
    from generator.balance.summary import summarize

    summaries = [
        summarize(name, [_record(name, s, w) for s, w in enumerate(winners)], 1)
        for name, winners in (("revised-baseline", ["Axis", None, "Allies"]), ("my-long-mod-name", ["Axis"] * 3))
    ]
    console = Console(width=80, record=True, color_system=None)
    terminal(summaries, console)
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 80
    start = lines.index("Axis win rate")
    assert lines[start + 1].split() == ["revised-baseline", "33%", "(6%..79%)"]
    assert lines[start + 3].startswith("  my-long-mod-name - revised-baseline  ")
    wide = Console(width=200, record=True, color_system=None)
    terminal(summaries, wide)
    assert "┃ figure" in wide.export_text()  # room enough: the table
