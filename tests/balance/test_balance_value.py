"""What a rule is worth (`balance --value-of-actions`): the paired win-rate interval against a
published table, the rules found in a variant's spec, the worth computed pair by pair, and a real
study through the CLI."""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from generator.balance.stats import newcombe, newcombe_paired, paired_rates, wilson
from generator.balance.summary import prices, summarize
from generator.balance.table import rows
from generator.balance.worth import RuleActions, from_spec, ranked, worth
from generator.checks.variant import check_variant
from generator.spec.resolve import Rules
from tests.helpers import ROOT, run_cli

FIXTURES = ROOT / "tests" / "fixtures"


def test_the_paired_win_rate_interval_matches_the_published_table() -> None:
    # Fagerland, Lydersen & Laake (2017), Statistical Analysis of Contingency Tables, chapter 8: the
    # Cavo et al. (2012) table (59 both, 6 only before, 16 only after, 80 neither), Newcombe's
    # square-and-add interval for before - after: -0.0621 (-0.1186 to -0.0046). Ours is b - a.
    interval = newcombe_paired(59, 16, 6, 80)
    assert [round(x, 4) for x in (interval.value, interval.low, interval.high)] == [-0.0621, -0.1186, -0.0046]
    assert interval.significant
    mirrored = newcombe_paired(59, 6, 16, 80)
    assert [round(x, 4) for x in (mirrored.value, mirrored.low, mirrored.high)] == [0.0621, 0.0046, 0.1186]
    # No game won on either side: as wide as the Wilson interval of 0 of 40 (a t interval on the
    # paired differences would be the single point 0).
    none = newcombe_paired(0, 0, 0, 40)
    assert (none.value, round(none.high, 6), round(none.low, 6)) == (
        0.0,
        round(wilson(0, 40).high, 6),
        -round(none.high, 6),
    )
    # A cross-product between 0 and n/2 counts as no correlation (phi = 0): the unpaired interval of the margins.
    assert newcombe_paired(3, 4, 5, 8) == newcombe(3 + 4, 20, 3 + 5, 20)
    # Pairs that go the same way make the paired interval narrower than the unpaired one.
    assert newcombe_paired(8, 1, 3, 8).half_width < newcombe(9, 20, 11, 20).half_width
    wins_a = [True] * 8 + [True] + [False] * 3 + [False] * 8
    wins_b = [True] * 8 + [False] + [True] * 3 + [False] * 8
    assert paired_rates(wins_a, wins_b) == newcombe_paired(8, 1, 3, 8)


