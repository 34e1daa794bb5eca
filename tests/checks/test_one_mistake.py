"""One mistake, one error, at its real file and line: never a cascade into the variants a mod
extends, never a file name that is not on disk.
"""

from __future__ import annotations

import gc
import re
import weakref
from pathlib import Path

import pytest

from generator.checks.variant import check_variant
from generator.spec.resolve import Rules
from tests.helpers import BASE_MAP, ROOT, run_cli, write_tree

HEAD = 'extends: lhtr\ngame: {name: My Mod, version: "0.1", map: mymod}\n'


def _validate(tmp_path: Path, spec: str) -> list[str]:
    write_tree(tmp_path / "mod", {"rules/mymod/game.yaml": spec})
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "world_war_ii_revised").symlink_to(BASE_MAP)  # the mod's board, installed
    result = run_cli("validate", cwd=tmp_path / "mod", env={"TRIPLEA_MAPS": str(tmp_path / "maps")})
    assert result.code == 1, result.err
    return result.err.splitlines()


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        (
            HEAD + "resources:\nPUs: {}\n",
            "rules/mymod/game.yaml:4:1: PUs: unknown key 'PUs' at this level; it looks meant under 'resources:' "
            "(line 3), which has nothing under it: indent it under 'resources'",
        ),
        (
            HEAD + "units:\ninfantry: {attack: 2}\nartillery: {attack: 3}\n",
            "rules/mymod/game.yaml:4:1: infantry: unknown keys 'infantry', 'artillery' at this level; they look meant "
            "under 'units:' (line 3), which has nothing under it: indent them under 'units'",
        ),
    ],
)
def test_a_line_indented_too_little_is_one_error(tmp_path: Path, spec: str, expected: str) -> None:
    assert _validate(tmp_path, spec) == [expected, "1 error found."]


def test_a_wrong_value_over_an_inherited_one_is_one_error(tmp_path: Path) -> None:
    """The checks go on with what the mod would inherit: no error at every line of lhtr or revised
    that used what the mod's wrong value replaced."""
    errors = _validate(tmp_path, HEAD + "resources: 5\n")
    assert errors == [
        "rules/mymod/game.yaml:3:12: resources: expected a mapping of names to entries, got 5",
        "1 error found.",
    ]


def test_every_file_a_message_names_is_on_disk(tmp_path: Path) -> None:
    """A problem inside a variant triplea-forge ships is named by that file's real path."""
    errors = _validate(tmp_path, HEAD + "units:\n  infantry: !delete\n")
    files = {re.match(r"([^:]+):\d+:\d+: ", line)[1] for line in errors[:-1] if re.match(r"[^:]+:\d+:\d+: ", line)}
    assert files, errors
    for name in files:
        path = Path(name) if Path(name).is_absolute() else tmp_path / "mod" / name
        assert path.is_file(), name
    assert any(name.startswith(str(ROOT / "rules")) for name in files), files


def test_a_rules_folder_is_not_kept_once_checked(tmp_path: Path) -> None:
    """What a child is compared with (its parents' own problems) goes with the rules folder read:
    a process that checks many folders (an import of many games, this suite) keeps none of them."""
    write_tree(tmp_path / "rules", {"mymod/game.yaml": HEAD + "units:\n  fighter: {isSea: true}\n"})
    rules = Rules(tmp_path / "rules", "rules")
    _, problems = check_variant(rules, "mymod")
    # The fighter made a sea unit is said at the child's line, not at lhtr's isAir.
    assert [p.mark.file for p in problems if p.mark is not None] == ["rules/mymod/game.yaml"]
    read = weakref.ref(rules)
    del rules, problems
    gc.collect()
    assert read() is None


def test_a_name_misspelt_in_an_option_is_one_message_wherever_it_stands(tmp_path: Path) -> None:
    """A territory, unit or player misspelt inside an option value is said alike, at its own list
    element, before or after an optional count, in a repeated option or a `{value, count}`: never
    as a count that is not a number."""
    trigger = "players.Germans.attachments.triggerAttachmentReinforce"
    errors = _validate(
        tmp_path,
        HEAD
        + "players:\n  Germans:\n    attachments:\n"
        + "      conditionAttachmentAtWar:\n        atWarPlayers: [1, Rusians]\n"
        + "      triggerAttachmentReinforce:\n"
        + "        placement:\n"
        + "          - [Rusia, infantry]\n"
        + "          - [1, Rusia, infantry]\n"
        + "          - {value: [Rusia, infantry], count: 2}\n"
        + "        removeUnits: [[Rusia, infantry]]\n"
        + "        purchase: [[2, infantri]]\n",
    )
    russia = "unknown territory 'Rusia' (did you mean 'Russia'?)"
    assert errors == [
        "rules/mymod/game.yaml:7:27: players.Germans.attachments.conditionAttachmentAtWar.atWarPlayers[1]: "
        "unknown player 'Rusians' (did you mean 'Russians'?)",
        f"rules/mymod/game.yaml:10:14: {trigger}.placement[0][0]: {russia}",
        f"rules/mymod/game.yaml:11:17: {trigger}.placement[1][1]: {russia}",
        f"rules/mymod/game.yaml:12:22: {trigger}.placement[2].value[0]: {russia}",
        f"rules/mymod/game.yaml:13:24: {trigger}.removeUnits[0][0]: {russia}",
        f"rules/mymod/game.yaml:14:24: {trigger}.purchase[0][1]: unknown unit 'infantri' (did you mean 'infantry'?)",
        "6 errors found.",
    ]


def test_a_name_misspelt_in_an_option_written_as_text_is_said_at_its_field(tmp_path: Path) -> None:
    """Written as one text, the value has no element to point at: its field is named, the message is the same."""
    errors = _validate(
        tmp_path,
        HEAD + "players:\n  Germans:\n    attachments:\n      triggerAttachmentReinforce:\n"
        "        placement: 'Rusia:infantry'\n",
    )
    assert errors == [
        "rules/mymod/game.yaml:7:9: players.Germans.attachments.triggerAttachmentReinforce.placement: field 1 'Rusia': "
        "unknown territory 'Rusia' (did you mean 'Russia'?)",
        "1 error found.",
    ]
