"""`triplea-forge check` through the real CLI: built variants pass all-AI play, broken games fail in words.

The broken games are small edit scripts in tests/fixtures/check/ applied to a copy of
output/games/revised.xml at run time: each names the edits (find exactly once, replace) and the
failure message the check must print.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from generator.engine.harness_report import GameReport, UnreadableReport, game_report
from generator.engine.judge import action_notes, evaluate, tidy
from tests.helpers import CHECK_GROUP, CHECK_SEEDS, OFFICIAL_GAMES, ROOT, Result, run_cli, variant_spec

FIXTURES = ROOT / "tests" / "fixtures" / "check"
BROKEN = sorted(p.stem for p in FIXTURES.glob("*.xml"))
GAMES = sorted((ROOT / "output" / "games").glob("*.xml"))
# Variants made for TripleA 2.x only cannot be played by the 1.9 engine: check says so and skips them.
ONLY_2X = [p.stem for p in GAMES if b"<triplea minimumVersion" in p.read_bytes()]
VARIANTS = [p.stem for p in GAMES if p.stem not in ONLY_2X]


def derive(fixture: Path, folder: Path) -> tuple[Path, list[str]]:
    """Apply a fixture's edits to a copy of its base game; return the file and expected messages."""
    spec = etree.parse(str(fixture)).getroot()
    text = (ROOT / spec.get("base", "")).read_text(encoding="utf-8")
    for edit in spec.iter("edit"):
        find, replace = edit.findtext("find") or "", edit.findtext("replace") or ""
        assert text.count(find) == 1, f"{fixture.name}: edit anchor must occur once: {find!r}"
        text = text.replace(find, replace)
    game = folder / fixture.name
    game.write_text(text, encoding="utf-8")
    return game, [e.text or "" for e in spec.iter("expect")]


def check_cli(*args: str, report: Path) -> tuple[Result, dict[str, Any]]:
    result = run_cli("check", *args, "--report", str(report), cwd=ROOT)
    assert report.is_file(), result.err
    return result, json.loads(report.read_text(encoding="utf-8"))


@pytest.fixture
def variants(every_variant_checked: tuple[Result, dict[str, Any]]) -> tuple[Result, dict[str, Any]]:
    # One warm JVM for all of them: measured faster than two side by side on 2 cores. The run is
    # shared with test_rules_policy (tests marked CHECK_GROUP run on one worker).
    return every_variant_checked


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> tuple[Result, dict[str, Any], dict[str, list[str]]]:
    folder = tmp_path_factory.mktemp("broken")
    games = {name: derive(FIXTURES / f"{name}.xml", folder) for name in BROKEN}
    paths = [str(game) for game, _ in games.values()]
    # One round shows each of these mistakes (the two-round checks are covered by the variants).
    result, report = check_cli(*paths, "--rounds", "1", report=folder / "check.json")
    return result, report, {name: expected for name, (_, expected) in games.items()}


@pytest.mark.engine
@pytest.mark.xdist_group(CHECK_GROUP)
def test_every_variant_passes_two_rounds(variants: tuple[Result, dict[str, Any]]) -> None:
    result, report = variants
    assert result.code == 0, result.out + result.err
    assert report["ok"] is True
    games = [(name, seed) for name in VARIANTS for seed in CHECK_SEEDS]
    assert [(v["name"], v["seed"]) for v in report["variants"]] == games
    for name, seed in games:
        row = f"│ {name} (seed {seed}) "
        assert any(line.startswith(row) and " ok " in line for line in result.out.splitlines()), result.out
    assert result.out.strip().endswith(f"{len(games)} checked, all passed")


