"""Diffs a reviewer can trust, through the real CLI: the turn order in one line, steps matched by
what they do, nothing cut, prose as changed words, Markdown that renders (markdown-it-py, the
CommonMark parser rich uses) with every change in it, and the draft's edits one by one.
"""

from __future__ import annotations

import copy
import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
import yaml
from markdown_it import MarkdownIt

from tests.helpers import ROOT, run_cli

EDITS = ROOT / "rules" / "aarhe-draft" / "edits"


def _tiny() -> dict[str, Any]:
    spec = yaml.safe_load((ROOT / "tests" / "fixtures" / "tiny" / "game.yaml").read_text(encoding="utf-8"))
    assert isinstance(spec, dict)
    return spec


def _write(rules: Path, name: str, spec: dict[str, Any]) -> None:
    (rules / name).mkdir(parents=True, exist_ok=True)
    (rules / name / "game.yaml").write_text(yaml.safe_dump(spec, sort_keys=False), "utf-8")


def _steps_renamed(spec: dict[str, Any], blues_first: bool = False) -> dict[str, Any]:
    """The same play with the Reds' steps renamed (redsX -> redX); optionally the Blues' turn first."""
    out = copy.deepcopy(spec)
    steps = list(spec["sequence"].items())
    if blues_first:
        steps = [steps[0], *steps[7:13], *steps[1:7], *steps[13:]]
    out["sequence"] = {name.replace("reds", "red"): step for name, step in steps}
    return out


RENAMES = """\
  ~ 6 steps renamed, none moved
      redsPurchase → redPurchase
      redsCombatMove → redCombatMove
      redsBattle → redBattle
      redsNonCombatMove → redNonCombatMove
      redsPlace → redPlace
      redsEndTurn → redEndTurn
"""


def test_renamed_steps_are_one_line_and_a_block_moves_once(tmp_path: Path) -> None:
    rules = tmp_path / "rules"
    _write(rules, "old", _tiny())
    _write(rules, "renamed", _steps_renamed(_tiny()))
    _write(rules, "swapped", _steps_renamed(_tiny(), blues_first=True))
    # Each renamed step's predecessor is renamed too: still the same place, so no move.
    renamed = run_cli("diff", "old", "renamed", cwd=tmp_path)
    assert (renamed.code, renamed.err) == (0, "")
    assert renamed.out == "old → renamed: 6 changes (6 steps)\n\nTurn order and steps (6)\n" + RENAMES
    swapped = run_cli("diff", "old", "swapped", cwd=tmp_path)
    assert swapped.out == (
        "old → swapped: 8 changes (1 setting, 7 steps)\n\n"
        "Game (1)\n  ~ Turn order: Reds, Blues → Blues, Reds\n\n"
        "Turn order and steps (7)\n"
        + RENAMES
        + "  ~ bluesPurchase: moved after gameInitDelegate (was after redEndTurn);"
        " with the 5 steps behind it (bluesCombatMove … bluesEndTurn)\n"
    )
    report = json.loads(run_cli("diff", "old", "swapped", "--format", "json", cwd=tmp_path).out)
    moves = [c for c in report["changes"] if c["kind"] == "moved"]
    assert [c["key"] for c in moves] == ["bluesPurchase"]
    assert moves[0]["fields"][1] == {
        "field": "moved with it",
        "old": None,
        "new": ["bluesCombatMove", "bluesBattle", "bluesNonCombatMove", "bluesPlace", "bluesEndTurn"],
    }


def test_a_text_set_or_unset_is_shown_whole(tmp_path: Path) -> None:
    old, new = _tiny(), _tiny()
    new["notes"] = "<p>Two armies, one border, three rivers.</p>"
    entry = {"section": "Units", "source": "§1", "summary": "Infantry walk.", "fidelity": {"grade": "notes-only"}}
    old["rule_ledger"] = {"r-1": {**entry, "reading": "Walk means one territory."}}
    new["rule_ledger"] = copy.deepcopy(old["rule_ledger"])
    del new["rule_ledger"]["r-1"]["reading"]
    new["rule_ledger"]["r-1"]["rationale"] = "Armies march on foot."
    _write(tmp_path / "rules", "old", old)
    _write(tmp_path / "rules", "new", new)
    result = run_cli("diff", "old", "new", cwd=tmp_path)
    assert (result.code, result.err) == (0, "")
    assert result.out.splitlines()[3:] == [
        "  ~ notes: Two armies, one [-border.-] {+border, three rivers.+}",  # the text players read
        "",
        "Rule ledger (1)",
        "  ~ r-1: rationale added: Armies march on foot.; reading removed (was: Walk means one territory.)",
    ]
    brief = run_cli("diff", "old", "new", "--brief", cwd=tmp_path)
    assert brief.out.splitlines()[3:] == [
        "  ~ notes: reworded (23 → 37 characters)",
        "",
        "Rule ledger (1)",
        "  ~ r-1: rationale added; reading removed",
    ]


