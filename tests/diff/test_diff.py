"""`triplea-forge diff` through the real CLI: official games, rules variants, small made-up revisions, git.

The official ww2v2.xml -> lhtr.xml diff is pinned whole: it was checked by hand against a line
diff of the two files (game name, notes, five tech-activation steps moved after placement, twelve
properties; the properties reordered in the file are not changes).
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from tests.helpers import OFFICIAL_GAMES, ROOT, run_cli

SCHEMA = json.loads((ROOT / "generator" / "diff" / "schema.json").read_text(encoding="utf-8"))


WW2V2_TO_LHTR = """\
ww2v2.xml → lhtr.xml: 19 changes (2 settings, 5 steps, 12 properties)

Game (2)
  ~ name: World War II Revised → World War II Revised LHTR
  ~ notes: {NOTES}

Turn order and steps (5)
  ~ russianTechActivation: moved after russianPlace (was after russianTech)
  ~ germanTechActivation: moved after germanPlace (was after germanTech)
  ~ britishTechActivation: moved after britishPlace (was after britishTech)
  ~ japaneseTechActivation: moved after japanesePlace (was after japaneseTech)
  ~ americanTechActivation: moved after americanPlace (was after americanTech)

Game properties (12)
  - Move existing fighters to new carriers removed (was true)
  ~ Allies Projection of Power VCs: 9 → 8
  ~ Always on AA: true → false
  ~ Axis Projection of Power VCs: 9 → 8
  ~ Choose AA Casualties: no longer editable
  ~ Heavy Bomber Dice Rolls: max 10 → 3; no longer editable
  ~ Honorable Surrender: false → true
  ~ LHTR Carrier production rules: false → true; no longer editable
  ~ LHTR Heavy Bombers: false → true; no longer editable
  ~ Projection of Power: true → false
  ~ Super Sub Defence Bonus: 0 → 1; no longer editable
  ~ Territory Turn Limit: false → true; no longer editable