@pytest.mark.engine
@pytest.mark.xdist_group(CHECK_GROUP)
def test_report_holds_what_the_engine_saw(variants: tuple[Result, dict[str, Any]]) -> None:
    _, report = variants
    engine = report["options"]["engine"]
    options = {"rounds": 2, "ai": "fast", "seed": CHECK_SEEDS[0], "actions": "rules", "games": len(CHECK_SEEDS),
               "reproducible": False}  # fmt: skip
    options["engine"] = engine
    assert report["options"] == options
    for variant in report["variants"]:
        summary, game = variant["summary"], variant["report"]
        assert variant["failures"] == []
        assert summary["roundsCompleted"] == 2 and summary["battles"] > 0 and summary["errors"] == 0
        # The rules policy scorches no complex the AI bought for: every unit bought is placed.
        assert summary["unitsPlaced"] > 0 and summary["unitsPurchased"] == summary["unitsPlaced"]
        assert len(summary["secondsPerRound"]) == 2
        assert game["parse"]["saxErrors"] == []
        # No purchase or placement refused: none the harness could not re-plan (the notes say which it did).
        assert game["errors"] == [], game["errors"]
        players = [p["name"] for p in game["game"]["players"]]
        assert players and set(game["start"]) == set(players)
        for round_ in game["rounds"]:
            assert set(round_["players"]) == set(players)
            for snapshot in round_["players"].values():
                assert set(snapshot) == {
                    "resources", "income", "territories", "victoryCities", "tuv", "units", "unplaced"
                }  # fmt: skip
                assert snapshot["tuv"] > 0
                assert "PUs" in snapshot["resources"] and snapshot["unplaced"] == {}
            assert sum(s["income"] for s in round_["players"].values()) > 0
        buyers = {p["name"] for p in game["game"]["players"] if p["productionFrontier"]}
        assert buyers <= {p["player"] for p in game["purchases"]}
        assert all(b["round"] in (1, 2) and b["territory"] for b in game["battles"])
        assert all(c["from"] != c["to"] for c in game["ownerChanges"])
        assert game["moves"] and game["placements"]
        assert set(game["timings"]) >= {"parseMs", "setupMs", "totalMs", "rounds", "byDelegate"}


def _claimed_actions(variant: str, rules: set[str]) -> set[str]:
    """The user and political actions of a variant whose ledger claims name one of `rules`."""
    spec = variant_spec(variant)
    return {
        name
        for player in spec.players.values()
        for name, attachment in player.attachments.items()
        if name.startswith(("userActionAttachment", "politicalActionAttachment")) and set(attachment.ledger) & rules
    }


@pytest.mark.engine
@pytest.mark.parametrize(
    ("variant", "games", "rules"),
    [("aare", 6, {"aare-na-00", "aare-base-04"}), ("expansion", 2, {"exp-treaty-01", "exp-treaty-02"})],
)
def test_check_takes_every_declaration_across_its_games(
    variant: str, games: int, rules: set[str], tmp_path: Path
) -> None:
    """Every national advantage and treaty action fires in some game: the 'cover' policy takes
    first what the run's earlier games did not, and the slots allow about two a nation a game."""
    result, report = check_cli(
        variant, "--rounds", "2", "--games", str(games), "--actions", "cover", report=tmp_path / "check.json"
    )
    assert result.code == 0, result.out + result.err
    assert report["options"]["actions"] == "cover" and len(report["variants"]) == games
    taken = {a["action"] for v in report["variants"] for a in v["report"]["actionsTaken"] if not a["error"]}
    declarations = _claimed_actions(variant, rules)
    assert len(declarations) == (32 if variant == "aare" else 2)  # 30 advantages and two ends of a treaty
    assert declarations - taken == set()
    assert f"{variant}: actions taken in {games} games: " in result.out


@pytest.mark.engine
def test_broken_games_exit_1(broken: tuple[Result, dict[str, Any], dict[str, list[str]]]) -> None:
    result, report, _ = broken
    assert result.code == 1, result.out + result.err
    assert report["ok"] is False
    assert all(not v["ok"] for v in report["variants"])
    assert f"{len(BROKEN)} of {len(BROKEN)} failed" in result.out


