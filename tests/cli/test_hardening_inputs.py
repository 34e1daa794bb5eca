"""Hostile and careless input, third round (issue 27): every bomb bounded, every number in the engine's
range, names on one line, problems located where the user wrote them.

Each case goes through the real CLI on real files (`run_cli`, in this process, as tests/helpers.py
says) and asserts the exact message.
"""

from __future__ import annotations

import copy
import itertools
import re
import shutil
import tempfile
import time
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import pytest
import yaml
from annotated_types import Ge, Le
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from generator.catalog import load_catalog
from generator.cli import cli
from generator.diagnostics import key_path
from generator.spec.model import Spec
from generator.spec.numbers import JAVA_INT_MAX, JAVA_INT_MIN, out_of_range
from tests.helpers import TINY, examples, run_cli, write_tree


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
        "rules/tiny/vars.yaml:7:7: variables.v5: would make 1,111,110 values here, more than the 500,000 that "
        "variables and templates may make in all (a variable that names another repeats its values): list fewer "
        "values",
        "1 error found.",
    ]
    assert not (project / "output").exists()


def test_a_foreach_of_every_pair_is_counted_before_it_is_made(project: Path) -> None:
    values = ", ".join(f"x{i}" for i in range(800))
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
        "rules/tiny/vars.yaml:5:14: attachment_templates.playerAttachment.foreach: would make 640,800 values here, "
        "more than the 500,000 that variables and templates may make in all ('^' makes a round for every pair of "
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
    line = _line_of(path, '<variable name="v5">')
    assert (
        f"nested.xml:{line}:1: variables.v5: would make 1,111,110 values here, more than the 500,000 that variables "
        "and templates may make in all (a variable that names another repeats its values): list fewer values"
    ) in result.err.splitlines()
    assert not (project / "rules" / "nested").exists()


# ------------------------------------------------------------------------ numbers the engine reads


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "resources: {PUs: 10}}\n  Blues",
            "resources: {PUs: -5}}\n  Blues",
            "rules/tiny/game.yaml:6:77: players.Reds.resources.PUs: -5 is negative; a count, cost or amount is 0 or "
            "more",
        ),
        (
            "infantry: 2}}\n  Beta",
            "infantry: 3000000000}}\n  Beta",
            "rules/tiny/game.yaml:16:30: territories.Alpha.units.Reds.infantry: 3000000000 is more than TripleA can "
            "read (its whole numbers go up to 2147483647); write a smaller one",
        ),
        (
            "cost: {PUs: 3}",
            "cost: {PUs: 2147483648}",
            "rules/tiny/game.yaml:24:29: production_rules.buyInfantry.cost.PUs: 2147483648 is more than TripleA can "
            "read (its whole numbers go up to 2147483647); write a smaller one",
        ),
        (
            "result: {infantry: 1}",
            "result: {infantry: 9999999999}",
            "rules/tiny/game.yaml:24:52: production_rules.buyInfantry.result.infantry: 9999999999 is more than "
            "TripleA can read (its whole numbers go up to 2147483647); write a smaller one",
        ),
        (
            "production: 2\n    capital: Reds",
            "production: -2\n    capital: Reds",
            "rules/tiny/game.yaml:13:17: territories.Alpha.production: production must not be negative (the engine "
            "accepts it silently)",
        ),
        (
            "production: 2\n    capital: Reds",
            "production: 3000000000\n    capital: Reds",
            "rules/tiny/game.yaml:13:5: territories.Alpha.production: '3000000000' is not an integer the engine can "
            "read (from -2147483648 to 2147483647)",
        ),
        (
            "Low Luck: {value: false, editable: true}",
            "Low Luck: {value: false, editable: true}\n  Rounds: {value: 3000000000, editable: true}",
            "rules/tiny/game.yaml:52:19: properties.Rounds.value: 3000000000 is more than TripleA can read (its whole "
            "numbers go up to 2147483647); write a smaller one",
        ),
    ],
)
def test_numbers_outside_what_the_engine_reads_are_refused_at_the_line(
    project: Path, old: str, new: str, message: str
) -> None:
    _edit(project, old, new)
    result = run_cli("build", cwd=project)
    assert result.code == 1
    assert result.err.splitlines() == [message, "1 error found."]
    assert not (project / "output").exists()


