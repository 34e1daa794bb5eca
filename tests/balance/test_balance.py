"""Balance lab: the statistics against known values, a real study through the CLI, its HTML page in
a real browser, and the same games through a real local Ray cluster."""

from __future__ import annotations

import html
import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from statistics import NormalDist
from typing import Any

import pytest

from generator.balance import render
from generator.balance.sequential import boundaries, look
from generator.balance.stats import mean_interval, newcombe, paired, quartiles, t_quantile, variance, welch, wilson
from generator.balance.summary import prices, summarize
from generator.balance.table import rows
from tests.helpers import ROOT, Result, run_cli, run_process


def test_wilson_interval_matches_the_published_values() -> None:
    # Newcombe (1998), table I: 81/263 -> 0.2553..0.3662; 0/10 -> 0..0.2775.
    interval = wilson(81, 263)
    assert (round(interval.low, 4), round(interval.high, 4)) == (0.2553, 0.3662)
    interval = wilson(0, 10)
    assert (interval.low, round(interval.high, 4)) == (0.0, 0.2775)
    assert wilson(0, 0).high == 1.0  # no games: nothing known


def test_newcombe_difference_matches_the_published_values() -> None:
    # Newcombe (1998), example (a) of table II: 56/70 vs 48/80 -> 0.2 (0.0524..0.3339), as b - a.
    difference = newcombe(48, 80, 56, 70)
    assert round(difference.value, 4) == 0.2
    assert (round(difference.low, 4), round(difference.high, 4)) == (0.0524, 0.3339)
    assert difference.significant
    assert not newcombe(5, 10, 6, 10).significant


# Four games' Germans income, the case of issue 31: z gave ±5.8 where t(3) gives ±9.5.
INCOME_A = [30.0, 42.0, 36.0, 48.0]
INCOME_B = [33.0, 45.0, 41.0, 50.0, 28.0]


def test_t_quantiles_match_the_printed_table() -> None:
    # Student t, two-sided 95 % (any statistics table): df 1, 3, 10, 30.
    assert [round(t_quantile(df), 3) for df in (1, 3, 10, 30)] == [12.706, 3.182, 2.228, 2.042]


def test_every_interval_matches_a_reference_computation() -> None:
    from scipy import stats as reference

    interval = mean_interval(INCOME_A)
    expected = reference.t.interval(0.95, 3, loc=39.0, scale=reference.sem(INCOME_A))
    assert (round(interval.low, 6), round(interval.high, 6)) == tuple(round(x, 6) for x in expected)
    assert (interval.value, round(interval.half_width, 2)) == (39.0, 12.33)  # s = √60 = 7.746, se = 3.873, t(3) = 3.182
    welch_ci = reference.ttest_ind(INCOME_B, INCOME_A, equal_var=False).confidence_interval(0.95)
    interval = welch(INCOME_A, INCOME_B)
    assert (round(interval.low, 6), round(interval.high, 6)) == (round(welch_ci.low, 6), round(welch_ci.high, 6))
    paired_ci = reference.ttest_rel(INCOME_B[:4], INCOME_A).confidence_interval(0.95)
    interval = paired(INCOME_A, INCOME_B[:4])
    assert (round(interval.low, 6), round(interval.high, 6)) == (round(paired_ci.low, 6), round(paired_ci.high, 6))
    # Pairing: the seeds' shared dice make the per-seed differences vary less than the games.
    assert interval.half_width < welch(INCOME_A, INCOME_B[:4]).half_width


def test_welch_and_quartiles() -> None:
    interval = welch([10, 12, 14], [20, 22, 24])
    assert interval.value == 10 and interval.significant
    # df = 4 (equal variances and sizes): t(4) = 2.776 times the standard error.
    assert round(interval.half_width, 3) == round(2.7764451051977987 * (4 / 3 + 4 / 3) ** 0.5, 3)
    assert welch([10], [20, 22]).half_width == float("inf")  # one game: no spread known
    assert quartiles([1, 2, 3, 4]) == (1.75, 2.5, 3.25)


def _record(variant: str, seed: int, income: int, units: dict[str, int], costs: dict[str, int]) -> dict[str, Any]:
    def players(tuv_units: dict[str, int]) -> dict[str, Any]:
        return {
            "Germans": {
                "income": income, "pus": 0, "tuv": sum(n * costs[u] for u, n in tuv_units.items()),
                "territories": 10, "victoryCities": 2, "units": sum(tuv_units.values()), "unitTypes": tuv_units,
            }
        }  # fmt: skip

    return {
        "variant": variant, "seed": seed, "ai": "fast", "actions": "rules", "rounds": 1, "roundsCompleted": 1,
        "gameOver": False, "winners": [], "winningSide": None, "sides": {"Germans": "Axis"}, "seconds": 1.0,
        "errors": [], "perRound": [{"round": 0, "players": players(units)}, {"round": 1, "players": players(units)}],
        "unitCosts": {"Germans": costs}, "actionsOpen": [], "actionsTaken": [],
    }  # fmt: skip