@pytest.mark.engine
@pytest.mark.parametrize("name", BROKEN)
def test_broken_game_is_named_in_words(name: str, broken: tuple[Result, dict[str, Any], dict[str, list[str]]]) -> None:
    result, report, expected = broken
    lines = [line for line in result.out.splitlines() if line.startswith(f"{name}: ")]
    for message in expected[name]:
        assert any(message in line for line in lines), f"{message!r} not in:\n" + "\n".join(lines)
    failures = next(v["failures"] for v in report["variants"] if v["name"] == name)
    assert [f"{name}: {f}" for f in failures] == lines


@pytest.mark.engine
def test_parse_only_checks_variants_and_any_game_xml(tmp_path: Path) -> None:
    official = OFFICIAL_GAMES / "lhtr.xml"
    result, report = check_cli(*VARIANTS, str(official), "--rounds", "0", report=tmp_path / "r.json")
    assert result.code == 0, result.out + result.err
    assert [v["name"] for v in report["variants"]] == [*VARIANTS, "lhtr"]
    assert report["variants"][-1]["file"] == str(official)


@pytest.mark.engine
def test_parse_only_catches_the_dtd_message(tmp_path: Path) -> None:
    game, _ = derive(FIXTURES / "unknown_step_player.xml", tmp_path)
    result, _ = check_cli(str(game), "--rounds", "0", report=tmp_path / "r.json")
    assert result.code == 1
    assert 'used by step russianTech (player="Russia"' in result.out


@pytest.mark.engine
def test_a_game_that_times_out_fails_alone_and_the_rest_go_on(tmp_path: Path) -> None:
    result, report = check_cli("revised", "lhtr", "--timeout", "2", report=tmp_path / "r.json")
    assert result.code == 1
    # Both games got their own 2 s: after the first one was killed, a new JVM played the second.
    for variant in report["variants"]:
        assert variant["report"] is None
        # Where it stopped depends on the machine: on a busy one the JVM may not reach a step in 2 s.
        assert re.fullmatch(r"engine harness timed out after 2 s( in round 1, step \w+)?", variant["failures"][0])


def test_unknown_variant_is_a_usage_error() -> None:
    result = run_cli("check", "atlantis", cwd=ROOT)
    assert result.code == 2
    assert "no variant 'atlantis' in rules/ (variants: " in result.err


def test_missing_engine_exits_2(tmp_path: Path) -> None:
    env = {**os.environ, "TRIPLEA_JAR": str(tmp_path / "nowhere.jar")}
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "check", "revised"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert proc.returncode == 2
    assert "apt-get install triplea" in proc.stderr


# ---------------------------------------------------------------------------- judgement without the engine


def _report(**changes: Any) -> GameReport:
    """A minimal passing two-round harness report for one player, validated as check validates the
    harness's (harness_report.game_report)."""
    player = {"name": "Russians", "productionFrontier": "production", "frontierRules": 12}
    report: dict[str, Any] = {
        "parse": {"error": None, "saxErrors": []},
        "errors": [],
        "roundsCompleted": 2,
        "gameOver": False,
        "stoppedAt": None,
        "game": {"players": [{**player, "purchaseSteps": ["russianPurchase"], "placeSteps": ["russianPlace"]}]},
        "purchaseSteps": [{"round": 1, "step": "russianPurchase", "player": "Russians", "pusBefore": 24}],
        "purchases": [{"round": 1, "step": "russianPurchase", "player": "Russians", "units": {"infantry": 8}}],
        "battles": [{"round": 1, "territory": "West Russia"}],
        "unplaced": [],
        "rounds": [{"players": {"Russians": {"unplaced": {}}}}],
    }
    report.update(changes)
    return game_report(report)


def test_a_report_is_validated_once_and_kept_whole() -> None:
    """What check does not read is kept (the --report file holds the whole report); a report that is
    not what the harness writes is said in words, naming each wrong key."""
    raw = {"parse": {"error": None, "saxErrors": [], "ms": 12}, "peakHeapMb": 200, "moves": [{"from": "A", "to": "B"}]}
    assert game_report(raw) == raw
    with pytest.raises(UnreadableReport) as raised:
        game_report({"parse": {"error": None}, "errors": [{"channel": "rejected"}], "roundsCompleted": "two"})
    assert str(raised.value) == (
        "unreadable harness report (parse.saxErrors: Field required; errors.0.message: Field required; "
        "roundsCompleted: Input should be a valid integer, unable to parse string as an integer)"
    )