def test_the_largest_numbers_the_engine_reads_still_build(project: Path) -> None:
    _edit(project, "resources: {PUs: 10}}\n  Blues", "resources: {PUs: 2147483647}}\n  Blues")
    _edit(project, "infantry: 2}}\n  Beta", "infantry: 0}}\n  Beta")
    result = run_cli("build", cwd=project)
    assert result.code == 0, result.err
    assert '<resourceGiven player="Reds" resource="PUs" quantity="2147483647"/>' in (
        project / "output" / "games" / "tiny.xml"
    ).read_text(encoding="utf-8")


# Whole numbers of the model that the engine never reads as a Java int, each with the reason; every
# other int field of the model must be bounded within the engine's range (found from the model).
NOT_READ_AS_INT: dict[tuple[Any, ...], str] = {
    ("sequence", "*", "properties", "*"): "a step property is text to the engine",
    ("sequence", "*", "properties", "*", 0): "a step property is text to the engine",
    ("properties", "*"): "a fixed property beyond an int is text to the engine (an editable one: checks.properties)",
    ("properties", "*", "value"): "as above: the engine reads it as a number only when it is editable",
    ("map_files", "*", "*"): "a line of one of the map's .properties files, not of the game",
    ("variables", "*", 0): "a variable's values are text, filled into other values",
    ("rule_ledger",): "facts of the engine's dump that a proof compares; never written into a game",
}


def _int_fields(
    annotation: Any, metadata: list[Any], path: tuple[Any, ...]
) -> Iterator[tuple[tuple[Any, ...], list[Any]]]:
    """(path with '*' for any name and 0 for any item, bounds) of every whole number of the model."""
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        base, *extra = typing.get_args(annotation)
        bounds = [item for one in extra for item in (one.metadata if isinstance(one, FieldInfo) else [one])]
        yield from _int_fields(base, [*metadata, *bounds], path)
    elif annotation is int:
        yield path, metadata
    elif origin in (typing.Union, types.UnionType):
        for member in typing.get_args(annotation):
            yield from _int_fields(member, metadata, path)
    elif origin is dict:
        yield from _int_fields(typing.get_args(annotation)[1], [], (*path, "*"))
    elif origin is list:
        yield from _int_fields(typing.get_args(annotation)[0], [], (*path, 0))
    elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
        for name, field in annotation.model_fields.items():
            yield from _int_fields(field.annotation, list(field.metadata), (*path, field.alias or name))


def _bounds(metadata: list[Any]) -> tuple[int, int]:
    lows = [m.ge for m in metadata if isinstance(m, Ge)]
    highs = [m.le for m in metadata if isinstance(m, Le)]
    assert len(lows) == 1 and len(highs) == 1, metadata  # pydantic keeps the last of two: say each once
    return int(lows[0]), int(highs[0])


ENGINE_INT_FIELDS = [
    (path, _bounds(metadata))
    for path, metadata in _int_fields(Spec, [], ())
    if not any(path[: len(skip)] == skip for skip in NOT_READ_AS_INT)
]


def test_every_whole_number_of_the_model_is_bounded_within_the_engines_range() -> None:
    found = {path for path, _ in _int_fields(Spec, [], ())}
    assert {path for path, _ in ENGINE_INT_FIELDS} | {
        p for p in found if any(p[: len(s)] == s for s in NOT_READ_AS_INT)
    } == found
    for path, (low, high) in ENGINE_INT_FIELDS:
        assert low >= JAVA_INT_MIN and high <= JAVA_INT_MAX, path
    # what the issue names, found among them
    assert ("players", "*", "resources", "*") in dict(ENGINE_INT_FIELDS)
    assert dict(ENGINE_INT_FIELDS)[("players", "*", "resources", "*")] == (0, JAVA_INT_MAX)


TINY_TREE = yaml.safe_load((TINY / "game.yaml").read_text(encoding="utf-8"))
LOCATED = re.compile(r"\S*tiny/game\.yaml:\d+:\d+: (.*)")
EDGES = [JAVA_INT_MIN - 1, JAVA_INT_MIN, -1, 0, 1, JAVA_INT_MAX, JAVA_INT_MAX + 1]
NUMBERS = st.one_of(st.sampled_from(EDGES), st.integers(min_value=-(2**40), max_value=2**40))


def _place(tree: dict[str, Any], path: tuple[Any, ...], value: int) -> tuple[Any, ...]:
    """Write `value` at `path` in `tree` ('*' becomes a name of its own); returns the concrete path."""
    concrete = tuple("x" if part == "*" else part for part in path)
    node: Any = tree
    for part, after in itertools.pairwise(concrete):
        empty: Any = [] if isinstance(after, int) else {}
        if isinstance(node, list):
            while len(node) <= part:
                node.append(empty)
        elif not isinstance(node.get(part), dict | list):
            node[part] = empty
        node = node[part]
    if isinstance(node, list):
        node.append(value)
    else:
        node[concrete[-1]] = value
    return concrete


