"""Rules the engine would never apply: said by `validate` at their line, and shown inert in the engine.

Each gate of the catalog (generator/catalog/gates-<engine>.json) has a case here: a variant of
tiny with one rule whose gate is shut, and the same rule with the gate open. `validate` warns at the
rule's line for the shut one (an error with --strict) and says nothing of the open one; the engine
test plays every pair for two rounds in one `check` and reads what each rule did from the report:
a rule behind a shut gate does nothing, the same rule behind an open one acts.

Every rule here gives Reds something nothing else in tiny gives (Tokens, a resource no one spends;
a pile of PUs beyond what two rounds earn; an action open to take), so its effect is read without noise.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import ROOT, run_cli, write_tree

TINY = ROOT / "tests" / "fixtures" / "tiny"
TOKENS = "resources: {Tokens: {}}\n"
ALWAYS = "      conditionAttachmentRedsAlways: {rounds: 1-+}\n"
TRIGGERS_ON = "properties: {Use Triggers: true}\n"


def _trigger(options: str) -> str:
    return (
        "players:\n  Reds:\n    attachments:\n"
        "      triggerAttachmentRedsTokens: {conditions: [conditionAttachmentRedsAlways], resource: Tokens, "
        f"resourceCount: 5, {options}}}\n" + ALWAYS
    )


def _objective(properties: str) -> str:
    return (
        f"properties: {{{properties}}}\n"
        "players:\n  Reds:\n    attachments:\n"
        "      objectiveAttachmentRedsHoldAlpha: {class: RulesAttachment, objectiveValue: 100, "
        "directOwnershipTerritories: [Alpha], uses: -1}\n"
    )


NO_RED_END_TURN = "sequence:\n  redsEndTurn: !delete\n"
USER_ACTION = (
    "players:\n  Reds:\n    attachments:\n"
    "      userActionAttachmentRedsMuster: {conditions: [conditionAttachmentRedsAlways], "
    "activateTrigger: [triggerAttachmentRedsMustered, 1, false, false, false, false], costPU: 0, "
    "text: Muster, attemptsPerTurn: 1}\n"
    "      triggerAttachmentRedsMustered: {resource: Tokens, resourceCount: 5, uses: 0}\n" + ALWAYS
)
POLITICS_STEP = (
    "delegates: {politics: {class: PoliticsDelegate, display: Politics}}\n"
    "sequence:\n  redsPolitics: {delegate: politics, player: Reds, before: redsPurchase}\n"
)
POLITICS = (
    "relationship_types: {War: {archeType: war}, Truce: {archeType: neutral}}\n"
    "players:\n  Reds:\n    relationships: {Blues: War}\n    attachments:\n"
    "      politicalActionAttachmentRedsTruce: {conditions: [conditionAttachmentRedsAlways], "
    "relationshipChange: [Reds, Blues, Truce], text: Truce, costPU: 0, attemptsPerTurn: 1}\n" + ALWAYS
)
VICTORY = (
    "players:\n  Reds:\n    attachments:\n"
    "      triggerAttachmentRedsWin: {conditions: [conditionAttachmentRedsAlways], victory: RedsWin, players: [Reds]}\n"
    + ALWAYS
)
NO_COMBAT_MOVE = "sequence:\n  redsCombatMove: {properties: {combatMove: false}}\n"
MARKER = "units:\n  marker: {movement: 0, attack: 0, defense: 0, image: {from: infantry, mark: M}}\n"
PLACE_NO_WHEN = (
    "players:\n  Reds:\n    attachments:\n"
    "      triggerAttachmentRedsMarker: {conditions: [conditionAttachmentRedsAlways], placement: [Alpha, marker], "
    "uses: 1}\n" + ALWAYS
)
USER_ACTION_STEP = "delegates: {userActions: {class: UserActionDelegate, display: Actions}}\n" \
    "sequence:\n  redsUserActions: {delegate: userActions, player: Reds, after: redsPurchase}\n"  # fmt: skip

# gate -> (the rule with the gate shut, the same rule with it open, the line validate says of the shut one)
GATES: dict[str, tuple[str, str, str]] = {
    "use-triggers": (
        TOKENS + _trigger("when: after:redsPlace, uses: -1"),
        TOKENS + TRIGGERS_ON + _trigger("when: after:redsPlace, uses: -1"),
        "rules/shut/game.yaml:6:7: players.Reds.attachments.triggerAttachmentRedsTokens: this trigger never fires "
        "in TripleA 1.9 and 2.x (silently ignored): the game property 'Use Triggers' is off, and the engine skips "
        "every trigger then (fix: properties: {Use Triggers: true})",
    ),
    "when-step": (
        TOKENS + TRIGGERS_ON + _trigger("when: after:redsPlce, uses: -1"),
        TOKENS + TRIGGERS_ON + _trigger("when: after:redsPlace, uses: -1"),
        "rules/shut/game.yaml:7:124: players.Reds.attachments.triggerAttachmentRedsTokens.when: this trigger never "
        "fires in TripleA 1.9 and 2.x (silently ignored): its when names step 'redsPlce', which the sequence does "
        "not have (fix: name a step of the sequence (did you mean 'redsPlace'?))",
    ),
    "uses-zero": (
        TOKENS + TRIGGERS_ON + _trigger("when: after:redsPlace, uses: 0"),
        TOKENS + TRIGGERS_ON + _trigger("when: after:redsPlace, uses: -1"),
        "rules/shut/game.yaml:7:147: players.Reds.attachments.triggerAttachmentRedsTokens.uses: this trigger never "
        "fires in TripleA 1.9 and 2.x (silently ignored): uses is 0: every place that collects triggers requires "
        "availableUses (uses != 0), so the trigger never fires on its own; only an activateTrigger whose testUses is "
        "false still fires it (fix: change uses)",
    ),
    "objectives-property": (
        _objective(""),
        _objective("National Objectives: true"),
        "rules/shut/game.yaml:6:7: players.Reds.attachments.objectiveAttachmentRedsHoldAlpha: this national "
        "objective never pays in TripleA 1.9 and 2.x (silently ignored): the game property 'National Objectives' "
        "is off, and the engine skips every national objective then (fix: properties: {National Objectives: true})",
    ),
    "objective-step": (
        _objective("National Objectives: true") + NO_RED_END_TURN,
        _objective("National Objectives: true"),
        "rules/shut/game.yaml:6:7: players.Reds.attachments.objectiveAttachmentRedsHoldAlpha: this national "
        "objective never pays in TripleA 1.9 and 2.x (silently ignored): the engine looks for it only at the start "
        "of the end turn step, and Reds has no step of EndTurnDelegate or NoPUEndTurnDelegate (fix: add a step of "
        "EndTurnDelegate for Reds to sequence)",
    ),
    "user-action-step": (
        TOKENS + USER_ACTION,
        TOKENS + USER_ACTION + USER_ACTION_STEP,
        "rules/shut/game.yaml:6:7: players.Reds.attachments.userActionAttachmentRedsMuster: this user action is "
        "never offered in TripleA 1.9 and 2.x (silently ignored): the engine looks for it only during the user "
        "action step, and Reds has no step of UserActionDelegate (fix: add a step of UserActionDelegate for Reds to "
        "sequence)",
    ),
    "resource-without-when": (
        TOKENS + TRIGGERS_ON + _trigger("uses: -1"),
        TOKENS + "properties: {Use Triggers: true, National Objectives: true}\n" + _trigger("uses: -1"),
        "rules/shut/game.yaml:7:7: players.Reds.attachments.triggerAttachmentRedsTokens: this trigger never fires in "
        "TripleA 1.9 and 2.x (silently ignored): the game property 'National Objectives' is off, and a trigger "
        "without when gives no resource then (fix: properties: {National Objectives: true})",
    ),
    "placement-without-when": (
        MARKER + TRIGGERS_ON + NO_COMBAT_MOVE + PLACE_NO_WHEN,
        MARKER + TRIGGERS_ON + PLACE_NO_WHEN,
        "rules/shut/game.yaml:10:7: players.Reds.attachments.triggerAttachmentRedsMarker: this trigger never fires "
        "in TripleA 1.9 and 2.x (silently ignored): the engine looks for it only at the start of the combat move "
        "step, and Reds has no combat move step of MoveDelegate (fix: add a combat move step of MoveDelegate for "
        "Reds to sequence)",
    ),
    "politics-property": (
        POLITICS + POLITICS_STEP,
        POLITICS + POLITICS_STEP + "properties: {Use Politics: true}\n",
        "rules/shut/game.yaml:7:7: players.Reds.attachments.politicalActionAttachmentRedsTruce: this political action "
        "is never offered in TripleA 1.9 and 2.x (silently ignored): the game property 'Use Politics' is off, and "
        "the engine skips every political action then (fix: properties: {Use Politics: true})",
    ),
    "politics-step": (
        POLITICS + "properties: {Use Politics: true}\n",
        POLITICS + POLITICS_STEP + "properties: {Use Politics: true}\n",
        "rules/shut/game.yaml:7:7: players.Reds.attachments.politicalActionAttachmentRedsTruce: this political action "
        "is never offered in TripleA 1.9 and 2.x (silently ignored): the engine looks for it only during the "
        "politics step, and Reds has no step of PoliticsDelegate (fix: add a step of PoliticsDelegate for Reds to "
        "sequence)",
    ),
    "objective-name": (
        _objective("National Objectives: true").replace(
            "objectiveAttachmentRedsHoldAlpha", "conditionAttachmentRedsPay"
        ),
        _objective("National Objectives: true"),
        "rules/shut/game.yaml:6:7: players.Reds.attachments.conditionAttachmentRedsPay: this national objective never "
        "pays in TripleA 1.9 and 2.x (silently ignored): the engine finds a national objective by its name, which must "
        "start with objectiveAttachment (fix: rename it objectiveAttachment...)",
    ),
    "attempts-zero": (
        TOKENS + USER_ACTION.replace("attemptsPerTurn: 1", "attemptsPerTurn: 0") + USER_ACTION_STEP,
        TOKENS + USER_ACTION + USER_ACTION_STEP,
        "rules/shut/game.yaml:6:208: players.Reds.attachments.userActionAttachmentRedsMuster.attemptsPerTurn: this "
        "user action is never offered in TripleA 1.9 and 2.x (silently ignored): attemptsPerTurn is 0: an action is "
        "offered only with attempts left (attemptsLeftThisTurn > 0), which setting attemptsPerTurn and each turn's "
        "reset set to attemptsPerTurn (fix: change attemptsPerTurn)",
    ),
    "chance-zero": (
        TOKENS + TRIGGERS_ON + _trigger("when: after:redsPlace, uses: -1, chance: '0:6'"),
        TOKENS + TRIGGERS_ON + _trigger("when: after:redsPlace, uses: -1, chance: '6:6'"),
        "rules/shut/game.yaml:7:159: players.Reds.attachments.triggerAttachmentRedsTokens.chance: this trigger never "
        "fires in TripleA 1.9 and 2.x (silently ignored): chance is 0:6: testChance fails whenever the hit number is 0 "
        "and the dice have sides (0:N), without a roll; only chanceIncrementOnFailure raises it, or an activateTrigger "
        "whose testChance is false (fix: change chance)",
    ),
    "triggered-victory": (
        VICTORY,
        VICTORY + "properties: {Triggered Victory: true}\n",
        "rules/shut/game.yaml:5:7: players.Reds.attachments.triggerAttachmentRedsWin: this trigger never fires in "
        "TripleA 1.9 and 2.x (silently ignored): the game property 'Triggered Victory' is off, and a trigger without "
        "when gives no victory then (fix: properties: {Triggered Victory: true})",
    ),
}


def _variants(tmp_path: Path, gates: dict[str, tuple[str, str, str]]) -> Path:
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    files = {}
    for gate, (shut, open_, _) in gates.items():
        files[f"{gate}-shut/game.yaml"] = "extends: tiny\n" + shut
        files[f"{gate}-open/game.yaml"] = "extends: tiny\n" + open_
    write_tree(tmp_path / "rules", files)
    return tmp_path


@pytest.mark.parametrize("gate", sorted(GATES))
def test_a_shut_gate_is_said_at_the_rule(tmp_path: Path, gate: str) -> None:
    shut, open_, expected = GATES[gate]
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    files = {"shut/game.yaml": "extends: tiny\n" + shut, "open/game.yaml": "extends: tiny\n" + open_}
    write_tree(tmp_path / "rules", files)
    where, message = expected.split(": ", 1)
    result = run_cli("validate", "shut", cwd=tmp_path)
    assert result.code == 0, result.err
    assert f"{where}: warning: {message}" in result.err.splitlines(), result.err
    strict = run_cli("validate", "shut", "--strict", cwd=tmp_path)
    assert strict.code == 1
    assert expected in strict.err.splitlines()
    opened = run_cli("validate", "open", "--strict", cwd=tmp_path)
    assert opened.code == 0, opened.err


def test_a_pattern_use_says_its_gate_at_the_use(tmp_path: Path) -> None:
    """free_units makes a trigger: with Use Triggers off, the use's own line says so, once."""
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    use = "free_units:\n  Reinforcements:\n    player: Reds\n    after: redsPlace\n    place: {Alpha: [infantry]}\n" \
        "    triggers_on: Reds\n"  # fmt: skip
    write_tree(tmp_path / "rules", {"mod/game.yaml": "extends: tiny\n" + use})
    result = run_cli("validate", "mod", cwd=tmp_path)
    lines = [line for line in result.err.splitlines() if "silently ignored" in line]
    assert lines == [
        "rules/mod/game.yaml:3:3: warning: free_units.Reinforcements: the trigger "
        "triggerAttachmentFreeUnitsReinforcements it makes never fires in TripleA 1.9 and 2.x (silently ignored): "
        "the game property 'Use Triggers' is off, and the engine skips every trigger then "
        "(fix: properties: {Use Triggers: true})"
    ]


