"""`validate FILE.xml` without --target judges the game for the engine the file says it is for.

A map made for current TripleA may lack what only 1.9 needs (A_Song_of_Ice_and_Fire has no
`<loader>`) or carry what only 1.9 refuses (crazygs_ww1 gives a land unit a transportCapacity):
2.7 loads both. The games here are the official LHTR game with that one change.
"""

from __future__ import annotations

from pathlib import Path

from tests.helpers import ROOT, run_cli

LHTR = ROOT / "tests" / "data" / "xml" / "lhtr.xml"
LOADER = '  <loader javaClass="games.strategy.triplea.TripleA"/>\n'


def _lhtr(tmp_path: Path, change: str) -> Path:
    text = LHTR.read_text(encoding="utf-8")
    if change == "no loader":
        assert LOADER in text
        text = text.replace(LOADER, "")
    else:  # a transport capacity on infantry: 1.9's UnitAttachment.validate refuses it, 2.x does not
        at = '<attachment name="unitAttachment" attachTo="infantry" '
        head, tail = text.split(at, 1)
        first, rest = tail.split("\n", 1)
        text = head + at + first + '\n      <option name="transportCapacity" value="2"/>\n' + rest
    path = tmp_path / "game.xml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_game_without_a_loader_is_judged_for_2x(tmp_path: Path) -> None:
    _lhtr(tmp_path, "no loader")
    result = run_cli("validate", "game.xml", cwd=tmp_path)
    assert result.code == 0, result.err
    assert result.err.splitlines()[0] == (
        "game.xml:1:1: warning: checked for TripleA 2.x alone: it has no <loader>, which 1.9 needs and 2.x does without"
    )
    assert "DTD" not in result.err  # 1.9's DTD wants the loader: not the engine judged for
    forced = run_cli("validate", "--target", "portable", "game.xml", cwd=tmp_path)
    assert forced.code == 1 and "DTD: Element game content does not follow the DTD" in forced.err


def test_a_refusal_only_19_makes_is_a_note_when_the_file_does_not_say(tmp_path: Path) -> None:
    _lhtr(tmp_path, "land transport")
    result = run_cli("validate", "game.xml", cwd=tmp_path)
    assert result.code == 0, result.err
    lines = result.err.splitlines()
    assert lines[0] == (
        "game.xml:1:1: warning: checked for TripleA 1.9 and 2.x: nothing in it says which; what only 1.9 refuses is "
        "a note"
    )
    assert lines[1].startswith("game.xml:") and lines[1].endswith(
        ": warning: units.infantry.transportCapacity: transportCapacity is refused on a land unit (neither isAir nor "
        'isSea); TripleA 1.9 refuses the game: "land units cannot have certain properties" (UnitAttachment.validate) '
        "(a note: only 1.9 says this; give --target 1.9 or portable to make it an error)"
    )
    assert run_cli("validate", "--target", "1.9", "game.xml", cwd=tmp_path).code == 1
    assert run_cli("validate", "--target", "2.x", "game.xml", cwd=tmp_path).code == 0