def test_the_report_prices_tuv_once_and_shows_every_error_and_action() -> None:
    base = [_record("lhtr", s, 30 + s, {"infantry": 10, "armour": 2}, {"infantry": 3, "armour": 5}) for s in (1, 2)]
    # The same armies, armour cheaper in the variant: the same TUV at the baseline's prices.
    other = [_record("aare", s, 31 + s, {"infantry": 10, "armour": 2}, {"infantry": 3, "armour": 4}) for s in (1, 2)]
    other[1]["errors"] = ["delegate purchase refused purchase: Not enough resources"]
    other[0]["actionsOpen"] = [
        {"round": r, "step": "germanUserActions", "player": "Germans", "action": "userActionAttachmentGermanyBlitz"}
        for r in (1, 2)
    ]
    other[0]["actionsTaken"] = [{"round": 1, "player": "Germans", "action": "userActionAttachmentGermanyBlitz"}]
    failed = dict(_record("aare", 3, 0, {}, {}), perRound=[], errors=["the JVM died"])
    price_list = prices(base)
    summaries = [summarize("lhtr", base, 1, price_list), summarize("aare", [*other, failed], 1, price_list)]
    table = {row.label: row for row in rows(summaries)}
    assert table["Germans TUV, round 1"].values == ("40.0 (±0.0)", "40.0 (±0.0)")
    assert table["Germans income, round 1"].values == ("31.5 (±6.4)", "32.5 (±6.4)")
    text = render.markdown(summaries)
    assert "- aare: 3 games, 1 rounds, 0 won, 2 unfinished, 1 failed, 2 with errors; 3 s of play" in text
    # The same difference in both seeds: p 0 (Holm's too), and pairing leaves no variance at all.
    assert (
        "| Germans income, round 1 | 31.5 (±6.4) | 32.5 (±6.4) | +1.0 (±0.0) * | <0.0001 (<0.0001) † | 0.00 |" in text
    )
    refused = "- aare seed 2: delegate purchase refused purchase: Not enough resources"
    assert f"{refused}\n- aare seed 3: the JVM died" in text
    assert "| aare | GermanyBlitz | 2 | 1 | 50% |" in text
    page = render.page(summaries, {})
    assert "<li>aare seed 3: the JVM died</li>" in page
    assert "<td>GermanyBlitz</td><td>2</td><td>1</td><td>50%</td>" in page


def _study(tmp: Path, *args: str) -> tuple[Result, list[dict[str, Any]]]:
    out = tmp / "study"
    # A Ray client leaves its threads behind when it disconnects: a cluster study runs in a process of its own.
    run = run_process if "--cluster" in args else run_cli
    result = run("balance", *args, "--out", str(out), cwd=ROOT)
    lines = (out / "games.jsonl").read_text(encoding="utf-8").splitlines() if (out / "games.jsonl").is_file() else []
    return result, [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result, list[dict[str, Any]]]:
    folder = tmp_path_factory.mktemp("balance")
    # One look of the stopping rule: the same four games, and the decision in every report form.
    result, games = _study(
        folder, "lhtr", "aare", "--games", "2", "--rounds", "1", "--workers", "2", "--seed", "5",
        "--until", "significant", "--max-games", "2",
    )  # fmt: skip
    return folder / "study", result, games