"""


# The notes grew from one sentence to LHTR's summary: the words that changed, every one of them.
# The notes are HTML: the report word-diffs the text players read, folded onto lines of at most
# 160 characters.
NOTES_WORDS = (
    "A [-revised version-] {+WW2V2 Revised mod that follows the popular LHTR rules. (Larry Harris Tournament"
    ' Rules) NOTE: If playing with tech, do NOT research "Industrial Technology", as technically that'
    " is not one+} of the [-basic rule set.-] {+techs for this game,"
)


def test_official_ww2v2_to_lhtr_lists_exactly_their_differences() -> None:
    result = run_cli("diff", "ww2v2.xml", "lhtr.xml", cwd=OFFICIAL_GAMES)
    assert (result.code, result.err) == (0, "")
    lines = result.out.splitlines()
    end = lines.index("Turn order and steps (5)") - 1
    assert all(len(line) <= 160 for line in lines) and all(line.startswith("      ") for line in lines[5:end])
    notes = " ".join(line.strip() for line in lines[4:end])
    assert notes.startswith(f"~ notes: {NOTES_WORDS}") and notes.endswith("* No Industrial Technology tech+}")
    assert "<br>" not in notes and "\N{HORIZONTAL ELLIPSIS}" not in notes  # the text, nothing left out
    folded = "\n".join(lines[4:end]).removeprefix("  ~ notes: ")
    assert result.out == WW2V2_TO_LHTR.replace("{NOTES}", folded)
    brief = run_cli("diff", "ww2v2.xml", "lhtr.xml", "--brief", cwd=OFFICIAL_GAMES)
    assert brief.out == WW2V2_TO_LHTR.replace("{NOTES}", "reworded (40 → 1400 characters)")


def test_rules_variants_revised_to_lhtr_read_as_the_official_games() -> None:
    official = run_cli("diff", "ww2v2.xml", "lhtr.xml", cwd=OFFICIAL_GAMES)
    result = run_cli("diff", "revised", "lhtr", cwd=ROOT)
    assert result.code == 0, result.err
    assert result.out == official.out.replace("ww2v2.xml → lhtr.xml", "revised → lhtr", 1)


def test_an_imported_xml_equals_the_variant_made_from_it() -> None:
    # Values as the engine reads them: the YAML's typed values and the XML's text are the same facts.
    result = run_cli("diff", str(OFFICIAL_GAMES / "ww2v2.xml"), "revised", cwd=ROOT)
    assert result.code == 0 and result.out.endswith("revised: no changes\n")


def test_a_variant_diffed_with_itself_has_no_changes() -> None:
    for extra in ((), ("--exit-code",)):
        result = run_cli("diff", "aare", "aare", *extra, cwd=ROOT)
        assert (result.code, result.out, result.err) == (0, "aare → aare: no changes\n", "")


def test_exit_code_flag_reports_changes_like_git() -> None:
    assert run_cli("diff", "revised", "lhtr", cwd=ROOT).code == 0
    assert run_cli("diff", "revised", "lhtr", "--exit-code", cwd=ROOT).code == 1


@pytest.mark.parametrize("pair", [("revised", "lhtr"), ("lhtr", "aare"), ("aare", "aare"), ("aare", "revised")])
def test_json_follows_the_documented_schema(pair: tuple[str, str]) -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    result = run_cli("diff", *pair, "--format", "json", cwd=ROOT)
    assert result.code == 0, result.err
    report = json.loads(result.out)
    jsonschema.validate(report, SCHEMA)
    assert report["summary"]["changes"] == len(report["changes"]) == sum(report["summary"]["domains"].values())


# ------------------------------------------------------------------ small made-up revisions


def _tiny() -> dict[str, Any]:
    spec = yaml.safe_load((ROOT / "tests" / "fixtures" / "tiny" / "game.yaml").read_text(encoding="utf-8"))
    assert isinstance(spec, dict)
    return spec


def _board() -> dict[str, Any]:
    """Tiny with a ring of twelve more territories, a second unit, a condition and a ledger."""
    spec = _tiny()
    ring = [f"T{i}" for i in range(1, 13)]
    spec["territories"]["Beta"]["connections"] = ["Alpha", "T1"]
    for i, name in enumerate(ring):
        links = [ring[i - 1], ring[(i + 1) % 12]] + (["Beta"] if name == "T1" else [])
        spec["territories"][name] = {"owner": "Blues", "production": 1, "connections": links}
    spec["units"]["armour"] = {"movement": 2, "attack": 3, "defense": 3}
    spec["units"]["infantry"]["ledger"] = ["r-1"]
    spec["production_rules"]["buyArmour"] = {"cost": {"PUs": 5}, "result": {"armour": 1}}
    spec["production_frontiers"]["standard"] = ["buyInfantry", "buyArmour"]
    spec["players"]["Reds"]["attachments"] = {
        "conditionAttachmentHoldsAlpha": {"directOwnershipTerritories": ["Alpha"]}
    }
    spec["rule_ledger"] = {
        "r-1": {"section": "Units", "source": "§1", "summary": "Infantry walk.", "fidelity": {"grade": "exact"}}
    }
    return spec


def _revised_board() -> dict[str, Any]:
    spec = copy.deepcopy(_board())
    units = spec["units"]
    # infantry renamed soldier (same content: "1" is the engine's 1), every reference follows.
    units["soldier"] = {"movement": 1, "attack": "1", "defense": 2, "ledger": ["r-1"]}
    del units["infantry"]
    units["armour"] = {"movement": 2, "attack": 4, "defense": 3, "canBlitz": True}
    spec["production_rules"]["buyInfantry"]["result"] = {"soldier": 1}
    spec["production_rules"]["buyArmour"]["cost"] = {"PUs": 6}
    spec["production_frontiers"]["standard"] = ["buyArmour", "buyInfantry"]
    territories = spec["territories"]
    territories["Alpha"]["units"] = {"Reds": {"soldier": 3}}
    territories["Beta"]["units"] = {"Blues": {"soldier": 2}}
    # Beta renamed Gamma: same owner, options, neighbours and starting units.
    territories["Gamma"] = territories.pop("Beta")
    territories["Alpha"]["connections"] = ["Gamma"]
    territories["T1"]["connections"] = ["T12", "T2", "Gamma"]
    for i in range(1, 13):
        territories[f"T{i}"]["production"] = 2
    territories["T3"]["connections"].append("T9")
    territories["T9"]["connections"].append("T3")
    spec["players"]["Reds"]["attachments"]["conditionAttachmentHoldsAlpha"]["directOwnershipTerritories"] = [
        "Alpha",
        "T1",
    ]
    steps = spec["sequence"]
    spec["sequence"] = {"gameInitDelegate": steps.pop("gameInitDelegate"), "bluesPurchase": steps.pop("bluesPurchase")}
    spec["sequence"].update(steps)
    spec["properties"]["Low Luck"] = {"value": True, "editable": True}
    spec["rule_ledger"]["r-1"] = {
        "section": "Units",
        "source": "§1",
        "summary": "Infantry walk one territory a turn.",
        "fidelity": {"grade": "approximate", "note": "the engine counts moves"},
    }
    return spec


BOARD_TEXT = """\
old → new: 24 changes (1 setting, 2 units, 1 production rule, 1 frontier, 13 territories, 1 connection, 1 placement, \
1 step, 1 property, 1 condition,
  1 ledger entry)

