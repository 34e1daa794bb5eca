"""Hostile and careless input, third round (issue 27): every bomb bounded, every number in the engine's
range, names on one line, problems located where the user wrote them.

Each case goes through the real CLI in a separate process and asserts the exact message.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from tests.conftest import TINY, run_cli, write_tree


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    return tmp_path


def _edit(project: Path, old: str, new: str) -> None:
    game = project / "rules" / "tiny" / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert old in text
    game.write_text(text.replace(old, new, 1), encoding="utf-8")


def _nested_variables(levels: int) -> list[tuple[str, list[str]]]:
    """v0 lists ten values, each later one lists the one before ten times: 10^(levels+1) values."""
    made = [("v0", list("abcdefghij"))]
    made += [(f"v{i}", [f"${'v'}{i - 1}$"] * 10) for i in range(1, levels + 1)]
    return made


# ------------------------------------------------------------------------ expansion bombs


def test_nested_variables_are_refused_at_the_line_before_they_expand(project: Path) -> None:
    lines = ["variables:"] + [f"  {name}: [{', '.join(values)}]" for name, values in _nested_variables(8)]
    (project / "rules" / "tiny" / "vars.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert (project / "rules" / "tiny" / "vars.yaml").stat().st_size < 1024
    started = time.monotonic()
    result = run_cli("build", cwd=project)
    assert time.monotonic() - started < 20  # was a MemoryError after 6-18 s
    assert result.code == 1
    assert result.err.splitlines() == [
        "rules/tiny/vars.yaml:6:7: variables.v4: would make 111,110 values here, more than the 100,000 that "
        "variables and templates may make in all (a variable that names another repeats its values): list fewer "
        "values",
        "1 error found.",
    ]
    assert not (project / "output").exists()


def test_a_foreach_of_every_pair_is_counted_before_it_is_made(project: Path) -> None:
    values = ", ".join(f"x{i}" for i in range(400))
    write_tree(project / "rules" / "tiny", {"vars.yaml": f"""
        variables:
          a: [{values}]
        attachment_templates:
          playerAttachment:
            foreach: $a$^$a$
            attach_to: Reds
            type: player
            options: {{vps: 1}}
        """})  # fmt: skip
    result = run_cli("validate", cwd=project)
    assert result.code == 1
    assert result.err.splitlines() == [
        "rules/tiny/vars.yaml:5:14: attachment_templates.playerAttachment.foreach: would make 160,400 values here, "
        "more than the 100,000 that variables and templates may make in all ('^' makes a round for every pair of "
        "values): list fewer values",
        "1 error found.",
    ]


def test_text_that_names_a_big_variable_many_times_is_refused_before_it_is_filled(project: Path) -> None:
    values = ", ".join("x" * 1000 for _ in range(1000))  # 1 MB of values, named 100 times: 100 MB
    write_tree(project / "rules" / "tiny", {"vars.yaml": f"""
        variables:
          a: [{values}]
        resources:
          PUs: {{attachments: {{resourceAttachment: {{class: ResourceAttachment, note: "{'$a$' * 100}"}}}}}}
        """})  # fmt: skip
    _edit(project, "resources:\n  PUs: {}\n", "")
    result = run_cli("validate", cwd=project)
    assert result.code == 1
    assert result.err.splitlines() == [
        "rules/tiny/vars.yaml:4:22: resources.PUs.attachments: would make 101,099,600 characters of text here, more "
        "than the 16,777,216 that variables and templates may make in all (each $name$ stands for all of its "
        "values): name fewer or smaller variables",
        "1 error found.",
    ]


def _xml_with_variables(project: Path) -> Path:
    """The tiny game as built, with a 2.x variable list of nested variables (as a 2.x map writes it)."""
    assert run_cli("build", cwd=project).code == 0
    xml = (project / "output" / "games" / "tiny.xml").read_text(encoding="utf-8")
    variables = "".join(
        f'  <variable name="{name}">{"".join(f"<element name={chr(34)}{v}{chr(34)}/>" for v in values)}</variable>\n'
        for name, values in _nested_variables(8)
    )
    at = xml.index("  <map>")
    path = project / "nested.xml"
    path.write_text(xml[:at] + f"  <variableList>\n{variables}  </variableList>\n" + xml[at:], encoding="utf-8")
    return path


def _line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


@pytest.mark.parametrize("command", [["validate", "--target", "2.x"], ["import", "--name", "nested"]])
def test_nested_variables_of_an_xml_are_refused_at_the_xml_line(project: Path, command: list[str]) -> None:
    path = _xml_with_variables(project)
    started = time.monotonic()
    result = run_cli(*command[:1], path.name, *command[1:], cwd=project)
    assert time.monotonic() - started < 20
    assert result.code == 1
    line = _line_of(path, '<variable name="v4">')
    assert (
        f"nested.xml:{line}:1: variables.v4: would make 111,110 values here, more than the 100,000 that variables "
        "and templates may make in all (a variable that names another repeats its values): list fewer values"
    ) in result.err.splitlines()
    assert not (project / "rules" / "nested").exists()
