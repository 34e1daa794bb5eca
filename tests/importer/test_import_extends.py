"""`import --extends` on every real map of the tests: never an internal error, the same game.

A child of lhtr inherits lhtr's steps where lhtr lists them, with lhtr's own moves, and its
attachments' options in lhtr's order: the imported order must be made by `after:`/`before:`
moves (importer/step_order.py), and the engine's reading of the result compared, not its text.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.cli import cli
from generator.importer.step_order import plays, step_moves
from generator.importer.variant_files import order_hints
from generator.spec.model import play_order
from tests.helpers import REFERENCE_XMLS, examples


def _name(path: Path) -> str:
    return "x_" + re.sub(r"[^a-z0-9_]", "_", path.stem.lower())


@pytest.fixture(scope="module")
def children(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("extends")
    runner = CliRunner()
    for xml in REFERENCE_XMLS:
        args = ["import", str(xml), "--name", _name(xml), "--extends", "lhtr", "--rules", str(root / "rules")]
        result = runner.invoke(cli, args)
        assert result.exit_code == 0 and "internal" not in result.output, (xml.name, result.output[-600:])
    args = ["build", "--target", "2.x", "--rules", str(root / "rules"), "--output", str(root / "output")]
    args += [_name(xml) for xml in REFERENCE_XMLS]
    result = runner.invoke(cli, args)
    assert result.exit_code == 0, result.output[-2000:]
    return root


@pytest.mark.slow
def test_every_real_map_imports_as_a_child_of_lhtr(children: Path) -> None:
    for xml in REFERENCE_XMLS:
        game = (children / "rules" / _name(xml) / "game.yaml").read_text(encoding="utf-8")
        assert "extends: lhtr" in game, xml.name


@pytest.mark.engine
def test_the_engine_reads_the_child_as_the_original(children: Path) -> None:
    from generator.engine.harness import dump

    ours = {xml: children / "output" / "games" / f"{_name(xml)}.xml" for xml in REFERENCE_XMLS}
    dumps = dump([p for xml in REFERENCE_XMLS for p in (xml, ours[xml])])
    compared = 0
    for xml in REFERENCE_XMLS:
        original, rebuilt = dumps[str(xml)], dumps[str(ours[xml])]
        if "error" in original:
            continue  # a 2.x-only game, which 1.9 cannot read
        compared += 1
        differing = sorted(
            k for k in set(original) | set(rebuilt) if _unordered(original.get(k), k) != _unordered(rebuilt.get(k), k)
        )
        # otherAttachments: duplicates the engine and the importer both drop (test_roundtrip says so)
        assert differing in ([], ["otherAttachments"]), (xml.name, differing)
    assert compared >= 17


# A child lists the players (and so their alliances and relationships) in its parent's order: a
# merge cannot reorder inherited keys. What each holds must be the same.
_PLAYER_ORDER = ("players", "alliances", "relationships")


def _unordered(value: Any, key: str) -> Any:
    return _deep_sorted(value) if key in _PLAYER_ORDER else value


def _deep_sorted(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _deep_sorted(v) for k, v in value.items()}
    if isinstance(value, list):
        return sorted((_deep_sorted(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    return value


_STEPS = [f"s{i}" for i in range(7)]


@st.composite
def _orders(draw: Any) -> tuple[dict[str, Any], list[str]]:
    parent_names = draw(st.permutations(_STEPS))[: draw(st.integers(1, len(_STEPS)))]
    parent: dict[str, Any] = {}
    for name in parent_names:
        step: dict[str, Any] = {"delegate": "d"}
        kind = draw(st.sampled_from(["", "after", "before"]))
        if kind:
            step[kind] = draw(st.sampled_from(parent_names))
        parent[name] = step
    child = draw(st.permutations(_STEPS))[: draw(st.integers(1, len(_STEPS)))]
    return parent, list(child)


@settings(max_examples=examples(300), deadline=None)
@given(_orders())
def test_the_moves_written_make_the_imported_order(case: tuple[dict[str, Any], list[str]]) -> None:
    parent, child = case
    parent_order = play_order([(n, s.get("after"), s.get("before")) for n, s in parent.items()])
    moves = step_moves(parent, child, order_hints(parent_order, child))
    assert plays(parent, child, moves) == child