def test_a_unit_nothing_can_bring_into_play_is_said(tmp_path: Path) -> None:
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    write_tree(tmp_path / "rules", {"mod/game.yaml": "extends: tiny\nunits:\n  tank: {movement: 2, attack: 3}\n"})
    result = run_cli("validate", "mod", cwd=tmp_path)
    assert (
        "rules/mod/game.yaml:3:3: warning: units.tank: unit tank never comes into play: no production frontier sells "
        "it, nothing starts with it and no rule places or makes it (sell it in a frontier, place it, or delete it: "
        "units: {tank: !delete})"
    ) in result.err.splitlines()
    write_tree(tmp_path / "rules", {"mod/game.yaml": "extends: tiny\nunits:\n  tank: {movement: 2, attack: 3}\n"
               "production_rules:\n  buyTank: {cost: {PUs: 5}, result: {tank: 1}}\n"
               "production_frontiers:\n  standard: [buyInfantry, buyTank]\n"})  # fmt: skip
    assert "never comes into play" not in run_cli("validate", "mod", cwd=tmp_path).err


def _reds(report: dict[str, Any]) -> dict[str, Any]:
    """What Reds ended the game with, what they had to spend at each purchase, what they could take."""
    last = report["rounds"][-1]["players"]["Reds"]
    spend = [s["pusBefore"] for s in report["purchaseSteps"] if s["player"] == "Reds"]
    offered = [a["action"] for a in report["actionsOpen"] if a["player"] == "Reds"]
    markers = max(r["players"]["Reds"]["units"].get("marker", 0) for r in report["rounds"])
    return {
        "tokens": last["resources"].get("Tokens", 0),
        "most PUs": max(spend, default=0),
        "offered": offered,
        "markers": markers,
        "over": report["gameOver"],
    }