Game (1)
  ~ Turn order: Reds, Blues → Blues, Reds, Blues

Units (2)
  ~ infantry renamed to soldier
  ~ armour: attack 3 → 4; gains canBlitz

Production rules (1)
  ~ buyArmour: cost 5 PUs → 6 PUs

Production frontiers (1)
  ~ standard: rules reordered

Territories (13)
  ~ Beta renamed to Gamma
  ~ 12 territories: production 1 → 2
      T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12

Connections (1)
  + T3 \N{EN DASH} T9 added

Units at start (1)
  ~ Alpha (Reds): soldier 2 → 3

Turn order and steps (1)
  ~ bluesPurchase: moved after gameInitDelegate (was after redsEndTurn)

Game properties (1)
  ~ Low Luck: false → true

Conditions (1)
  ~ conditionAttachmentHoldsAlpha (Reds): directOwnershipTerritories Alpha → Alpha:T1

Rule ledger (1)
  ~ r-1: summary: Infantry [-walk.-] {+walk one territory a turn.+}; re-graded exact → approximate; \
note added: the engine counts moves
"""


def _write(rules: Path, name: str, spec: dict[str, Any]) -> None:
    (rules / name).mkdir(parents=True, exist_ok=True)
    (rules / name / "game.yaml").write_text(yaml.safe_dump(spec, sort_keys=False, allow_unicode=True), "utf-8")


def test_reviewer_words_renames_reorders_and_collapsed_runs(tmp_path: Path) -> None:
    _write(tmp_path / "rules", "old", _board())
    _write(tmp_path / "rules", "new", _revised_board())
    result = run_cli("diff", "old", "new", cwd=tmp_path)
    assert (result.code, result.err) == (0, "")
    assert result.out == BOARD_TEXT
    brief = run_cli("diff", "old", "new", "--brief", cwd=tmp_path).out  # the short form: runs named, prose counted
    assert brief == BOARD_TEXT.replace(
        "production 1 → 2\n      T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12",
        "production 1 → 2: T1, T2, T3, T4, T5, and 7 more",
    ).replace(
        "summary: Infantry [-walk.-] {+walk one territory a turn.+}", "summary reworded (14 → 35 characters)"
    ).replace("note added: the engine counts moves", "note added")
    report = json.loads(run_cli("diff", "old", "new", "--format", "json", cwd=tmp_path).out)
    jsonschema.validate(report, SCHEMA)
    changes = {(c["domain"], c["key"]): c for c in report["changes"]}
    assert changes[("units", "soldier")]["kind"] == "renamed"
    assert changes[("units", "soldier")]["old_key"] == "infantry"
    assert changes[("production_frontiers", "standard")]["fields"] == [
        {"field": "rules", "old": ["buyInfantry", "buyArmour"], "new": ["buyArmour", "buyInfantry"]}
    ]
    assert sum(1 for c in report["changes"] if c["domain"] == "territories") == 13  # full in JSON
    assert changes[("steps", "bluesPurchase")]["kind"] == "moved"


def test_markdown_is_a_pull_request_comment(tmp_path: Path) -> None:
    _write(tmp_path / "rules", "old", _board())
    _write(tmp_path / "rules", "new", _revised_board())
    result = run_cli("diff", "old", "new", "--format", "markdown", cwd=tmp_path)
    assert result.code == 0, result.err
    lines = result.out.splitlines()
    summary = BOARD_TEXT[: BOARD_TEXT.index("\n\n")].replace("\n ", "")  # Markdown does not fold it
    counts = summary.removeprefix("old → new: ")
    assert lines[:3] == ["### triplea-forge diff: `old` → `new`", "", f"**{counts}**"]
    assert lines[3:11] == [
        "",
        "#### Game (1)",
        "- **Turn order**: Reds, Blues → Blues, Reds, Blues",
        "",
        "#### Units (2)",
        "- **infantry** renamed to soldier",
        "- **armour**: attack 3 → 4; gains canBlitz",
        "",
    ]
    # Twelve alike changes read as one line naming them all; three lines need no fold.
    at = lines.index("#### Territories (13)")
    assert lines[at : at + 5] == [
        "#### Territories (13)",
        "- **Beta** renamed to Gamma",
        "- 12 territories: production 1 → 2",
        "  - T1, T2, T3, T4, T5, T6, T7, T8, T9, T10, T11, T12",
        "",
    ]
    assert "<details>" not in result.out
    assert "- **conditionAttachmentHoldsAlpha (Reds)**: directOwnershipTerritories Alpha → Alpha:T1" in lines
    assert (
        "- **r-1**: summary: Infantry ~~walk.~~ **walk one territory a turn.**; re-graded exact → approximate;"
        " note added: the engine counts moves" in lines
    )
    assert not any("more" in ln for ln in lines)


# ------------------------------------------------------------------ git revisions


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=Forge Test", "-c", "user.email=forge@example.invalid", *args],
        cwd=repo,
        check=True,
        capture_output=True,
    )


@pytest.mark.skipif(shutil.which("git") is None, reason="git not installed")
def test_git_revisions_of_one_variant(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    rules = repo / "mod" / "rules"
    _write(rules, "tiny", _tiny())
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "first")
    _git(repo, "tag", "v1.0")
    spec = _tiny()
    spec["units"]["infantry"]["attack"] = 2
    spec["production_rules"]["buyInfantry"]["cost"] = {"PUs": 4}
    _write(rules, "tiny", spec)
    # A child variant that only exists at the second revision: its parent resolves at that revision.
    (rules / "child").mkdir()
    (rules / "child" / "game.yaml").write_text("extends: tiny\nunits:\n  infantry: {defense: 3}\n", "utf-8")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "second")
    work = repo / "mod"

    result = run_cli("diff", "tiny", "--from", "v1.0", "--to", "HEAD", cwd=work)
    assert (result.code, result.err) == (0, "")
    assert result.out == (
        "tiny@v1.0 → tiny@HEAD: 2 changes (1 unit, 1 production rule)\n\n"
        "Units (1)\n  ~ infantry: attack 1 → 2\n\n"
        "Production rules (1)\n  ~ buyInfantry: cost 3 PUs → 4 PUs\n"
    )
    # Default --to: the working tree, uncommitted edits included; the folder is found from anywhere.
    spec["territories"]["Alpha"]["production"] = 3
    _write(rules, "tiny", spec)
    result = run_cli("diff", "tiny", "--from", "HEAD", "--rules", "mod/rules", cwd=repo)
    assert result.out == (
        "tiny@HEAD → tiny (working tree): 1 change (1 territory)\n\nTerritories (1)\n  ~ Alpha: production 2 → 3\n"
    )
    result = run_cli("diff", "child", "--from", "HEAD~1", "--to", "HEAD", "--format", "json", cwd=work)
    assert result.code == 1
    assert result.err == "Error: variant 'child' does not exist in mod/rules/ at HEAD~1\n"
    result = run_cli("diff", "child", "--from", "HEAD", cwd=work)
    assert (result.code, result.out) == (
        0,
        "child@HEAD → child (working tree): 1 change (1 territory)\n\nTerritories (1)\n  ~ Alpha: production 2 → 3\n",
    )

    for args, message in [
        (("tiny", "--from", "v9"), "Error: unknown revision 'v9'\n"),
        (("tiny", "--from", "--all"), "Error: unknown revision '--all'\n"),
    ]:
        result = run_cli("diff", *args, cwd=work)
        assert (result.code, result.out, result.err) == (1, "", message)
    outside = tmp_path / "outside"
    _write(outside / "rules", "tiny", _tiny())
    result = run_cli("diff", "tiny", "--from", "HEAD", cwd=outside)
    assert result.code == 1 and result.err.count("\n") == 1
    assert "rules is not inside a git repository" in result.err


def test_usage_errors(tmp_path: Path) -> None:
    assert run_cli("diff", "revised", cwd=ROOT).code == 2
    assert run_cli("diff", "revised", "lhtr", "--from", "HEAD", cwd=ROOT).code == 2
    assert run_cli("diff", "revised", "--to", "HEAD", cwd=ROOT).code == 2
    missing = run_cli("diff", "revised", "nosuch.xml", cwd=ROOT)
    assert (missing.code, missing.err) == (1, "Error: no such file: nosuch.xml\n")
    unknown = run_cli("diff", "revised", "lhtrx", cwd=ROOT)
    assert unknown.code == 1 and "no variant named 'lhtrx'" in unknown.err
