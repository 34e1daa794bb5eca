"""Every variant's game, as the engine holds it, against its golden: a change of the game is deliberate.

For a game TripleA 1.9 parses, the golden is the engine's own dump (generator/engine/java/GameDump.java:
every player, territory, unit option, attachment, rule, step and property it holds). A game made for
2.x only is compared as its canonical XML (attachments in name order: their order is no meaning to
the engine; placements one unit an option; everything else as written). Rewriting how a rule is
written (a pattern instead of hand-written triggers) must leave these equal; a change of the rules updates them with
`pytest --update-goldens` and shows in review. Goldens are compact JSON, gzipped (tests/goldens/games/).
"""

from __future__ import annotations

import difflib
import gzip
import json
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from generator.engine.harness import dump
from generator.safe_xml import safe_parser
from generator.spec.resolve import Rules
from tests.helpers import ROOT

GOLDENS = ROOT / "tests" / "goldens" / "games"
GAMES = ROOT / "output" / "games"
VARIANTS = Rules(ROOT / "rules").variants()
SHOWN = 20  # differing paths shown on a failure


def _only_2x(variant: str) -> bool:
    return b"<triplea minimumVersion" in (GAMES / f"{variant}.xml").read_bytes()


def canonical_xml(path: Path) -> dict[str, Any]:
    """A 2.x-only game as data: the XML with its attachments sorted by owner, type and name."""
    root = etree.parse(str(path), safe_parser()).getroot()
    for listing in root.iter("attachmentList"):
        attachments = sorted(
            listing.findall("attachment"), key=lambda a: (a.get("attachTo"), a.get("type"), a.get("name"))
        )
        for attachment in attachments:
            # Repeated options keep their relative order (the engine adds them up in that order).
            options = sorted(_per_unit(attachment.findall("option")), key=lambda o: o.get("name") or "")
            attachment[:] = options
        listing[:] = attachments
    etree.indent(root)  # one element a line: a difference reads as the lines that differ
    return {"xml": etree.tostring(root, method="c14n2").decode("utf-8").splitlines()}


def _per_unit(options: list[Any]) -> list[Any]:
    """Placements one unit an option: the engine adds a territory's units up over the options (the
    1.9 dump shows "T:factory:infantry" and "T:factory", "T:infantry" alike), so a pattern may write
    either."""
    out = []
    for option in options:
        territory, *units = (option.get("value") or "").split(":")
        if option.get("name") != "placement" or len(units) < 2:
            out.append(option)
            continue
        for unit in units:
            single = etree.Element("option", name="placement", value=f"{territory}:{unit}")
            if option.get("count") is not None:
                single.set("count", option.get("count"))
            out.append(single)
    return out


@pytest.fixture(scope="module")
def games() -> dict[str, dict[str, Any]]:
    parsed = [v for v in VARIANTS if not _only_2x(v)]
    dumps = dump([GAMES / f"{v}.xml" for v in parsed])
    found = {v: {k: w for k, w in dumps[str(GAMES / f"{v}.xml")].items() if k != "saxErrors"} for v in parsed}
    found.update({v: canonical_xml(GAMES / f"{v}.xml") for v in VARIANTS if _only_2x(v)})
    return found


def _differences(expected: Any, actual: Any, path: str = "") -> list[str]:
    if isinstance(expected, dict) and isinstance(actual, dict):
        out: list[str] = []
        for key in sorted(set(expected) | set(actual)):
            out += _differences(expected.get(key), actual.get(key), f"{path}/{key}")
        return out
    if isinstance(expected, list) and isinstance(actual, list) and all(isinstance(x, str) for x in expected + actual):
        lines = difflib.unified_diff(expected, actual, lineterm="", n=0)
        return [f"{path}: {line}" for line in lines if not line.startswith(("---", "+++", "@@"))]
    if isinstance(expected, list) and isinstance(actual, list) and len(expected) == len(actual):
        return [
            d for i, (e, a) in enumerate(zip(expected, actual, strict=True)) for d in _differences(e, a, f"{path}[{i}]")
        ]
    return [] if expected == actual else [f"{path}: {json.dumps(expected)[:160]} -> {json.dumps(actual)[:160]}"]


@pytest.mark.engine
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_game_is_its_golden(variant: str, games: dict[str, dict[str, Any]], update_goldens: bool) -> None:
    golden = GOLDENS / f"{variant}.json.gz"
    actual = games[variant]
    assert "error" not in actual, actual.get("error")
    if update_goldens or not golden.is_file():
        GOLDENS.mkdir(parents=True, exist_ok=True)
        text = json.dumps(actual, sort_keys=True, separators=(",", ":")).encode("utf-8")
        golden.write_bytes(gzip.compress(text, compresslevel=9, mtime=0))
        if not update_goldens:
            pytest.fail(f"{golden.relative_to(ROOT)} was missing: written, check it in")
    expected = json.loads(gzip.decompress(golden.read_bytes()))
    differing = _differences(expected, actual)
    more = f"\n... and {len(differing) - SHOWN} more" if len(differing) > SHOWN else ""
    assert not differing, (
        f"{variant} differs from its golden (pytest --update-goldens if meant):\n" + "\n".join(differing[:SHOWN]) + more
    )