# What each rule does when it acts, read from the report.
ACTS = {
    "use-triggers": lambda r: r["tokens"] >= 5,
    "when-step": lambda r: r["tokens"] >= 5,
    "uses-zero": lambda r: r["tokens"] >= 5,
    "objectives-property": lambda r: r["most PUs"] >= 100,
    "objective-step": lambda r: r["most PUs"] >= 100,
    "user-action-step": lambda r: "userActionAttachmentRedsMuster" in r["offered"],
    "resource-without-when": lambda r: r["tokens"] >= 5,
    "placement-without-when": lambda r: r["markers"] >= 1,
    "politics-property": lambda r: "politicalActionAttachmentRedsTruce" in r["offered"],
    "politics-step": lambda r: "politicalActionAttachmentRedsTruce" in r["offered"],
    "objective-name": lambda r: r["most PUs"] >= 100,
    "attempts-zero": lambda r: "userActionAttachmentRedsMuster" in r["offered"],
    "chance-zero": lambda r: r["tokens"] >= 5,
    "triggered-victory": lambda r: r["over"],
}


@pytest.mark.engine
def test_each_gate_shut_the_rule_does_nothing_open_it_acts(tmp_path: Path) -> None:
    folder = _variants(tmp_path, GATES)
    names = [f"{gate}-{state}" for gate in sorted(GATES) for state in ("shut", "open")]
    result = run_cli("check", *names, "--rounds", "2", "--report", "report.json", cwd=folder)
    reports = {v["name"]: v["report"] for v in json.loads((folder / "report.json").read_text())["variants"]}
    assert set(reports) == set(names), result.out + result.err
    for gate in sorted(GATES):
        shut, opened = _reds(reports[f"{gate}-shut"]), _reds(reports[f"{gate}-open"])
        assert not ACTS[gate](shut), f"{gate}: the rule acted with its gate shut: {shut}"
        assert ACTS[gate](opened), f"{gate}: the rule did nothing with its gate open: {opened}"