@settings(max_examples=examples(400), deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(ENGINE_INT_FIELDS), NUMBERS)
def test_every_whole_number_is_checked_against_the_engines_range(
    field: tuple[tuple[Any, ...], tuple[int, int]], value: int
) -> None:
    path, (low, high) = field
    tree = copy.deepcopy(TINY_TREE)
    where = key_path(_place(tree, path, value))
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "tiny").mkdir()
        (Path(tmp) / "tiny" / "game.yaml").write_text(yaml.safe_dump(tree, sort_keys=False), encoding="utf-8")
        result = CliRunner().invoke(cli, ["validate", "tiny", "--rules", tmp])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    said = [found.group(1) for line in result.output.splitlines() if (found := LOCATED.match(line))]
    if value > high:
        assert f"{where}: {out_of_range(value, {'le': high})}" in said, (result.output, where)
    elif value < low:
        assert f"{where}: {out_of_range(value, {'ge': low})}" in said, (result.output, where)
    else:
        ranges = {f"{where}: {out_of_range(value, bound)}" for bound in ({"le": high}, {"ge": low})}
        assert not ranges & set(said), result.output


def _int_options(java_class: str) -> list[str]:
    """Options of a main attachment that both engines' catalogs read as one whole number."""
    both = [load_catalog(engine)["attachments"][java_class]["options"] for engine in ("1.9", "2.x")]
    return sorted(
        name for name, spec in both[0].items() if spec["type"] == "int" and both[1].get(name, {}).get("type") == "int"
    )


INT_OPTIONS = [("territories", "Alpha", name) for name in _int_options("TerritoryAttachment")] + [
    ("units", "infantry", name) for name in _int_options("UnitAttachment")
]


@settings(max_examples=examples(200), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    st.sampled_from(INT_OPTIONS),
    st.integers(min_value=JAVA_INT_MAX + 1, max_value=2**62)
    | st.integers(max_value=JAVA_INT_MIN - 1, min_value=-(2**62)),
)
def test_every_whole_number_option_is_checked_against_the_engines_range(path: tuple[str, str, str], value: int) -> None:
    assert ("territories", "Alpha", "production") in INT_OPTIONS
    tree = copy.deepcopy(TINY_TREE)
    tree[path[0]][path[1]][path[2]] = value
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "tiny").mkdir()
        (Path(tmp) / "tiny" / "game.yaml").write_text(yaml.safe_dump(tree, sort_keys=False), encoding="utf-8")
        result = CliRunner().invoke(cli, ["validate", "tiny", "--rules", tmp])
    said = [found.group(1) for line in result.output.splitlines() if (found := LOCATED.match(line))]
    message = f"'{value}' is not an integer the engine can read (from {JAVA_INT_MIN} to {JAVA_INT_MAX})"
    assert any(line.startswith(f"{key_path(path)}: {message}") for line in said), result.output  # (syntax: ...)


# ------------------------------------------------------------------------ long texts


@pytest.mark.slow
@pytest.mark.parametrize(
    ("old", "new"),
    [
        (  # an 11 MB property value
            "Low Luck: {value: false, editable: true}",
            "Low Luck: {value: false, editable: true}\n  Motto: {value: " + "x" * 11_000_000 + "}",
        ),
        ("<p>Two armies, one border.</p>", "<p>" + ("x" * 99 + "\n  ") * 300_000 + "</p>"),  # 30 MB of notes
    ],
    ids=["property_value", "notes"],
)
def test_long_texts_are_built_and_validated_as_the_engine_reads_them(project: Path, old: str, new: str) -> None:
    """Engine 1.9 reads both (measured with `python -m generator.engine dump`): no error, and none in a file
    never written (was `games/tiny.xml:93:10003503: ... try XML_PARSE_HUGE`)."""
    _edit(project, old, new)
    built = run_cli("build", cwd=project)
    assert built.code == 0, built.err
    assert "games/tiny.xml:" not in built.err
    checked = run_cli("validate", "output/games/tiny.xml", cwd=project)
    assert checked.code == 0, checked.err
    assert "no errors" in checked.out