def test_a_clean_report_passes() -> None:
    assert evaluate(_report(), 2) == []


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"purchases": [], "purchaseSteps": [{"player": "Russians", "pusBefore": 0}]}, "0 PUs at every purchase step"),
        ({"purchases": []}, "Russians never purchased: the AI bought nothing with 24 PUs"),
        ({"battles": []}, "no battle in the first 2 rounds"),
        ({"roundsCompleted": 1, "stoppedAt": "russianTech"}, "stopped in round 2 of 2, at step russianTech"),
        (
            {"unplaced": [{"player": "Russians", "round": 1, "step": "russianPlace", "units": {"armour": 2}}]},
            "Russians bought units but never placed 2 armour (round 1, step russianPlace)",
        ),
        (
            {"errors": [{"channel": "rejected", "step": "germanCombatMove", "message": "delegate move refused move"}]},
            "step germanCombatMove: delegate move refused move",
        ),
        ({"parse": {"error": "java.lang.IllegalArgumentException: invalid version string:", "saxErrors": []}},
         "parse failed: invalid version string:"),
    ],
)  # fmt: skip
def test_each_check_fails_in_words(changes: dict[str, Any], message: str) -> None:
    failures = evaluate(_report(**changes), 2)
    assert any(message in f for f in failures), failures


def test_a_refusal_after_the_players_own_action_fails_and_names_the_action() -> None:
    """A purchase or placement the engine refuses is a turn not played, whoever caused it: the
    policy must not take actions that make the AI's plans fail, so check fails the game."""
    scorched = {"round": 1, "player": "Russians", "action": "userActionAttachmentScorchRussia",
                "removed": {"Russia": {"factory": 1}}}  # fmt: skip
    refusal = {"channel": "rejected", "round": 1, "player": "Russians", "step": "russianPlace",
               "message": "delegate place refused placeUnits (1 units in Russia): No Factory in Russia"}  # fmt: skip
    assert evaluate(_report(actionsTaken=[scorched], errors=[refusal, refusal]), 2) == [
        "step russianPlace: delegate place refused placeUnits (1 units in Russia): No Factory in Russia "
        "(after the action userActionAttachmentScorchRussia removed units there) (2 times)"
    ]
    declared = {"round": 2, "player": "Germans", "action": "userActionAttachmentGeLuftwaffe", "frontiers": ["Germans"]}
    refused = {"channel": "rejected", "round": 2, "player": "Germans", "step": "germanPurchase",
               "message": "delegate purchase refused purchase: Not enough resources"}  # fmt: skip
    assert evaluate(_report(actionsTaken=[declared], errors=[refused]), 2) == [
        "step germanPurchase: delegate purchase refused purchase: Not enough resources "
        "(after the action userActionAttachmentGeLuftwaffe changed its frontier)"
    ]
    # Another round, another player or another territory ("West Russia" is not "Russia"): no cause named.
    for other in (
        {"round": 2},
        {"player": "Germans"},
        {"message": "delegate place refused placeUnits (1 units in West Russia): No Factory in West Russia"},
    ):
        failures = evaluate(_report(actionsTaken=[scorched], errors=[{**refusal, **other}]), 2)
        assert len(failures) == 1 and "refused placeUnits" in failures[0] and "after the action" not in failures[0]