HOW_TO = ROOT / "docs" / "how-to" / "rule-every-turn.md"


def _blocks(kind: str) -> list[str]:
    text = HOW_TO.read_text(encoding="utf-8")
    return [block.split("```", 1)[0] for block in text.split(f"```{kind}\n")[1:]]


def _how_to_mod(tmp_path: Path, opened: bool) -> Path:
    """The page's mod: what `new` writes, then the page's rule (and its gates opened)."""
    tmp_path.mkdir(exist_ok=True)
    folder = tmp_path / "mymod"
    assert run_cli("new", "mymod", "--extends", "lhtr", "--in", str(folder), cwd=tmp_path).code == 0
    rule, gates = _blocks("yaml")[0], _blocks("yaml")[1]
    with (folder / "rules" / "mymod" / "game.yaml").open("a", encoding="utf-8") as spec:
        spec.write(rule + (gates if opened else ""))
    return folder


def test_the_how_to_says_what_validate_says(tmp_path: Path) -> None:
    """docs/how-to/rule-every-turn.md: its rule, and the two gates validate names, as the page shows them."""
    folder = _how_to_mod(tmp_path, opened=False)
    said = [line for line in run_cli("validate", "mymod", cwd=folder).err.splitlines() if "silently" in line]
    shown = [line for line in _blocks("console")[0].splitlines() if "silently" in line]
    assert said == shown
    opened = run_cli("validate", "mymod", cwd=_how_to_mod(tmp_path / "open", opened=True))
    assert opened.code == 0 and "silently" not in opened.err, opened.err