def test_an_xml_nested_beyond_any_game_is_refused_in_our_words(tmp_path: Path) -> None:
    (tmp_path / "deep.xml").write_text("<game>" + "<a>" * 3000 + "</a>" * 3000 + "</game>", encoding="utf-8")
    result = run_cli("validate", "deep.xml", cwd=tmp_path)
    assert result.code == 1
    assert result.err.splitlines() == [
        "deep.xml:1:6149: XML nests deeper or holds a longer text than any game (more than 2048 levels, or 1 GB); "
        "not read further",
        "1 error found.",
    ]


# ------------------------------------------------------------------------ names


def test_a_game_name_of_two_lines_is_refused_before_map_yml_and_the_xml_disagree(project: Path) -> None:
    _edit(project, "name: Tiny War", 'name: "Tiny\\nWar\\u0085x"')
    result = run_cli("build", cwd=project)
    assert result.code == 1
    assert result.err.splitlines() == [
        "rules/tiny/game.yaml:2:14: game.name: 'Tiny\\nWar\\x85x' holds a line break: a name is one line of "
        "printable text; remove it",
        "1 error found.",
    ]
    assert not (project / "output").exists()


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "  Beta:\n    owner: Blues",
            '  "Be\\nta":\n    owner: Blues',
            "rules/tiny/game.yaml:17:3: territories.Be\\nta: 'Be\\nta' holds a line break: a name is one line of "
            "printable text; remove it",
        ),
        (
            "infantry: {movement: 1",
            '"infan\\u2028try": {movement: 1',
            "rules/tiny/game.yaml:9:3: units.infan\\u2028try: 'infan\\u2028try' holds a line separator (U+2028): a "
            "name is one line of printable text; remove it",
        ),
        (
            "alliances: [East]",
            'alliances: ["Ea\\u2029st"]',
            "rules/tiny/game.yaml:6:22: players.Reds.alliances[0]: 'Ea\\u2029st' holds a paragraph separator "
            "(U+2029): a name is one line of printable text; remove it",
        ),
        (
            "display: Combat}",
            'display: "Com\\x07bat"}',
            "rules/tiny/game.yaml:31:44: delegates.battle.display: 'Com\\x07bat' holds a control character "
            "(U+0007): a name is one line of printable text; remove it",
        ),
        (
            "PUs: {}",
            '"P\\u202eUs": {}',
            "rules/tiny/game.yaml:4:3: resources.P\\u202eUs: 'P\\u202eUs' holds an invisible character (U+202E): a "
            "name is one line of printable text; remove it",
        ),
    ],
    ids=["territory", "unit", "alliance", "display", "resource"],
)
def test_names_are_one_line_of_printable_text(project: Path, old: str, new: str, message: str) -> None:
    _edit(project, old, new)
    result = run_cli("validate", cwd=project)
    assert result.code == 1
    assert message in result.err.splitlines()
    assert all(line.startswith(("rules/", "triplea-forge/")) for line in result.err.splitlines()[:-1]), result.err


def test_a_name_of_two_lines_in_a_game_xml_is_refused_at_its_line(project: Path) -> None:
    assert run_cli("build", cwd=project).code == 0
    xml = (project / "output" / "games" / "tiny.xml").read_text(encoding="utf-8")
    (project / "two_lines.xml").write_text(xml.replace('"Tiny War"', '"Tiny&#10;War"'), encoding="utf-8")
    result = run_cli("validate", "two_lines.xml", cwd=project)
    assert result.code == 1
    assert result.err.splitlines() == [
        "two_lines.xml:5:1: game.name: 'Tiny\\nWar' holds a line break: a name is one line of printable text; "
        "remove it",
        "1 error found.",
    ]


# ------------------------------------------------------------------------ duplicate properties

# As two real maps write it: the option first, then the same name as a constant.
TWICE = (
    '    <property name="Total Victory" value="true" editable="true">\n      <boolean/>\n    </property>\n'
    '    <property name="Total Victory" value="false" editable="false"/>\n'
    '    <property name="Motto" value="one" editable="false"/>\n'
    '    <property name="Motto" value="two" editable="false"/>\n'
)


def _xml_with_properties_twice(project: Path) -> Path:
    assert run_cli("build", cwd=project).code == 0
    xml = (project / "output" / "games" / "tiny.xml").read_text(encoding="utf-8")
    path = project / "twice.xml"
    path.write_text(xml.replace("  </propertyList>", TWICE + "  </propertyList>"), encoding="utf-8")
    return path