def test_a_replanned_purchase_is_a_note_not_a_failure() -> None:
    replan = {"round": 2, "step": "germanPurchase", "player": "Germans", "refused": "Not enough resources",
              "asked": {"fighter": 5, "infantry": 2}, "bought": {"fighter": 4, "infantry": 2}}  # fmt: skip
    report = _report(purchaseReplans=[replan])
    assert evaluate(report, 2) == []
    assert action_notes(report) == [
        "round 2, Germans: purchase refused (Not enough resources) and re-planned: "
        "asked 5 fighter, 2 infantry, bought 4 fighter, 2 infantry"
    ]
    # A purchase that would not fit at the prices in force is re-planned before the engine sees it.
    early = {**replan, "preempted": True, "refused": "Not enough resources: costs 62 PUs, has 52"}
    assert action_notes(_report(purchaseReplans=[early])) == [
        "round 2, Germans: purchase re-planned before the engine saw it (Not enough resources: costs 62 PUs, "
        "has 52): asked 5 fighter, 2 infantry, bought 4 fighter, 2 infantry"
    ]


def test_purchase_step_names_matter_to_the_ai() -> None:
    players = [{"name": "Russians", "productionFrontier": "p", "frontierRules": 3, "purchaseSteps": ["russianBuy"]}]
    failures = evaluate(_report(purchases=[], game={"players": [{**players[0], "placeSteps": []}]}), 2)
    assert failures == [
        "Russians never purchased: step russianBuy is not named *Purchase, and the AI only buys in steps named so"
    ]


def test_engine_messages_read_as_sentences() -> None:
    assert tidy("java.lang.IllegalStateException: Capital not found for:PlayerID named:Russians") == (
        "Capital not found for Russians"
    )
    assert tidy(
        "games.strategy.engine.data.GameParseException: MapName: /x/y.xml, Could not find territory. name:Germny"
    ) == ("Could not find territory. name:Germny")
    assert tidy("java.lang.reflect.InvocationTargetException <- java.lang.NullPointerException") == (
        "NullPointerException"
    )
    # The harness's own words stay in front of the engine's message.
    assert tidy("the game data cannot be saved <- java.lang.NullPointerException: Cannot invoke x") == (
        "the game data cannot be saved: Cannot invoke x"
    )


@pytest.mark.engine
def test_variants_for_2x_only_are_named_and_skipped() -> None:
    assert ONLY_2X == ["aare-2x", "aarhe-2x"]
    result = run_cli("check", "aare-2x", "--rounds", "0", cwd=ROOT)
    assert result.code == 0, result.err
    assert "aare-2x: not checked, it needs TripleA 2.6 (the engine here is 1.9)" in result.out


@pytest.mark.engine
def test_check_never_plays_a_stale_game(tmp_path: Path) -> None:
    """A price edited and not built: check builds first, so the engine reads the new price."""
    shutil.copytree(ROOT / "tests" / "fixtures" / "tiny", tmp_path / "rules" / "tiny")
    assert run_cli("build", cwd=tmp_path).code == 0
    spec = tmp_path / "rules" / "tiny" / "game.yaml"
    spec.write_text(spec.read_text(encoding="utf-8").replace("cost: {PUs: 3}", "cost: {PUs: 4}"), encoding="utf-8")
    result = run_cli("check", "tiny", "--rounds", "0", cwd=tmp_path)
    assert result.code == 0, result.out + result.err
    assert "wrote output/games/tiny.xml" in result.out
    assert '<cost resource="PUs" quantity="4"/>' in (tmp_path / "output" / "games" / "tiny.xml").read_text()


@pytest.mark.engine
@pytest.mark.xdist_group(CHECK_GROUP)
def test_the_ais_take_the_variants_actions(variants: tuple[Result, dict[str, Any]]) -> None:
    # The 1.9 AIs take no user actions: the harness's seeded policy takes them, so check plays
    # the variants' own layer (national advantages, treaties, lend-lease) too. In every game.
    _, report = variants
    for name in ("aare", "expansion"):
        games = [v for v in report["variants"] if v["name"] == name]
        assert len(games) == len(CHECK_SEEDS)
        for game in games:
            assert game["summary"]["actionsTaken"], f"{name} (seed {game['seed']}): no user action taken"
            assert all(a["error"] is None for a in game["report"]["actionsTaken"])
    assert all(v["summary"]["actionsTaken"] == [] for v in report["variants"] if v["name"] == "revised")  # nothing