@pytest.mark.engine
def test_a_study_compares_two_variants_game_by_game(study: tuple[Path, Result, list[dict[str, Any]]]) -> None:
    out, result, games = study
    assert result.code == 0, result.out + result.err
    assert sorted((g["variant"], g["seed"]) for g in games) == [("aare", 5), ("aare", 6), ("lhtr", 5), ("lhtr", 6)]
    for game in games:
        assert game["errors"] == [] and game["roundsCompleted"] == 1
        assert [r["round"] for r in game["perRound"]] == [0, 1]
        assert set(game["sides"].values()) == {"Allies", "Axis"}
        start = game["perRound"][0]["players"]
        assert start["Germans"]["tuv"] > 0 and start["Germans"]["income"] > 0 and start["Germans"]["victoryCities"] > 0
    # aare's national advantages are user actions: the rules policy takes some; lhtr has none.
    assert any(g["actionsTaken"] for g in games if g["variant"] == "aare")
    assert not any(g["actionsTaken"] for g in games if g["variant"] == "lhtr")
    assert all(g["actions"] == "rules" and g["unitCosts"]["Germans"]["infantry"] == 3 for g in games)
    assert "aare - lhtr" in result.out and "Axis win rate" in result.out
    markdown = (out / "report.md").read_text(encoding="utf-8")
    assert "| Axis win rate | 0% (0%..66%) | 0% (0%..66%) | +0 % (-66..+66 %) | 1.000 (1.000) | - |" in markdown
    # Every action open in a game, with how often it was open and taken (turns = steps of a player).
    opened = {a["action"] for g in games for a in g["actionsOpen"]}
    assert opened and all(f"| aare | {render.short(a)} | " in markdown for a in opened)
    # The stopping rule's decision after its only look, in the terminal, report.md and report.html.
    verdict = next(line for line in result.err.splitlines() if line.startswith("stopping rule"))
    assert verdict.startswith(
        "stopping rule (significant, O'Brien-Fleming spending, at most 1 look), look 1: 2 pairs (information 1.00), "
        "Allies score aare - lhtr "
    )
    assert verdict.endswith(("stop, the difference is not zero", "stop, undecided at the cap")), verdict
    assert verdict in result.out and f"- {verdict}" in markdown
    # After the stop: the table's other intervals are said to be unadjusted for the looks.
    assert "- the table's intervals are not adjusted for the stopping rule's looks" in markdown
    assert html.escape(verdict) in (out / "report.html").read_text(encoding="utf-8")
    assert "![income.png](income.png)" in markdown
    for chart in ("income.png", "tuv.png"):
        assert (out / chart).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.engine
