"""Property test: whatever a user writes, the CLI answers with output or located errors, never a traceback.

Hypothesis mutates the valid `tiny` spec (wrong types, unknown keys, dangling references,
`extends` cycles, alias bombs, huge numbers, non-ASCII and XML-special characters in names, path
tricks, control characters and invalid bytes, nesting thousands of levels deep, numbers thousands
of digits long and YAML 1.1 forms) and runs the real `build` command in-process. For every example: exit code 0, 1 or 2;
no exception; on 0 the XML parses and passes the engine's DTD; on 1 every message is located
(`file:line:col:`) and nothing is written under output/.
"""

from __future__ import annotations

import re
import shutil
import tempfile
import traceback
from pathlib import Path
from typing import Any

import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lxml import etree

from generator.checks.dtd import check_xml_against_dtd
from generator.cli import cli
from tests.helpers import ENGINE_JAR, ROOT, examples

TINY = yaml.safe_load((ROOT / "tests" / "fixtures" / "tiny" / "game.yaml").read_text(encoding="utf-8"))
# A template too, so mutations reach variables and foreach.
TINY["variables"] = {"sides": ["Reds", "Blues"]}
TINY["attachment_templates"] = {
    "playerAttachment": {"foreach": "$sides$", "attach_to": "@sides@", "type": "player", "options": {"vps": 1}}
}
LOCATED = re.compile(r"^[^\s:][^:]*:\d+:\d+: ")
UNLOCATED_OK = ("no variant named", "map.yml")
NAMES = st.text(alphabet=st.sampled_from(list("abcXYZ _-.0129<>&\"'/\\:;ñé中🙂\t")), min_size=0, max_size=12)
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30), st.floats(allow_nan=False),
    NAMES,
)  # fmt: skip
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(NAMES, inner, max_size=3),
                      max_leaves=6)  # fmt: skip


def _dump(tree: Any) -> str:
    # LibYAML's emitter: the pure-Python one took a fifth of the test's time.
    return yaml.dump(tree, Dumper=yaml.CSafeDumper, allow_unicode=True, sort_keys=False)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += _paths(item, (*prefix, index))
    return out


def _set(tree: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    node = tree
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return tree


@st.composite
def mutated_spec(draw: st.DrawFn) -> tuple[str, dict[str, str | bytes]]:
    """(variant to build, {relative file: text}) for one broken-or-odd rules folder."""
    import copy

    tree = copy.deepcopy(TINY)
    kind = draw(
        st.sampled_from(["replace", "add_key", "rename", "cycle", "bomb", "raw", "path", "control", "deep", "huge"])
    )
    files: dict[str, str | bytes] = {}
    variant = "tiny"
    paths = _paths(tree)[1:]
    if kind == "replace":
        path = draw(st.sampled_from(paths))
        tree = _set(tree, path, draw(VALUES))
    elif kind == "add_key":
        path = draw(st.sampled_from([p for p in _paths(tree) if isinstance(_get(tree, p), dict)]))
        _get(tree, path)[draw(NAMES)] = draw(VALUES)
    elif kind == "rename":  # a name that may be odd, used consistently or not
        old = draw(st.sampled_from(["Alpha", "Reds", "infantry", "PUs", "standard", "purchase"]))
        new = draw(NAMES)
        text = _dump(tree)
        everywhere = draw(st.booleans())
        text = text.replace(old, new) if everywhere else text.replace(old, new, 1)
        files["tiny/game.yaml"] = text
    elif kind == "cycle":
        files["other/game.yaml"] = "extends: tiny\n"
        tree["extends"] = draw(st.sampled_from(["tiny", "other", "missing"]))
    elif kind == "bomb":
        depth = draw(st.integers(min_value=2, max_value=9))
        lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
        lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]" for i in range(1, depth)]
        files["tiny/bomb.yaml"] = "\n".join(lines) + "\n"
    elif kind == "raw":
        text = _dump(tree)
        cut = draw(st.integers(min_value=0, max_value=len(text)))
        files["tiny/game.yaml"] = (
            text[:cut]
            + draw(st.sampled_from(["{", "]", ": :", "\t", "!!python/name:os.system", "&a *a", "---\n"]))
            + text[cut:]
        )
    elif kind == "control":  # characters YAML forbids, a BOM mid-file, escapes of half characters, bad bytes
        data = _dump(tree).encode("utf-8")
        cut = draw(st.integers(min_value=0, max_value=len(data)))
        junk = draw(
            st.sampled_from(
                [b"\x00", b"\x01", b"\x1b", b"\x7f", "\ufeff".encode(), b'"\\ud800"', b"\xff", b"\xc3", b"\r"]
            )
        )
        files["tiny/game.yaml"] = data[:cut] + junk + data[cut:]
    elif kind == "deep":
        depth = draw(st.sampled_from([30, 63, 64, 65, 200, 600, 3_000, 40_000]))
        if draw(st.booleans()):
            nested = "[" * depth + "]" * depth
        else:
            nested = "\n" + "".join(" " * i + "-\n" for i in range(min(depth, 3_000)))
        path = draw(st.sampled_from(paths))
        text = _dump(_set(tree, path, "NESTED"))
        files["tiny/game.yaml"] = text.replace("NESTED", nested, 1)
    elif kind == "huge":
        path = draw(st.sampled_from(paths))
        digits = draw(st.integers(min_value=15, max_value=6_000))
        number = draw(
            st.sampled_from(
                ["9" * digits, "-" + "1" * digits, "0x" + "f" * digits, "1e999", "1:30", "0o17", "yes", ".inf"]
            )
        )
        text = _dump(_set(tree, path, "NUMBER"))
        files["tiny/game.yaml"] = text.replace("'NUMBER'", number, 1).replace("NUMBER", number, 1)
    else:
        variant = draw(st.sampled_from(["../tiny", "tiny/../tiny", "/etc", "..", "tiny\x00"]))
    files.setdefault("tiny/game.yaml", _dump(tree))
    return variant, files


def _get(tree: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        tree = tree[part]
    return tree


@settings(max_examples=examples(2000), deadline=None, suppress_health_check=list(HealthCheck))
@given(mutated_spec())
def test_cli_never_tracebacks(case: tuple[str, dict[str, str | bytes]]) -> None:
    variant, files = case
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp)
        for rel, text in files.items():
            path = project / "rules" / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
        runner = CliRunner()
        result = runner.invoke(cli, ["build", variant, "--rules", str(project / "rules"), "--output",
                                     str(project / "output")], catch_exceptions=True)  # fmt: skip
        assert result.exit_code in (0, 1, 2), (result.exit_code, result.output)
        if result.exception is not None and not isinstance(result.exception, SystemExit):
            raise AssertionError("".join(traceback.format_exception(*result.exc_info)))  # type: ignore[misc]
        assert "Traceback" not in result.output
        if result.exit_code == 0:
            for xml in (project / "output" / "games").glob("*.xml"):
                data = xml.read_bytes()
                etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
                if ENGINE_JAR.is_file():
                    assert check_xml_against_dtd(data, xml.name, ENGINE_JAR) == []
        else:
            assert not (project / "output").exists() or not any((project / "output").rglob("*.xml"))
        if result.exit_code == 1:
            lines = [line for line in result.output.splitlines() if line and not line.endswith("found.")]
            for line in lines:
                assert LOCATED.match(line) or line.startswith(UNLOCATED_OK) or "warning" in line, line
        shutil.rmtree(project, ignore_errors=True)