class _Text(HTMLParser):
    """The text a reader sees in rendered HTML, and how many list items it has."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.items = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.items += tag == "li"

    def handle_data(self, data: str) -> None:
        self.parts.append(data)


def _rendered(markdown: str) -> _Text:
    page = _Text()
    page.feed(MarkdownIt("commonmark").render(markdown))
    return page


def _listed(value: str | list[str] | None) -> list[str]:
    return value if isinstance(value, list) else [] if value is None else [value]


def _outside_folds(lines: list[str]) -> list[str]:
    out, depth = [], 0
    for line in lines:
        if line.startswith("<details>"):
            depth += 1
        elif line.startswith("</details>"):
            depth -= 1
        elif depth == 0:
            out.append(line)
    assert depth == 0
    return out


def test_aarhe_to_its_draft_reads_on_one_screen_with_nothing_cut() -> None:
    result = run_cli("diff", "aarhe", "aarhe-draft", "--format", "markdown", cwd=ROOT)
    assert (result.code, result.err) == (0, "")
    lines = result.out.splitlines()
    turn_order = next(i for i, line in enumerate(lines) if line.startswith("- **Turn order**: "))
    assert turn_order < 20
    assert "Russians (opening turn), Germans, Japanese, Italians, Russians, British, Americans →" in lines[turn_order]
    # What a reviewer is shown outside the folds (a blank line of the source is no line on the page).
    assert len([line for line in _outside_folds(lines) if line.strip()]) <= 60
    assert not any(re.search(r"\band \d+ more\b", line) for line in lines)
    # Both turn orders are rule patterns: the uses are compared, not the steps they make (a step
    # rename without a change of its own is one line: tested on the tiny game above).
    assert (
        "#### Turn orders (3)" in lines and "- **AARHE** removed" in result.out and "- **Draft** added: " in result.out
    )
    assert not any("steps renamed" in line or "renamed to" in line for line in lines)

    # A real Markdown renderer: every bullet is a list item (a fold needs its blank line for that),
    # and every change the JSON report holds is named in what the reader sees.
    page = _rendered(result.out)
    assert page.items == sum(1 for line in lines if line.lstrip().startswith("- "))
    seen = "".join(page.parts)
    report = json.loads(run_cli("diff", "aarhe", "aarhe-draft", "--format", "json", cwd=ROOT).out)
    assert report["summary"]["changes"] > 400
    missing = [c["key"] for c in report["changes"] if c["key"] not in seen]
    assert missing == []
    prose = {"summary", "note", "note 2.x", "reading", "rationale"}  # word diffs: tested on their own
    for change in report["changes"]:  # every value set or unset, every list member added or removed
        for f in change["fields"]:
            if f["field"] in prose or change["key"] == "notes":
                continue
            old, new = f["old"], f["new"]
            if isinstance(old, list) or isinstance(new, list):  # a list may become one value
                values = {*_listed(new)} ^ {*_listed(old)}
            else:
                values = {v for v in (old, new) if v is not None and len(v) < 60}
            assert all(v in seen for v in values), (change["key"], f)


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        ("edit0", "edit1", ["11 ledger entries", "nor on fighters or [-battleships.-] {+bombers.+}",
                            "section National Units → National Units (optional)"]),
        ("edit1", "edit2", ["1 ledger entry", "every gun [-in turn-] picks one enemy"]),
        ("edit2", "edit3", ["12 ledger entries", "aarhe-p1-01: rationale added: Building is cheaper where many"]),
        ("edit3", "edit4", ["2 ledger entries",
                            "aarhe-p4-17: rationale added: Submarines could not fight other submarines."]),
    ],
)  # fmt: skip
def test_each_edit_of_the_draft_can_be_diffed(before: str, after: str, expected: list[str]) -> None:
    result = run_cli("diff", "--rules", "rules/aarhe-draft/edits", before, after, cwd=ROOT)
    assert (result.code, result.err) == (0, ""), result.err
    for words in expected:
        assert words in result.out


def test_the_edits_hold_the_document_before_each_edit() -> None:
    published = (ROOT / "rules" / "aarhe-draft" / "document.txt").read_text(encoding="utf-8")
    texts = [(EDITS / f"edit{n}" / "document.txt").read_text(encoding="utf-8") for n in range(4)] + [published]
    logs = [text[: text.index("Axis and Allies Revised: Historic Edition")] for text in texts]
    assert [log.count("edit") for log in logs] == [0, 1, 2, 3, 4]  # each one more line of the log
    assert "FTR or BB." in texts[0] and "FTR or BMR." in texts[1]
    bodies = [text[len(log) :] for text, log in zip(texts, logs, strict=True)]
    assert bodies[1].count("Roll after all selections") == 1 and bodies[2].count("Roll after all selections") == 2
    assert "Battleships have the biggest guns" not in texts[2] and "Battleships have the biggest guns" in texts[3]
    assert "Submarines did not have anti-submarine" not in texts[3] and "anti-submarine" in texts[4]
    # The last is the draft as published: edit4 is aarhe-draft itself.
    assert (EDITS / "edit4" / "game.yaml").read_text(encoding="utf-8").count("extends: aarhe-draft") == 1
    same = run_cli("diff", "--rules", "rules/aarhe-draft/edits", "edit4", "aarhe-draft", cwd=ROOT)
    assert same.out == "edit4 → aarhe-draft: no changes\n"


def test_a_value_the_engine_assumes_anyway_is_no_change(tmp_path: Path) -> None:
    # Both engines' catalogs start these options at these values (read from the engines).
    old, new = _tiny(), _tiny()
    new["units"]["infantry"].update({"isSea": False, "attackAA": 1, "transportCost": 2})
    new["territories"]["Alpha"]["blockadeZone"] = False
    new["territories"]["Beta"]["blockadeZone"] = True
    _write(tmp_path / "rules", "old", old)
    _write(tmp_path / "rules", "new", new)
    result = run_cli("diff", "old", "new", cwd=tmp_path)
    assert (result.code, result.err) == (0, "")
    assert result.out == (
        "old → new: 2 changes (1 unit, 1 territory)\n\n"
        "Units (1)\n  ~ infantry: transportCost set to 2\n\n"
        "Territories (1)\n  ~ Beta: gains blockadeZone\n"
    )
    # The other way round too: a default unset is no change.
    back = run_cli("diff", "new", "old", cwd=tmp_path)
    assert "isSea" not in back.out and "attackAA" not in back.out and "Alpha" not in back.out
    assert "Beta: loses blockadeZone" in back.out