def test_the_html_report_renders_in_a_real_browser(study: tuple[Path, Result, list[dict[str, Any]]]) -> None:
    out, result, _ = study
    assert result.code == 0, result.err
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    assert browser, "Chromium is part of the test set-up (apt-get install chromium)"
    page = out / "report.html"
    shot = out / "screenshot.png"  # kept with the study in pytest's temporary folder, to look at
    flags = [
        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", f"--user-data-dir={out / 'profile'}",
    ]  # fmt: skip
    dom = subprocess.run(
        [browser, *flags, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120, check=False
    )
    # The DOM after rendering: the table's rows and both charts, decoded from the page itself.
    assert '<table id="figures">' in dom.stdout and "Axis win rate" in dom.stdout, dom.stderr[-2000:]
    assert dom.stdout.count('<img alt="') == 2
    subprocess.run(
        [browser, *flags, "--window-size=1200,1600", f"--screenshot={shot}", page.as_uri()],
        capture_output=True, timeout=120, check=False,
    )  # fmt: skip
    from PIL import Image

    with Image.open(shot) as picture:
        assert picture.size == (1200, 1600)
        colours = picture.convert("RGB").getcolors(maxcolors=1 << 20)
        assert colours is not None and len(colours) > 50  # text, table lines and charts, not a blank page


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.engine
def test_a_study_runs_on_a_local_ray_cluster(tmp_path: Path) -> None:
    ray = shutil.which("ray", path=str(Path(sys.executable).parent)) or shutil.which("ray")
    assert ray, "Ray is part of the test set-up (pip install -e '.[test,cluster]')"
    port, client = _free_port(), _free_port()
    # Ray's socket paths must stay under 108 bytes: a short folder of its own, not pytest's.
    scratch = Path(tempfile.mkdtemp(prefix="ray-", dir="/tmp"))
    start = [ray, "start", "--head", "--num-cpus", "2", f"--port={port}", f"--ray-client-server-port={client}",
             "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={scratch}"]  # fmt: skip
    # Ray gives the client server it starts for each driver 30 s to open its channel; on a busy
    # machine (the suite's other worker) that failed in 2 of 7 tries and the retry cost ~45 s, with
    # 120 s in none of 8 (a study under three busy loops, 23-28 s).
    wait = {**os.environ, "RAY_CLIENT_SERVER_CHECK_CHANNEL_TIMEOUT_S": "120"}
    started = subprocess.run(start, capture_output=True, text=True, timeout=300, check=False, env=wait)
    assert started.returncode == 0, started.stdout + started.stderr
    try:
        result, games = _study(tmp_path / "ray", *REPRODUCIBLE_GAMES, "--cluster", f"ray://127.0.0.1:{client}")
    finally:
        subprocess.run([ray, "stop", "--force"], capture_output=True, timeout=120, check=False)
        shutil.rmtree(scratch, ignore_errors=True)
    assert result.code == 0, result.out + result.err
    assert f"on the Ray cluster ray://127.0.0.1:{client}" in result.out
    assert [(g["variant"], g["seed"], g["roundsCompleted"], g["errors"]) for g in games] == [
        ("lhtr", 5, 1, []),
        ("lhtr", 6, 1, []),
    ]
    # --reproducible: the same seeds on a local worker play the very same games, the AIs' purchases,
    # moves and battles included, so every figure of every round is the same as on the cluster.
    local, again = _study(tmp_path / "local", *REPRODUCIBLE_GAMES, "--workers", "1")
    assert local.code == 0, local.out + local.err
    assert [_without_timing(g) for g in again] == [_without_timing(g) for g in games]
    assert games[0]["perRound"] != games[1]["perRound"]  # and another seed plays another game


REPRODUCIBLE_GAMES = ("lhtr", "--games", "2", "--rounds", "1", "--seed", "5", "--reproducible")


def _without_timing(game: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in game.items() if key not in ("seconds", "cpuSeconds")}


@pytest.mark.engine
def test_an_unknown_variant_is_a_usage_error(tmp_path: Path) -> None:
    result, _ = _study(tmp_path, "lhtr", "lhrt", "--games", "1", "--rounds", "1")
    assert result.code == 2
    assert "no variant 'lhrt' in rules/ (did you mean 'lhtr'?)" in result.err


def test_a_study_without_the_balance_extra_says_how_to_add_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """numpy, scipy and matplotlib are the optional 'balance' extra: without them (a `None` in
    sys.modules is how Python marks a module that cannot be imported) a study stops before it
    builds or plays, with the line that adds the extra to this checkout's editable install. The
    installed package's line (its pin with the extra) is shown in tests/test_mod_pin.py."""
    for library in ("scipy", "matplotlib"):
        monkeypatch.setitem(sys.modules, library, None)
    result, games = _study(tmp_path, "lhtr", "--games", "1")
    assert (result.code, games) == (1, [])
    assert result.err == (
        "Error: a balance study needs scipy, matplotlib (the 'balance' extra), which this triplea-forge was installed "
        f"without; add it with: {shlex.quote(sys.executable)} -m pip install -e {shlex.quote(f'{ROOT}[balance]')}\n"
    )
    assert not (tmp_path / "study").exists()


def test_the_stopping_rule_widens_early_looks_and_decides() -> None:
    from scipy.stats import t as student_t

    differences = [0.10, 0.12, 0.08, 0.11, 0.09, 0.10]
    first, last = look(differences, 1, 3, "significant", 0.05), look(differences, 3, 3, "significant", 0.05)
    # The same data: the first of three looks is held to its spending boundary 3.71, the last to 1.99,
    # each turned into the t quantile (5 df) with the same tail.
    assert first.interval.half_width > last.interval.half_width
    assert (first.boundary, last.boundary) == boundaries((1 / 3, 2 / 3, 1.0))[::2]
    tail = NormalDist().cdf(-first.boundary)
    assert round(first.interval.half_width, 6) == round(student_t.isf(tail, 5) * (variance(differences) / 6) ** 0.5, 6)
    assert first.decision == "the difference is not zero"
    noise = [0.01, -0.02, 0.015, -0.01, 0.0, 0.005, -0.005, 0.01]
    assert look(noise, 1, 4, "significant", 0.05).decision == ""
    assert look(noise, 1, 4, "bounded", 0.05).decision == "the difference is within ±0.05"
    assert look(noise, 4, 4, "significant", 0.05).decision == "undecided at the cap"


@pytest.mark.engine
def test_restricted_play_ranks_what_each_rule_is_worth(tmp_path: Path) -> None:
    """What a rule is worth: the same seeds played as is, without RuWinter, and without two German
    advantages at once; each arm is compared with the game as is, seed by seed, and ranked."""
    result, games = _study(tmp_path, "aare", "--without", "RuWinter", "--without", "GeLuftwaffe+GeWolfPacks",
                           "--games", "2", "--rounds", "1", "--workers", "1")  # fmt: skip
    assert result.code == 0, result.out + result.err
    arms = ["aare", "aare without RuWinter", "aare without GeLuftwaffe+GeWolfPacks"]
    assert [(g["variant"], g["seed"]) for g in games] == [(arm, seed) for seed in (1, 2) for arm in arms]
    assert {g["actions"] for g in games} == {"rules", "rules;without=RuWinter", "rules;without=GeLuftwaffe,GeWolfPacks"}
    for game in games[1::3]:
        assert [a["round"] for a in game["actionsOpen"] if a["action"] == "userActionAttachmentRuWinter"] == [1]
        assert "userActionAttachmentRuWinter" not in {a["action"] for a in game["actionsTaken"]}
    out = tmp_path / "study"
    markdown = (out / "report.md").read_text(encoding="utf-8")
    assert "| aare without RuWinter | RuWinter | 2 | 0 |" in markdown
    assert "aare without RuWinter - aare" in markdown
    ranked = markdown.split("## What each rule is worth\n\n")[1].split("\n\n")[0].splitlines()
    assert [line.split(":")[0] for line in ranked] in (
        ["1. aare without RuWinter", "2. aare without GeLuftwaffe+GeWolfPacks"],
        ["1. aare without GeLuftwaffe+GeWolfPacks", "2. aare without RuWinter"],
    )
    values = [float(line.split(" score ")[1].split(" ")[0]) for line in ranked]
    assert values == sorted(values, reverse=True) and all(" (" in line and ".." in line for line in ranked)
    assert "![worth.png](worth.png)" in markdown and (out / "worth.png").read_bytes()[:4] == b"\x89PNG"
    assert '<ol id="worth">' in (out / "report.html").read_text(encoding="utf-8")


@pytest.mark.engine
def test_an_unknown_action_to_forbid_is_a_usage_error(tmp_path: Path) -> None:
    result, games = _study(tmp_path, "aare", "--without", "RuWintre", "--games", "1", "--rounds", "1")
    assert result.code == 2 and games == []
    assert "Error: no action RuWintre in aare (its actions: Ge88s, Ge88sInAlgeria," in result.err


@pytest.mark.engine
def test_the_rules_policy_takes_free_units_every_step_they_are_open(tmp_path: Path) -> None:
    """aare's Siberian infantry are free: taken at every step one of them is on offer. The other
    Russian declarations are forbidden, so that Russia's first choice is the Siberian reserves."""
    others = ("RuWinter", "RuRailway", "RuT34", "RuLendLease", "RuMobileIndustry")
    # Whatever the AIs do, a declared reserve is offered at each Russian mobilisation: any game shows
    # it, so not a --reproducible one (a constant identity hash doubles a game's CPU).
    result, games = _study(tmp_path, "aare", "--without", "+".join(others), "--games", "1", "--rounds", "2",
                           "--workers", "1")  # fmt: skip
    assert result.code == 0, result.out + result.err
    assert all(g["errors"] == [] for g in games)  # no purchase or placement refused
    restricted = games[1]
    offered = {(a["round"], a["step"]) for a in restricted["actionsOpen"] if "RuSiberianIn" in a["action"]}
    taken = [(a["round"], a["step"]) for a in restricted["actionsTaken"] if "RuSiberianIn" in a["action"]]
    assert len(offered) == 2 and sorted(offered) == taken  # one placement a step, every step it is open


@pytest.mark.engine
def test_lend_lease_is_delivered_and_paid(tmp_path: Path) -> None:
    """The convoy fixture: Reds' crate appears in Alpha after their placement and pays Blues 10 PUs
    in Far Sea; the harness ships it there by Reds' transport, as a player would."""
    shutil.copytree(ROOT / "tests" / "fixtures" / "convoy", tmp_path / "rules" / "convoy")
    out = tmp_path / "study"
    args = ("convoy", "--games", "1", "--rounds", "3", "--workers", "1", "--reproducible", "--out", str(out))
    result = run_cli("balance", *args, cwd=tmp_path)
    assert result.code == 0, result.out + result.err
    game = json.loads((out / "games.jsonl").read_text(encoding="utf-8"))
    delivered = [a["round"] for a in game["actionsTaken"] if a["action"] == "deliver crate to Far Sea"]
    assert delivered and game["errors"] == []
    pus = [entry["players"]["Blues"]["pus"] for entry in game["perRound"]]
    income = game["perRound"][0]["players"]["Blues"]["income"]
    assert pus[delivered[0]] - pus[delivered[0] - 1] == 10 + income  # the crate's worth, and Blues bought nothing
    markdown = (out / "report.md").read_text(encoding="utf-8")
    opened = sum(a["action"] == "deliver crate to Far Sea" for a in game["actionsOpen"])
    assert f"| convoy | deliver crate to Far Sea | {opened} | {len(delivered)} |" in markdown