def _warnings(path: Path) -> list[str]:
    """What both import and validate say of the properties defined twice: the constant kept beside
    the option is no news (the spec keeps it too), a constant replaced by a later one is."""
    last = _line_of(path, 'name="Motto" value="two"')
    return [
        f"twice.xml:{last - 1}:1: warning: property 'Motto' is defined again at line {last}; the engine keeps that "
        "one (the last one counts) and drops this one, so import leaves it out",
    ]


def test_a_property_defined_twice_is_imported_as_the_engine_reads_it(project: Path) -> None:
    path = _xml_with_properties_twice(project)
    result = run_cli("import", path.name, "--name", "twice", cwd=project)
    assert result.code == 0, result.err
    assert [line for line in result.err.splitlines() if "warning: property" in line] == _warnings(path)
    game = yaml.safe_load((project / "rules" / "twice" / "game.yaml").read_text(encoding="utf-8"))
    # players keep the option, and the engine the constant beside it: text, as it has no <boolean/>
    assert game["properties"]["Total Victory"] == {"value": True, "editable": True, "constant": "false"}
    assert game["properties"]["Motto"] == "two"


def test_validate_warns_of_a_property_defined_twice(project: Path) -> None:
    path = _xml_with_properties_twice(project)
    result = run_cli("validate", path.name, cwd=project)
    assert result.code == 0, result.err
    assert [line for line in result.err.splitlines() if "warning: property" in line] == _warnings(path)


# ------------------------------------------------------------------------ a child's mistakes, at its lines


def test_a_childs_mistake_in_what_it_inherits_is_said_at_the_childs_line(tmp_path: Path) -> None:
    write_tree(tmp_path, {"rules/kid/game.yaml": """
        extends: lhtr
        game: {name: Kid}
        units:
          fighter: {isSea: true}
        """})  # fmt: skip
    result = run_cli("validate", "kid", cwd=tmp_path)
    assert result.code == 1
    # Said at the child's isSea, not at the parent's isAir; the sea-unit-on-land warnings at every
    # territory the fighter starts in are the error's echoes and say nothing more.
    assert [line for line in result.err.splitlines() if line.startswith("rules/")] == [
        "rules/kid/game.yaml:4:13: units.fighter.isSea: isSea is refused on an air unit (isAir: true); leave it "
        'out or make the unit a land or sea unit; TripleA 1.9 and 2.x refuse the game: "air units cannot have '
        'certain properties" (UnitAttachment.validate)'
    ]
    assert not any("rules/revised/units.yaml:6:49: " in line for line in result.err.splitlines())


def test_what_a_child_changes_elsewhere_is_named_on_the_path_and_the_parents_own_problems_stay(
    project: Path,
) -> None:
    _edit(
        project, "  Low Luck: {value: false, editable: true}", "  Low Luck: {value: false, editable: true}\n  Motto: x"
    )
    write_tree(project / "rules", {"kid/game.yaml": """
        extends: tiny
        game: {name: Kid}
        units:
          infantry: {isSea: true}
        """})  # fmt: skip
    result = run_cli("validate", "kid", cwd=project)
    assert result.code == 0, result.err
    assert result.err.splitlines() == [
        "rules/kid/game.yaml:4:21: warning: units.infantry.isSea: infantry is a sea unit placed on land (the "
        "inherited territories.Alpha.units.Reds.infantry is at rules/tiny/game.yaml:16:30)",
        "rules/kid/game.yaml:4:21: warning: units.infantry.isSea: infantry is a sea unit placed on land (the "
        "inherited territories.Beta.units.Blues.infantry is at rules/tiny/game.yaml:22:31)",
        # the parent's own: said where the parent wrote it, as when the parent is checked
        "rules/tiny/game.yaml:52:3: warning: properties.Motto: no engine reads 'Motto' and no condition asks about "
        "it, so it does nothing",
    ]


def test_numbers_of_a_game_xml_are_checked_at_its_lines(project: Path) -> None:
    assert run_cli("build", cwd=project).code == 0
    xml = (project / "output" / "games" / "tiny.xml").read_text(encoding="utf-8")
    given = '<resourceGiven player="Reds" resource="PUs" quantity="10"/>'
    assert given in xml
    path = project / "negative.xml"
    path.write_text(xml.replace(given, given.replace('"10"', '"-5"')), encoding="utf-8")
    result = run_cli("validate", path.name, cwd=project)
    assert result.code == 1
    line = _line_of(path, 'quantity="-5"')
    assert result.err.splitlines() == [
        f"negative.xml:{line}:1: players.Reds.resources.PUs: -5 is negative; a count, cost or amount is 0 or more",
        "1 error found.",
    ]