def _record(variant: str, seed: int, winner: str | None, vcs: dict[str, int], tuv: dict[str, int]) -> dict[str, Any]:
    def players() -> dict[str, Any]:
        return {
            nation: {"income": 10, "pus": 0, "tuv": tuv[nation], "territories": 3, "victoryCities": vcs[nation],
                     "units": 1, "unitTypes": {"infantry": tuv[nation] // 3}}
            for nation in ("Reds", "Blues")
        }  # fmt: skip

    return {
        "variant": variant, "seed": seed, "ai": "fast", "actions": "rules", "rounds": 2,
        "roundsCompleted": 1 if winner else 2, "gameOver": winner is not None, "winners": [],
        "winningSide": winner, "sides": {"Reds": "East", "Blues": "West"}, "seconds": 2.0, "cpuSeconds": 3.0,
        "errors": [], "perRound": [{"round": 0, "players": players()}, {"round": 2, "players": players()}],
        "unitCosts": {"Reds": {"infantry": 3}, "Blues": {"infantry": 3}}, "actionsOpen": [], "actionsTaken": [],
    }  # fmt: skip


def test_a_rule_is_worth_what_its_side_loses_without_it_pair_by_pair() -> None:
    from scipy import stats as reference

    # Blues (West) as is, seeds 1..4: they win seed 1; without their fort they win none and hold less.
    as_is = [
        _record("tiny", 1, "West", {"Reds": 1, "Blues": 2}, {"Reds": 9, "Blues": 9}),
        _record("tiny", 2, None, {"Reds": 1, "Blues": 2}, {"Reds": 9, "Blues": 12}),
        _record("tiny", 3, None, {"Reds": 2, "Blues": 1}, {"Reds": 12, "Blues": 9}),
        _record("tiny", 4, None, {"Reds": 1, "Blues": 1}, {"Reds": 9, "Blues": 15}),
    ]
    without = [
        _record("tiny without Fort", 1, None, {"Reds": 1, "Blues": 1}, {"Reds": 9, "Blues": 6}),
        _record("tiny without Fort", 2, None, {"Reds": 2, "Blues": 1}, {"Reds": 9, "Blues": 9}),
        _record("tiny without Fort", 3, None, {"Reds": 2, "Blues": 1}, {"Reds": 12, "Blues": 3}),
        dict(_record("tiny without Fort", 5, None, {"Reds": 1, "Blues": 1}, {"Reds": 9, "Blues": 9})),
    ]
    fort = RuleActions("Fort", ("BlFort", "BlFortInBeta"), ("Blues",))
    found = worth("tiny without Fort", fort, as_is, without, prices(as_is))
    assert (found.side, found.pairs) == ("West", 3)  # the Blues' side; seed 4 and 5 have no pair
    # Score: 1 for the win, else the side's share of all unit value; as is - without, seeds 1..3.
    scores = [1 - 6 / 15, 12 / 21 - 9 / 18, 9 / 21 - 3 / 15]
    expected = reference.t.interval(0.95, 2, loc=sum(scores) / 3, scale=reference.sem(scores))
    assert [round(x, 6) for x in (found.score.low, found.score.high)] == [round(x, 6) for x in expected]
    assert found.win == newcombe_paired(0, 0, 1, 2)  # won once as is, never without
    vcs = reference.ttest_rel([2, 2, 1], [1, 1, 1]).confidence_interval(0.95)
    assert (round(found.vcs.low, 6), round(found.vcs.high, 6)) == (round(vcs.low, 6), round(vcs.high, 6))
    tuv = reference.ttest_rel([9, 12, 9], [6, 9, 3]).confidence_interval(0.95)
    assert (round(found.tuv.low, 6), round(found.tuv.high, 6)) == (round(tuv.low, 6), round(tuv.high, 6))
    # Ranked by the score, most first; a rule without pairs last.
    levy = worth("tiny without Levy", RuleActions("Levy", ("ReLevy",), ("Reds",)), as_is, [], prices(as_is))
    assert [w.arm for w in ranked([levy, found])] == ["tiny without Fort", "tiny without Levy"]
    assert levy.side == "East" and levy.pairs == 0


def test_the_win_rate_column_pairs_games_by_seed() -> None:
    sides = {"W": "West", "E": "East", "-": None}
    base = [
        _record("a", s, sides[w], {"Reds": 1, "Blues": 1}, {"Reds": 9, "Blues": 9}) for s, w in enumerate("WWE-", 1)
    ]
    other = [
        _record("b", s, sides[w], {"Reds": 1, "Blues": 1}, {"Reds": 9, "Blues": 9}) for s, w in enumerate("WE--", 1)
    ]
    summaries = [summarize("a", base, 2), summarize("b", other, 2)]
    table = {row.label: row for row in rows(summaries)}
    # West: a won seeds 1, 2; b won seed 1: 1 pair both, 1 only a, 0 only b, 2 neither.
    assert table["West win rate"].differences == (newcombe_paired(1, 1, 0, 2),)
    assert table["East win rate"].differences == (newcombe_paired(0, 1, 1, 2),)
    assert summaries[0].cpu_per_round == 3.0 * 4 / (1 + 1 + 1 + 2)  # the CPU over the rounds the games played


def _rules(tmp: Path, *fixtures: str) -> Rules:
    for name in fixtures:
        shutil.copytree(FIXTURES / name, tmp / "rules" / name)
    return Rules(tmp / "rules", "rules")


def test_the_rules_made_of_actions_come_from_the_ledger_and_the_patterns(tmp_path: Path) -> None:
    loaded, problems = check_variant(Rules(ROOT / "rules", "rules"), "aare")
    assert loaded is not None, problems
    found = {rule.label: rule for rule in from_spec(loaded.spec)}
    # Thirty national advantages and the treaty; the declaration schedule that every
    # advantage claims too (aare-na-00) is none of them.
    assert len(found) == 31 and not any("aare-na-00" in label for label in found)
    assert found["Russian Winter (aare-na-ru-1)"].actions == ("RuWinter", "RuSevereWinter")
    treaty = found["Bilateral Non-Aggression Treaty (aare-base-04)"]
    assert (treaty.actions, treaty.players) == (("RuBreakTreaty", "JpBreakTreaty"), ("Russians", "Japanese"))
    industry = found["Mobile Industry (aare-na-ru-5)"]
    assert len(industry.actions) == 11 and industry.shown_actions() == "RuMobileIndustry and 10 more"
    # No ledger: the rule pattern use that made the actions groups them.
    loaded, problems = check_variant(_rules(tmp_path, "tiny", "patterns"), "patterns")
    assert loaded is not None, problems
    assert [(r.label, r.actions, r.players) for r in from_spec(loaded.spec)] == [
        ("ReLevy (national advantage)", ("ReLevy",), ("Reds",)),
        ("BlFort (national advantage)", ("BlFortInBeta", "BlFort"), ("Blues",)),
    ]
    loaded, problems = check_variant(Rules(tmp_path / "rules", "rules"), "tiny")
    assert loaded is not None and from_spec(loaded.spec) == []


@pytest.mark.engine
def test_the_value_of_actions_plays_each_rule_forbidden_and_ranks_them(tmp_path: Path) -> None:
    _rules(tmp_path, "tiny", "patterns")
    out = tmp_path / "study"
    args = ("patterns", "--value-of-actions", "--games", "2", "--rounds", "2", "--workers", "1", "--reproducible")
    result = run_cli("balance", *args, "--out", str(out), cwd=tmp_path)
    assert result.code == 0, result.out + result.err
    assert "value of actions: 2 rules of patterns, each forbidden in turn" in result.err
    games = [json.loads(line) for line in (out / "games.jsonl").read_text(encoding="utf-8").splitlines()]
    arms = ["patterns", "patterns without ReLevy (national advantage)", "patterns without BlFort (national advantage)"]
    assert [(g["variant"], g["seed"]) for g in games] == [(arm, seed) for seed in (1, 2) for arm in arms]
    assert [g["actions"] for g in games[:3]] == ["rules", "rules;without=ReLevy", "rules;without=BlFortInBeta,BlFort"]
    for game in games:
        assert game["errors"] == [] and game["cpuSeconds"] > 0
        taken = {a["action"] for a in game["actionsTaken"]}
        assert ("userActionAttachmentReLevy" in taken) == (game["variant"] != arms[1])
        assert ("userActionAttachmentBlFort" in taken) == (game["variant"] != arms[2])
    markdown = (out / "report.md").read_text(encoding="utf-8")
    ranked_lines = markdown.split("## What each rule is worth\n\n")[1].split("\n\n")[0].splitlines()
    assert sorted(line.split(":")[0][3:] for line in ranked_lines) == sorted(arms[1:])
    scores = [float(line.split(" score ")[1].split(" ")[0]) for line in ranked_lines]
    assert scores == sorted(scores, reverse=True)
    fort = next(line for line in ranked_lines if "BlFort (" in line)
    # The fort's infantry stand in every game as is: the Blues' side holds 3 PUs more of units.
    expected = (
        r": to West, 2 pairs: score \+\S+ \(\S+\)( \*)?, p \S+ \(BH \S+\)( †)?, win rate \+0 % \(-66\.\.\+66 %\), "
        r"VCs \+0\.0 \(±0\.0\), "
        r"TUV \+3\.0 \(±0\.0\) \* \(forbids BlFort, BlFortInBeta\)$"
    )
    assert re.search(expected, fort), fort
    assert all(line[3:] in result.out for line in ranked_lines)
    assert "![worth.png](worth.png)" in markdown and (out / "worth.png").read_bytes()[:4] == b"\x89PNG"
    page = (out / "report.html").read_text(encoding="utf-8")
    assert all(f"<li>{html.escape(line[3:])}</li>" in page for line in ranked_lines)
    # How fast the study went, in every form: CPU per game-round per arm, games an hour, the load.
    # (The terminal wraps prose at its width: the line is read from report.md and found in the
    # terminal's words.)
    speed = next(line[2:] for line in markdown.splitlines() if line.startswith("- speed: "))
    assert speed in " ".join(result.out.split())
    assert re.fullmatch(
        r"speed: 6 games \(12 game-rounds\) in \d+ s on 1 local worker: \d+ games an hour \(\d+ game-rounds\); "
        r"load average \d+\.\d before, \d+\.\d after, on \d+ cores",
        speed,
    ), speed
    assert f"- {speed}" in markdown and f"<li>{html.escape(speed)}</li>" in page
    assert re.search(r"- patterns: 2 games, 2 rounds, .*; \d+ s of play, \d+\.\d CPU s per game-round\n", markdown)


@pytest.mark.engine
def test_the_value_of_actions_needs_one_variant_with_actions(tmp_path: Path) -> None:
    _rules(tmp_path, "tiny", "patterns")
    result = run_cli("balance", "tiny", "--value-of-actions", "--games", "1", "--rounds", "1", cwd=tmp_path)
    assert result.code == 2 and "Error: tiny has no user or political actions to forbid" in result.err
    result = run_cli("balance", "patterns", "--value-of-actions", "--without", "ReLevy", cwd=tmp_path)
    assert result.code == 2
    assert "Error: --value-of-actions forbids every rule in turn: give it without --without" in result.err