@pytest.mark.engine
def test_the_how_to_rule_fires_in_the_engine(tmp_path: Path) -> None:
    folder = _how_to_mod(tmp_path, opened=True)
    result = run_cli("check", "mymod", "--rounds", "2", "--expect-fire", cwd=folder)
    assert result.code == 0, result.out + result.err
    assert "  trigger triggerAttachmentGermansConscripts: fired 2 times (round 1: 1, round 2: 1)" in result.out
    assert "  national objective objectiveAttachmentRussiansHoldKarelia: fired " in result.out


def test_a_game_xml_gets_the_same_gates(tmp_path: Path) -> None:
    """`validate FILE.xml` of any game: a shut gate is said at the attachment's XML line."""
    shut = GATES["use-triggers"][0]
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    write_tree(tmp_path / "rules", {"shut/game.yaml": "extends: tiny\n" + shut})
    assert run_cli("build", "shut", cwd=tmp_path).code == 0
    game = tmp_path / "output" / "games" / "shut.xml"
    line = next(n for n, text in enumerate(game.read_text().splitlines(), 1) if "triggerAttachmentRedsTokens" in text)
    result = run_cli("validate", "output/games/shut.xml", cwd=tmp_path)
    assert (
        f"output/games/shut.xml:{line}:1: warning: players.Reds.attachments.triggerAttachmentRedsTokens: this trigger "
        "never fires in TripleA 1.9 and 2.x (silently ignored): the game property 'Use Triggers' is off, and the "
        "engine skips every trigger then (fix: properties: {Use Triggers: true})"
    ) in result.err.splitlines(), result.err
