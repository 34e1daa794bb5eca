"""The engine harness in dump mode, against the real TripleA 1.9 jar."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from generator.engine import harness as eng
from generator.engine.__main__ import main as engine_main
from tests.helpers import OFFICIAL_GAMES

LHTR = OFFICIAL_GAMES / "lhtr.xml"
WW2V2 = OFFICIAL_GAMES / "ww2v2.xml"


@pytest.fixture(scope="module")
def engine() -> eng.Engine:
    return eng.find_engine()  # only engine-marked tests use it: they are skipped when it is not installed


@pytest.fixture(scope="module")
def lhtr(engine: eng.Engine) -> dict[str, Any]:
    return engine.dump([LHTR])[str(LHTR)]


@pytest.mark.engine
def test_dump_is_byte_identical_across_jvms(engine: eng.Engine) -> None:
    first = engine.run(["dump", str(LHTR)])
    second = engine.run(["dump", str(LHTR)])
    assert first.returncode == 0, first.stderr
    assert first.stdout == second.stdout
    assert first.stdout.count("\n") == 1  # one JSON line per file


@pytest.mark.engine
def test_lhtr_facts(lhtr: dict[str, Any]) -> None:
    assert "error" not in lhtr
    assert lhtr["saxErrors"] == []
    assert lhtr["game"]["name"] == "World War II Revised LHTR"
    assert lhtr["game"]["diceSides"] == 6
    assert [p["name"] for p in lhtr["players"]] == ["Russians", "Germans", "British", "Japanese", "Americans"]
    assert lhtr["alliances"]["Axis"] == ["Germans", "Japanese"]

    germany = lhtr["territories"]["Germany"]
    assert germany["owner"] == "Germans"
    assert germany["water"] is False
    assert germany["connections"] == sorted(germany["connections"])
    assert "Western Europe" in germany["connections"]
    assert germany["units"]["Germans"]["infantry"] >= 1
    assert germany["attachments"]["territoryAttachment"]["options"]["capital"] == "Germans"

    infantry = lhtr["unitTypes"]["infantry"]["attachments"]["unitAttachment"]
    assert infantry["class"] == "games.strategy.triplea.attachments.UnitAttachment"
    assert infantry["options"]["attack"] == 1
    assert infantry["options"]["defense"] == 2

    steps = [s["name"] for s in lhtr["sequence"]]
    activation = steps.index("russianTechActivation")
    assert steps[activation - 1] == "russianPlace"
    assert steps[activation + 1] == "russianEndTurn"
    assert lhtr["sequence"][activation]["player"] == "Russians"
    assert lhtr["sequence"][activation]["delegate"] == "tech_activation"

    germans = lhtr["players"][1]
    assert germans["productionFrontier"] in lhtr["productionFrontiers"]
    assert lhtr["relationships"][0]["players"] == ["Russians", "Germans"]
    assert lhtr["relationships"][0]["type"] == "default_war_relation"
    # HTML notes: whitespace runs collapsed, nothing JVM-specific such as the random game UUID.
    notes = lhtr["properties"]["notes"]
    assert "  " not in notes and "\n" not in notes
    assert "GAME_UUID" not in lhtr["properties"]


@pytest.mark.engine
def test_two_files_one_jvm_keys_as_given(engine: eng.Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(OFFICIAL_GAMES)
    docs = engine.dump([Path("ww2v2.xml"), Path("lhtr.xml")])
    assert list(docs) == ["ww2v2.xml", "lhtr.xml"]
    assert docs["ww2v2.xml"]["game"]["name"] == "World War II Revised"
    assert docs["lhtr.xml"]["game"]["name"] == "World War II Revised LHTR"


def _mutant(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = LHTR.read_text(encoding="utf-8")
    assert old in text, f"mutation anchor {old!r} not in lhtr.xml"
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.mark.engine
def test_mutants_report_engine_messages(engine: eng.Engine, tmp_path: Path) -> None:
    bad_connection = _mutant(
        tmp_path,
        "bad_connection.xml",
        '<connection t1="Switzerland" t2="Germany"/>',
        '<connection t1="Switzerland" t2="Germny"/>',
    )
    bad_step_player = _mutant(
        tmp_path,
        "bad_step_player.xml",
        '<step name="russianTech" delegate="tech" player="Russians"/>',
        '<step name="russianTech" delegate="tech" player="Russia"/>',
    )
    docs = engine.dump([bad_connection, bad_step_player])

    connection = docs[str(bad_connection)]
    assert set(connection) == {"error", "saxErrors"}
    assert connection["error"].startswith("games.strategy.engine.data.GameParseException: ")
    assert "Could not find territory. name:Germny" in connection["error"]

    # The engine accepts this file; only the collected DTD (IDREF) message reveals the mistake.
    step = docs[str(bad_step_player)]
    assert "error" not in step
    assert any('An element with the identifier "Russia" must appear in the document.' in m for m in step["saxErrors"])
    tech = next(s for s in step["sequence"] if s["name"] == "russianTech")
    assert tech["player"] is None


@pytest.mark.engine
def test_cli_prints_json(engine: eng.Engine, capsys: pytest.CaptureFixture[str]) -> None:
    assert engine_main(["dump", str(LHTR)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out[str(LHTR)]["territories"]["Germany"]["owner"] == "Germans"


def test_missing_jar_names_the_package(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TRIPLEA_JAR", os.fspath(tmp_path / "nowhere" / "triplea.jar"))
    with pytest.raises(eng.EngineNotFound, match="apt-get install triplea"):
        eng.find_engine()
    assert issubclass(eng.EngineNotFound, eng.EngineError)


def test_a_reader_that_stops_early_gets_no_traceback(engine: eng.Engine) -> None:
    """`python -m generator.engine dump FILE | head`: the dump (~700 KB) outgrows the pipe the
    reader closed; the command stops quietly, as triplea-forge's commands do."""
    command = [sys.executable, "-m", "generator.engine", "dump", str(LHTR)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(10).startswith(b"{")
    proc.stdout.close()
    assert proc.stderr.read() == b""
    assert proc.wait(timeout=120) == 1
