"""`triplea-forge coverage` of any mod: each rule at its line, with its gates and what `check` saw it do.

A mod of tiny with one trigger (Use Triggers on) and the same trigger behind a shut gate (Use
Triggers off): before any check each rule says to run one; after `check` each says what it did,
from the record check left in the cache; an edit since makes that the check of an earlier build.
A shipped variant is found from inside a mod repository, and a damaged or foreign record is no
evidence (never an error).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any, cast

import pytest

from generator.engine.check_record import evidence, game_digests, save_records
from generator.engine.harness_report import GameReport
from generator.engine.judge import Target, Verdict
from tests.helpers import ROOT, Result, run_cli, write_tree

TINY = ROOT / "tests" / "fixtures" / "tiny"
TRIGGER = (
    "resources: {Tokens: {}}\n"
    "players:\n  Reds:\n    attachments:\n"
    "      triggerAttachmentRedsTokens: {conditions: [conditionAttachmentRedsAlways], resource: Tokens, "
    "resourceCount: 5, when: after:redsPlace, uses: -1}\n"
    "      conditionAttachmentRedsAlways: {rounds: 1-+}\n"
)
MOD = "extends: tiny\nproperties: {Use Triggers: true}\n" + TRIGGER
SHUT = "extends: tiny\n" + TRIGGER
SHUT_GATE = (
    "this trigger never fires in TripleA 1.9 and 2.x: the game property 'Use Triggers' is off, and the engine "
    "skips every trigger then (fix: properties: {Use Triggers: true})"
)
OPEN = "every gate open"
FIRED = "fired in 1 of 1 games, first in round 1"
SOURCE = re.compile(
    r"- (mod|shut): in play: as the check of \d{4}-\d\d-\d\d \d\d:\d\d UTC saw this game "
    r"\(1 game of 2 rounds, seed 1, fast AI, --actions rules\)"
)


def _mod(tmp_path: Path) -> Path:
    """A mod repository: tiny, and the two variants of it."""
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    write_tree(tmp_path / "rules", {"mod/game.yaml": MOD, "shut/game.yaml": SHUT})
    return tmp_path


def _coverage(folder: Path, *args: str) -> Result:
    """`coverage` as Markdown (no cell wraps), with the test's own cache of check records."""
    result = run_cli("coverage", *args, "--format", "markdown", cwd=folder, env=_env(folder))
    assert result.code == 0, result.err
    return result


def _env(folder: Path) -> dict[str, str]:
    return {"XDG_CACHE_HOME": str(folder / "cache")}


def _row(variant: str, line: int, gates: str, in_play: str) -> str:
    """The Markdown row of the trigger, written at `line` of the variant's game.yaml."""
    return f"| trigger triggerAttachmentRedsTokens | `rules/{variant}/game.yaml:{line}:7` | {gates} | {in_play} |"


def _rows(result: Result) -> list[str]:
    return [line for line in result.out.splitlines() if line.startswith("| trigger")]


def test_before_any_check_each_rule_says_what_to_run(tmp_path: Path) -> None:
    folder = _mod(tmp_path)
    result = _coverage(folder, "mod", "shut")
    assert _rows(result) == [
        _row("mod", 7, OPEN, "not played yet: run triplea-forge check mod"),
        _row("shut", 6, SHUT_GATE, "not played yet: run triplea-forge check shut"),
    ]
    assert "## Rules: mod" in result.out.splitlines()
    assert (
        "1 rule: each pattern use, trigger, national objective and action the variant writes, where, whether a gate "
        "keeps it shut, and what the last check saw it do."
    ) in result.out.splitlines()
    # Without VARIANTS in a folder where no variant has a ledger: every variant, tiny (no rule) too.
    every = _coverage(folder)
    assert [line for line in every.out.splitlines() if line.startswith("## ")] == [
        "## Rules: mod",
        "## Rules: shut",
        "## Rules: tiny",
    ]
    assert "tiny writes no rule: no pattern use, trigger, national objective or action." in every.out
    # The terminal table says the same, one row a rule.
    table = run_cli("coverage", "shut", cwd=folder, env={**_env(folder), "COLUMNS": "400"})
    assert table.code == 0, table.err
    row = [line for line in table.out.splitlines() if "triggerAttachmentRedsTokens" in line]
    assert len(row) == 1, table.out
    cells = [cell.strip() for cell in row[0].strip("│ ").split("│")]
    assert cells == ["trigger triggerAttachmentRedsTokens", "rules/shut/game.yaml:6:7", SHUT_GATE,
                     "not played yet: run triplea-forge check shut"]  # fmt: skip


