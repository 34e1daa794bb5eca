"""`check` shows every rule at work: the triggers the engine fired, the objectives it paid, the actions
offered and taken, by round, each rule said at its YAML line; a rule that does not do what it is
expected to (`expect:`, `--expect-fire`) fails the check at its line.

Two engine games, each through the real CLI on a mod of lhtr made in a temporary folder (a free
units use and a hand-written trigger placing a bomber every turn): one with the game property
`Use Triggers` on, one with it off (lhtr's own). The rest is judged from reports made here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generator.engine.check_output import rule_lines, verdict
from generator.engine.harness_report import GameReport, game_report
from generator.engine.judge import Target, Verdict
from generator.engine.rule_activity import RuleLine, game_rules, tally
from generator.spec.model import Attachment
from tests.helpers import Result, run_cli

SPEC = """\
extends: lhtr
game: {{name: mymod, version: "0.1", map: mymod}}
{properties}free_units:
  GermanBombers:
    player: Germans
    after: germanPlace
    place: {{Germany: [bomber, bomber]}}
    triggers_on: Germans
players:
  Americans:
    attachments:
      triggerAttachmentUsBomber:
        trigger: conditionAttachmentUsAlways
        placement: "Eastern United States:bomber"
        when: "after:americanPlace"
        uses: -1
{expect}      conditionAttachmentUsAlways:
        rounds: "1-+"
"""


def _mod(folder: Path, *, triggers: bool, expect: str = "") -> tuple[Path, dict[str, str]]:
    """The mod's repository; and where its two rules are written (file:line:col of their keys)."""
    text = SPEC.format(
        properties="properties: {Use Triggers: true}\n" if triggers else "",
        expect=f"        expect: {expect}\n" if expect else "",
    )
    spec = folder / "rules" / "mymod" / "game.yaml"
    spec.parent.mkdir(parents=True)
    spec.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    at = {key: next(i for i, line in enumerate(lines, 1) if line.lstrip().startswith(key)) for key in
          ("GermanBombers:", "triggerAttachmentUsBomber:")}  # fmt: skip
    return folder, {
        "free_units GermanBombers": f"rules/mymod/game.yaml:{at['GermanBombers:']}:3",
        "trigger triggerAttachmentUsBomber": f"rules/mymod/game.yaml:{at['triggerAttachmentUsBomber:']}:7",
    }


