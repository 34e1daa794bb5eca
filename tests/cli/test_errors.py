"""One tiny broken input per error message, each asserting the exact text the user sees.

Every case builds a rules/ folder holding the valid `tiny` fixture plus a broken variant, runs the
real CLI, and checks: exit code 1, the exact messages (all of them, in one run), no traceback, and
nothing written to output/.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import ROOT, run_cli, write_tree

TINY = ROOT / "tests" / "fixtures" / "tiny"

CASES: dict[str, tuple[dict[str, str], list[str]]] = {
    "typo_key": (
        {
            "broken/game.yaml": """
            extends: tiny
            players:
              Reds: {optinal: true}
            """
        },
        ["rules/broken/game.yaml:3:10: players.Reds.optinal: unknown key 'optinal' (did you mean 'optional'?)"],
    ),
    "typo_top_level_key": (
        {
            "broken/game.yaml": """
            extends: tiny
            unitz: {}
            """
        },
        ["rules/broken/game.yaml:2:1: unitz: unknown key 'unitz' (did you mean 'units'?)"],
    ),
    "duplicate_key": (
        {
            "broken/game.yaml": """
            extends: tiny
            units:
              infantry: {attack: 2}
              infantry: {attack: 3}
            """
        },
        ["rules/broken/game.yaml:4:3: units.infantry: duplicate key (first defined at line 3)"],
    ),
    "extends_missing": (
        {
            "broken/game.yaml": """
            extends: tinny
            """
        },
        [
            "rules/broken/game.yaml:1:10: extends: extends 'tinny': no variant of that name in rules/ or among the "
            "variants triplea-forge ships (did you mean 'tiny'?)"
        ],
    ),
    "extends_cycle": (
        {"broken/game.yaml": "extends: loop\n", "loop/game.yaml": "extends: broken\n"},
        ["rules/loop/game.yaml:1:10: extends: extends cycle: broken -> loop -> broken"],
    ),
    "key_in_two_files": (
        {"broken/a.yaml": "extends: tiny\nunits: {}\n", "broken/b.yaml": "units: {}\n"},
        [
            "rules/broken/b.yaml:1:1: units: 'units' is already defined in rules/broken/a.yaml:2; "
            "a key may appear in one file of a variant only"
        ],
    ),
    "yaml_syntax": (
        {"broken/game.yaml": "extends: tiny\nunits: {infantry: [1, 2}\n"},
        [
            "rules/broken/game.yaml:2:24: YAML syntax error: the [...] list is not closed: separate its entries "
            "with ', ' and end it with ']'"
        ],
    ),
    "python_tag": (
        {"broken/game.yaml": "extends: tiny\nnotes: !!python/object/apply:os.system [echo hi]\n"},
        ["rules/broken/game.yaml:2:8: notes: tag !!python/object/apply:os.system is not allowed in a spec"],
    ),
    "delete_not_inherited": (
        {
            "broken/game.yaml": """
            extends: tiny
            units:
              tank: !delete
            """
        },
        ["rules/broken/game.yaml:3:3: units.tank: !delete of 'tank', which is not inherited"],
    ),
    "wrong_types": (
        {
            "broken/game.yaml": """
            extends: tiny
            game: {version: 1.0}
            territories:
              Alpha: {sea: maybe, connections: Beta}
            """
        },
        [
            "rules/broken/game.yaml:2:17: game.version: expected text, got 1.0 (write it in quotes: '1.0')",
            "rules/broken/game.yaml:4:16: territories.Alpha.sea: expected true or false, got 'maybe'",
            "rules/broken/game.yaml:4:36: territories.Alpha.connections: expected a list, got 'Beta'",
        ],
    ),
    "dangling_references": (
        {
            "broken/game.yaml": """
            extends: tiny
            territories:
              Alpha: {owner: Redz, units: {Reds: {infantree: 1}}}
            sequence:
              redsPurchase: {delegate: purchse}
            """
        },
        [
            "rules/broken/game.yaml:3:18: territories.Alpha.owner: unknown player 'Redz' (did you mean 'Reds'?)",
            "rules/broken/game.yaml:3:39: territories.Alpha.units.Reds.infantree: unknown unit 'infantree' "
            "(did you mean 'infantry'?)",
            "rules/broken/game.yaml:5:28: sequence.redsPurchase.delegate: unknown delegate 'purchse' "
            "(did you mean 'purchase'?)",
        ],
    ),
    "one_sided_border": (
        {
            "broken/game.yaml": """
            extends: tiny
            territories:
              Gamma: {connections: [Alpha]}
            """
        },
        [
            "rules/broken/game.yaml:3:3: territories.Gamma: no territory 'Gamma' on the map 'tiny_map' (the spelling "
            "must match the map's exactly); TripleA would not start the game (No data of type centers for territory: "
            "Gamma)",
            "rules/broken/game.yaml:3:25: territories.Gamma.connections[0]: 'Alpha' does not list 'Gamma' in its "
            "connections; borders are listed on both sides",
        ],
    ),
    "id_not_xml_name": (
        {
            "broken/game.yaml": """
            extends: tiny
            units:
              2nd infantry: {attack: 1}
            """
        },
        [
            "rules/broken/game.yaml:3:3: units.'2nd infantry': '2nd infantry' is not a valid XML name (letters, "
            "digits, '_', '-', '.'; no spaces; not starting with a digit), which engine 1.9 requires"
        ],
    ),
    "ledger_unknown_id": (
        {
            "broken/game.yaml": """
            extends: tiny
            units:
              infantry: {ledger: [tiny-01]}
            rule_ledger:
              tiny-1:
                section: Units
                source: "tiny §1"
                summary: Infantry defends on 2.
                fidelity: {grade: exact}
            """
        },
        [
            "rules/broken/game.yaml:3:23: units.infantry.ledger[0]: unknown rule-ledger id 'tiny-01' "
            "(did you mean 'tiny-1'?)",
            "rules/broken/game.yaml:5:3: rule_ledger.tiny-1: rule 'tiny-1' is graded exact but no spec element "
            "implements it (add `ledger: [tiny-1]` to the elements that do)",
        ],
    ),
    "ledger_options_narrow_claims_and_set_options": (
        {
            "broken/game.yaml": """
            extends: tiny
            units:
              infantry:
                defense: 2
                attack: 1
                ledger: [tiny-1]
                ledger_options: {tiny-1: [defence], tiny-2: [attack]}
            rule_ledger:
              tiny-1:
                section: Units
                source: "tiny §1"
                summary: Infantry defends on 2.
                fidelity: {grade: exact}
            """
        },
        [
            "rules/broken/game.yaml:7:31: units.infantry.ledger_options.tiny-1[0]: 'tiny-1' is narrowed to option "
            "'defence', which this element does not set (did you mean 'defense'?)",
            "rules/broken/game.yaml:7:41: units.infantry.ledger_options.tiny-2: 'tiny-2' is not claimed by this "
            "element: add it to its `ledger` list",
        ],
    ),
    "tag_needs_space": (
        {"broken/game.yaml": "extends: tiny\nterritories:\n  Beta: {capital: !delete}\n"},
        [
            "rules/broken/game.yaml:3:26: YAML syntax error: expected ' ', but found '}' "
            "(a tag such as !delete needs a space after it: `{capital: !delete }`)"
        ],
    ),
}


def _rules(tmp_path: Path, files: dict[str, str]) -> Path:
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    write_tree(tmp_path / "rules", files)
    return tmp_path


@pytest.mark.parametrize("case", sorted(CASES))
def test_error_message(tmp_path: Path, case: str) -> None:
    files, expected = CASES[case]
    project = _rules(tmp_path, files)
    result = run_cli("build", "broken", cwd=project)
    assert result.code == 1, result
    assert "Traceback" not in result.err
    lines = result.err.splitlines()
    assert lines[:-1] == expected
    count = len(expected)
    assert lines[-1] == f"{count} error{'s' if count != 1 else ''} found."
    assert not (project / "output").exists()


def test_all_errors_reported_at_once(tmp_path: Path) -> None:
    """Problems from several files and kinds come out in one run, sorted by file and line."""
    files = {**CASES["typo_key"][0]}
    files["broken/units.yaml"] = "units:\n  infantry: {attack: 1}\n  infantry: {attack: 2}\n"
    project = _rules(tmp_path, files)
    result = run_cli("build", "broken", cwd=project)
    assert result.code == 1
    assert result.err.splitlines() == [
        CASES["typo_key"][1][0],
        "rules/broken/units.yaml:3:3: units.infantry: duplicate key (first defined at line 2)",
        "2 errors found.",
    ]


def test_unknown_variant(tmp_path: Path) -> None:
    project = _rules(tmp_path, {})
    result = run_cli("build", "tinyy", cwd=project)
    assert result.code == 1
    assert result.err.splitlines()[0] == "no variant named 'tinyy' in rules/ (did you mean 'tiny'?)"


OPTION_CASES: dict[str, tuple[str, list[str], list[str]]] = {
    "unknown_option": (
        "units:\n  infantry: {atack: 2}\n",
        [],
        [
            "rules/broken/game.yaml:3:14: units.infantry.atack: unknown option 'atack' for UnitAttachment "
            "(did you mean 'attack'?)"
        ],
    ),
    "wrong_value_type": (
        "units:\n  infantry: {attack: strong, canBlitz: maybe}\n",
        [],
        [
            "rules/broken/game.yaml:3:14: units.infantry.attack: 'strong' is not an integer",
            "rules/broken/game.yaml:3:30: units.infantry.canBlitz: 'maybe' is not true/false",
        ],
    ),
    "option_only_in_2x": (
        "units:\n  infantry: {canEvade: true}\n",
        ["--target", "2.x"],
        [
            "rules/broken/game.yaml:3:14: units.infantry.canEvade: option 'canEvade' of UnitAttachment exists only "
            "in engine 2.x, not in 1.9 (the portable target needs both; use --target 2.x)"
        ],
    ),
    "dangling_reference_in_option": (
        "territories:\n  Alpha: {capital: Redz}\n",
        [],
        [
            "rules/broken/game.yaml:3:11: territories.Alpha.capital: unknown player 'Redz' (did you mean 'Reds'?)",
            # Warnings always show, even beside errors: here, what the typo leaves the game without.
            "rules/tiny/game.yaml:6:9: warning: players.Reds: no territory is the capital of Reds (capital: Reds); "
            "the engine stops at their first technology or income step",
        ],
    ),
}


@pytest.mark.parametrize("case", sorted(OPTION_CASES))
def test_option_message(tmp_path: Path, case: str) -> None:
    text, extra, expected = OPTION_CASES[case]
    project = _rules(tmp_path, {"broken/game.yaml": "extends: tiny\n" + text})
    result = run_cli("build", "broken", cwd=project)
    assert result.code == 1, result
    assert result.err.splitlines()[:-1] == expected
    if extra:  # the same spec is fine for the engine that has the option
        assert run_cli("build", "broken", *extra, cwd=project).code == 0