@pytest.mark.engine
def test_check_leaves_the_evidence_coverage_shows(tmp_path: Path) -> None:
    folder = _mod(tmp_path)
    played = run_cli("check", "mod", "shut", "--rounds", "2", cwd=folder, env=_env(folder))
    assert "trigger triggerAttachmentRedsTokens: fired" in played.out, played.out + played.err
    result = _coverage(folder, "mod", "shut")
    assert _rows(result) == [
        _row("mod", 7, OPEN, FIRED),
        _row("shut", 6, SHUT_GATE, "never at work in 1 game"),
    ]
    assert [bool(SOURCE.fullmatch(line)) for line in result.out.splitlines() if line.startswith("- ")] == [True] * 2
    # An edit not yet built: the evidence is of an earlier build's game.
    game = folder / "rules" / "mod" / "game.yaml"
    game.write_text(MOD.replace("resourceCount: 5", "resourceCount: 6"), encoding="utf-8")
    edited = _coverage(folder, "mod")
    assert _rows(edited) == [_row("mod", 7, OPEN, FIRED + " (from a check of an earlier build)")]
    (source,) = [line for line in edited.out.splitlines() if line.startswith("- ")]
    assert re.fullmatch(
        r"- mod: in play: from a check of an earlier build, on \d{4}-\d\d-\d\d \d\d:\d\d UTC \(1 game of 2 rounds, "
        r"seed 1, fast AI, --actions rules\); run triplea-forge check mod for this one",
        source,
    ), source
    # The edit undone: the same game as checked, its evidence current again.
    game.write_text(MOD, encoding="utf-8")
    assert _rows(_coverage(folder, "mod"))[0].endswith(f"| {FIRED} |")
    # A record damaged in the cache is no evidence, and no error.
    for record in (folder / "cache" / "triplea-forge" / "check").glob("*.json"):
        record.write_text('{"record": "triplea-forge check", "version": 1, "games": "', encoding="utf-8")
    assert _rows(_coverage(folder, "mod"))[0].endswith("| not played yet: run triplea-forge check mod |")


def test_a_shipped_variant_inside_a_mod_repository(tmp_path: Path) -> None:
    folder = _mod(tmp_path)
    ledger = run_cli("coverage", "aare", cwd=folder, env=_env(folder))
    assert ledger.code == 0, ledger.err
    assert "rule coverage: aare (63 rules)" in ledger.out
    assert "aare-na-ru-2 is notes-only in 1.9, approximate in 2.x" in ledger.out
    # --by-rule adds the rules one by one.
    by_rule = _coverage(folder, "aare", "--by-rule")
    assert "## Rule coverage: aare" in by_rule.out.splitlines()
    assert "## Rules: aare" in by_rule.out.splitlines()
    treaty = [line for line in by_rule.out.splitlines() if line.startswith("| treaties Treaty |")]
    assert treaty == [
        f"| treaties Treaty | `{ROOT}/rules/aare/advantages.yaml:206:3` | every gate open | not played yet: run "
        "triplea-forge check aare |"
    ]
    unknown = run_cli("coverage", "aaree", cwd=folder, env=_env(folder))
    assert unknown.code == 2
    assert (
        "Error: Invalid value for VARIANTS: no variant 'aaree' in rules/ or among the variants triplea-forge ships "
        "(did you mean 'aare'?)"
    ) in unknown.err


def _report(fired: list[tuple[str, int]]) -> GameReport:
    """A game as the harness reports it: tiny's Reds with one trigger, fired in these rounds."""
    firings = [{"round": r, "step": "redsPlace", "attachment": name, "kind": "trigger", "gives": {}, "owner": "Reds"}
               for name, r in fired]  # fmt: skip
    rules = [{"name": "triggerAttachmentRedsTokens", "player": "Reds", "kind": "trigger"}]
    return cast(GameReport, {"parse": {}, "game": {"players": [], "rules": rules}, "ruleActivity": firings})


def test_a_damaged_or_foreign_record_is_no_evidence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Records of two games (seeds 1 and 2) counted per game; each damage leaves the rule unplayed."""
    folder = _mod(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(folder / "cache"))
    assert run_cli("build", "mod", cwd=folder, env=_env(folder)).code == 0
    target = Target("mod", folder / "output" / "games" / "mod.xml")
    name = "triggerAttachmentRedsTokens"
    outcomes = [Verdict(target, _report([(name, 2), (name, 2)]), seed=1), Verdict(target, _report([]), seed=2)]
    save_records(outcomes, game_digests([target]), rounds=2, ai="fast", seed=1, actions="none")
    assert _rows(_coverage(folder, "mod"))[0].endswith("| fired in 1 of 2 games, first in round 2 |")
    (path,) = (folder / "cache" / "triplea-forge" / "check").glob("*.json")
    good: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    damaged: list[object] = [
        None, [], "text", {**good, "version": 2}, {**good, "variant": "shut"}, {**good, "rounds": "2"},
        {**good, "games": [{"fired": [[name, "Reds", "1"]], "offered": [], "taken": []}]},
        {**good, "games": []}, {**good, "attachments": {"a": "b"}}, {**good, "checked": "yesterday"},
        {**good, "sha256": "0" * 64},
    ]  # fmt: skip
    for record in damaged:
        path.write_text(json.dumps(record), encoding="utf-8")
        assert evidence("mod", good["sha256"]) == (None, False), record
        assert _rows(_coverage(folder, "mod"))[0].endswith("| not played yet: run triplea-forge check mod |")
    path.write_bytes(b"\xff\xfe{")
    assert evidence("mod", good["sha256"]) == (None, False)
    # A cache that cannot be written (its folder is a file) loses the evidence, not the check.
    shutil.rmtree(folder / "cache")
    (folder / "cache").write_text("not a folder", encoding="utf-8")
    save_records(outcomes, game_digests([target]), rounds=2, ai="fast", seed=1, actions="none")
    assert evidence("mod", good["sha256"]) == (None, False)