def _check(folder: Path, *args: str) -> tuple[Result, dict[str, Any]]:
    report = folder / "check.json"
    result = run_cli("check", "mymod", *args, "--report", str(report), cwd=folder)
    assert report.is_file(), result.out + result.err
    return result, json.loads(report.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def triggers_on(tmp_path_factory: pytest.TempPathFactory) -> tuple[Result, dict[str, Any], dict[str, str]]:
    """Use Triggers on, the bomber trigger expected never to act: one game of 2 rounds."""
    folder, where = _mod(tmp_path_factory.mktemp("on"), triggers=True, expect="never")
    result, report = _check(folder, "--rounds", "2")
    return result, report, where


@pytest.fixture(scope="module")
def triggers_off(tmp_path_factory: pytest.TempPathFactory) -> tuple[Result, dict[str, Any], dict[str, str]]:
    """lhtr's Use Triggers (off), with --expect-fire: one game of 1 round (nothing fires in any)."""
    folder, where = _mod(tmp_path_factory.mktemp("off"), triggers=False)
    result, report = _check(folder, "--rounds", "1", "--expect-fire")
    return result, report, where


def _rules(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {rule["label"]: rule for rule in report["rules"]["mymod"]}


@pytest.mark.engine
def test_the_rules_fire_and_are_counted_by_round(triggers_on: tuple[Result, dict[str, Any], dict[str, str]]) -> None:
    result, report, where = triggers_on
    rules = _rules(report)
    free, bomber = rules["free_units GermanBombers"], rules["trigger triggerAttachmentUsBomber"]
    # The free units come in round 1 only (their condition), the bomber after every American placement.
    assert free["fired"] == {"1": 1} and bomber["fired"] == {"1": 1, "2": 1}
    assert free["where"] == where["free_units GermanBombers"] and free["problem"] is None
    assert free["gives"] == {"placements": {"Germans": {"Germany": {"bomber": 2}}}}
    assert bomber["gives"] == {"placements": {"Americans": {"Eastern United States": {"bomber": 2}}}}
    # Each firing, in the game's own report: where it was, what it placed.
    game = report["variants"][0]["report"]
    firings = [(f["round"], f["step"], f["attachment"], f["gives"]) for f in game["ruleActivity"]]
    placed = {"placements": [{"player": "Americans", "territory": "Eastern United States", "units": {"bomber": 1}}]}
    assert (1, "americanPlace", "triggerAttachmentUsBomber", placed) in firings
    assert (2, "americanPlace", "triggerAttachmentUsBomber", placed) in firings
    assert game["game"]["switches"] == {"Use Triggers": True, "National Objectives": False}
    out = result.out.splitlines()
    assert "mymod: rules at work in 1 game of 2 rounds: 2 of 2" in out
    assert "  free_units GermanBombers: fired once (round 1: 1)" in out


@pytest.mark.engine
def test_a_rule_expected_never_to_act_fails_at_its_line(
    triggers_on: tuple[Result, dict[str, Any], dict[str, str]],
) -> None:
    result, report, where = triggers_on
    assert result.code == 1 and report["ok"] is False
    assert report["variants"][0]["ok"] is True  # the game itself passed
    assert (
        f"{where['trigger triggerAttachmentUsBomber']}: trigger triggerAttachmentUsBomber is expected never to act "
        "(expect: never), but it acted in 1 game of 2 rounds: fired 2 times (round 1: 1, round 2: 1)"
    ) in result.out.splitlines()
    assert result.out.strip().endswith("1 checked, the games passed; 1 rule not at work as expected (said above)")


@pytest.mark.engine
def test_rules_that_never_fire_fail_with_expect_fire_at_their_lines(
    triggers_off: tuple[Result, dict[str, Any], dict[str, str]],
) -> None:
    result, report, where = triggers_off
    assert result.code == 1, result.out + result.err
    for label, at in where.items():
        line = (
            f"{at}: {label} is expected to fire (--expect-fire), but it never fired in 1 game of 1 round "
            "(the game property 'Use Triggers' is off, and the engine skips every trigger then; fix: properties: "
            "{Use Triggers: true})"
        )
        assert line in result.out.splitlines(), result.out
        assert _rules(report)[label]["fired"] == {} and _rules(report)[label]["problem"] == line
    assert report["variants"][0]["report"]["ruleActivity"] == []


# ---------------------------------------------------------------------------- judged without the engine


def _game(**changes: Any) -> GameReport:
    """A one-round harness report with a trigger, an objective and an action, validated as check does."""
    rules = [
        {"name": "triggerAttachmentBomber", "player": "Americans", "kind": "trigger"},
        {"name": "objectiveAttachmentGold", "player": "Germans", "kind": "objective"},
        {"name": "userActionAttachmentDeal", "player": "Germans", "kind": "userAction"},
    ]
    report: dict[str, Any] = {
        "parse": {"error": None, "saxErrors": []},
        "roundsCompleted": 2,
        "game": {"players": [], "rules": rules, "switches": {"Use Triggers": True, "National Objectives": True}},
        "ruleActivity": [],
        "actionsOpen": [],
        "actionsTaken": [],
    }
    report.update(changes)
    return game_report(report)


def _firing(round_: int, attachment: str, owner: str, gives: dict[str, Any]) -> dict[str, Any]:
    kind = "objective" if attachment.startswith("objective") else "trigger"
    return {"round": round_, "step": "x", "player": owner, "attachment": attachment, "owner": owner, "kind": kind,
            "source": "history", "gives": gives}  # fmt: skip


def _verdicts(*reports: GameReport) -> list[Verdict]:
    return [Verdict(Target("game", Path("/nowhere/game.xml")), r, [], 1.0, [], seed) for seed, r in enumerate(reports)]


def test_a_game_without_a_spec_says_its_rules_by_name_over_its_games() -> None:
    gold = {"resources": [{"player": "Germans", "resource": "PUs", "amount": 5}]}
    first = _game(
        ruleActivity=[_firing(1, "objectiveAttachmentGold", "Germans", gold),
                      _firing(2, "objectiveAttachmentGold", "Germans", gold)],
        actionsOpen=[{"round": 1, "step": "germanPolitics", "player": "Germans", "action": "userActionAttachmentDeal"}],
    )  # fmt: skip
    second = _game(
        ruleActivity=[_firing(2, "objectiveAttachmentGold", "Germans", gold)],
        actionsTaken=[{"round": 2, "player": "Germans", "action": "userActionAttachmentDeal", "error": None}],
    )
    found = tally(_verdicts(first, second), {}, rounds=2, actions="rules")
    (target, tallies), = found.items()  # fmt: skip
    by = {t.rule.label: t for t in tallies}
    assert sorted(by) == ["national objective objectiveAttachmentGold", "trigger triggerAttachmentBomber",
                          "user action userActionAttachmentDeal"]  # fmt: skip
    gold_tally = by["national objective objectiveAttachmentGold"]
    assert dict(gold_tally.fired) == {1: 1, 2: 2} and gold_tally.gives == {"resources": {"Germans": {"PUs": 15}}}
    deal = by["user action userActionAttachmentDeal"]
    assert dict(deal.offered) == {1: 1} and dict(deal.taken) == {2: 1}
    assert all(t.problem is None for t in tallies)  # nothing expected without --expect-fire
    assert rule_lines(target, tallies) == [
        "game: rules at work in 2 games of 2 rounds: 2 of 3; not at work:",
        "  trigger triggerAttachmentBomber never fired",
        "  national objective objectiveAttachmentGold: fired 3 times (round 1: 1, round 2: 2)",
        "  user action userActionAttachmentDeal: offered at 1 step, taken once (round 2: 1)",
    ]


def test_expect_fire_asks_triggers_to_fire_and_actions_to_be_offered() -> None:
    opened = [{"round": 1, "step": "germanPolitics", "player": "Germans", "action": "userActionAttachmentDeal"}]
    tallies = tally(_verdicts(_game(actionsOpen=opened)), {}, rounds=1, actions="rules", expect_fire=True)
    problems = [t.problem for ts in tallies.values() for t in ts if t.problem]
    assert problems == [
        "national objective objectiveAttachmentGold is expected to fire (--expect-fire), but it never fired in 1 game "
        "of 1 round",
        "trigger triggerAttachmentBomber is expected to fire (--expect-fire), but it never fired in 1 game of 1 round",
    ]  # the action was offered: what it must do (taking it is the player's choice)


def test_what_the_game_says_of_a_rule_never_at_work() -> None:
    off = {"players": [], "rules": _game()["game"]["rules"], "switches": {"Use Triggers": False,
           "National Objectives": False}}  # fmt: skip
    tallies = tally(_verdicts(_game(game=off)), {}, rounds=1, actions="none")
    idle = {t.rule.label: t.idle for ts in tallies.values() for t in ts}
    assert idle == {
        "trigger triggerAttachmentBomber": "the game property 'Use Triggers' is off: no trigger fires",
        "national objective objectiveAttachmentGold": "the game property 'National Objectives' is off: no objective "
        "pays",
        "user action userActionAttachmentDeal": "with --actions none no action is offered or taken",
    }
    named = [{"name": "conditionAttachmentGold", "player": "Germans", "kind": "objective"}]
    tallies = tally(_verdicts(_game(game={"players": [], "rules": named})), {}, rounds=1, actions="rules")
    assert [t.idle for ts in tallies.values() for t in ts] == [
        "the engine pays only national objectives named objectiveAttachment..."
    ]


def test_expectations_of_the_spec_apply_without_the_flag() -> None:
    spec = {
        Path("/nowhere/game.xml"): [
            RuleLine("trigger triggerAttachmentBomber", (("triggerAttachmentBomber", "Americans", "trigger"),),
                     "rules/m/game.yaml:9:7", "players.Americans.attachments.triggerAttachmentBomber", "fires"),
            RuleLine("free_units Gift", (), "rules/m/game.yaml:3:3", "free_units.Gift", "offered"),
            RuleLine("user action userActionAttachmentDeal", (("userActionAttachmentDeal", "Germans", "userAction"),),
                     "rules/m/game.yaml:12:7", None, "never"),
        ]
    }  # fmt: skip
    opened = [{"round": 1, "step": "germanPolitics", "player": "Germans", "action": "userActionAttachmentDeal"}]
    found = tally(_verdicts(_game(actionsOpen=opened)), spec, rounds=1, actions="rules")
    assert [t.problem for ts in found.values() for t in ts] == [
        "rules/m/game.yaml:9:7: trigger triggerAttachmentBomber is expected to fire (expect: fires), but it never "
        "fired in 1 game of 1 round",
        "rules/m/game.yaml:3:3: free_units Gift is expected to be offered (expect: offered), but it makes no trigger, "
        "objective or action",
        "rules/m/game.yaml:12:7: user action userActionAttachmentDeal is expected never to act (expect: never), but "
        "it acted in 1 game of 1 round: offered at 1 step",
    ]
    assert verdict(_verdicts(_game()), found, {}, "rules") == (
        "1 checked, the games passed; 3 rules not at work as expected (said above)"
    )


def test_players_attachments_of_one_name_are_told_apart() -> None:
    rules = [{"name": "triggerAttachmentScorch", "player": p, "kind": "trigger"} for p in ("Germans", "Russians")]
    labels = [r.label for r in game_rules([_game(game={"players": [], "rules": rules})])]
    assert labels == ["trigger triggerAttachmentScorch of Germans", "trigger triggerAttachmentScorch of Russians"]


def test_a_templates_rules_never_at_work_are_one_line_and_many_places_are_cut() -> None:
    spec = {Path("/nowhere/game.xml"): [
        RuleLine(f"trigger t{i}", ((f"t{i}", "Germans", "trigger"),), f"rules/m/templates.yaml:{4 if i < 5 else i}:5")
        for i in range(30)
    ]}  # fmt: skip
    (target, tallies), = tally(_verdicts(_game()), spec, rounds=1, actions="rules").items()  # fmt: skip
    lines = rule_lines(target, tallies)
    assert lines[:2] == [
        "game: rules at work in 1 game of 1 round: 0 of 30; not at work:",
        "  rules/m/templates.yaml:4:5: 5 rules never fired: trigger t0, trigger t1, trigger t2, trigger t3 and 1 more",
    ]
    assert lines[2] == "  rules/m/templates.yaml:5:5: trigger t5 never fired"
    assert lines[-1] == "  and 14 more (--report lists every rule)" and len(lines) == 14


def test_cover_says_the_actions_never_taken_in_the_closing_line() -> None:
    """With --actions cover an action never taken was never open: said, not failed (see verdict)."""
    opened = [{"round": 1, "step": "s", "player": "Germans", "action": "b"}]
    games = _verdicts(_game(actionsOpen=opened))
    never = {"game": (3, ["a", "b"])}
    assert verdict(games, {}, never, "cover") == (
        "1 checked, all passed; 2 of 3 actions never taken (1 never open in the rounds played: more --games or "
        "--rounds may open them): a, b"
    )
    assert verdict(games, {}, never, "rules") == "1 checked, all passed"


def test_expect_is_the_specs_not_an_engine_option() -> None:
    attachment = Attachment.model_validate({"expect": "fires", "uses": 1})
    assert attachment.expect == "fires" and attachment.options == {"uses": 1}
