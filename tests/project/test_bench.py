"""`python -m bench --quick` runs end to end and reports every row (no timing is asserted)."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bench.measure import NOTES_MARKER, QUICK_SIZES, REFERENCE_XMLS, WW2V2
from bench.report import expected_rows, kept_notes
from bench.scale import territories, write_rules
from tests.helpers import ENGINE_JAR, ROOT


@pytest.mark.slow
def test_quick_benchmark_reports_every_row(tmp_path: Path) -> None:
    out = tmp_path / "results.md"
    proc = subprocess.run(
        [sys.executable, "-m", "bench", "--quick", "--out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    text = out.read_text(encoding="utf-8")
    assert re.search(r"machine: \d+ cores", text) and re.search(r"date: \d{4}-\d\d-\d\d", text)
    lines = text.splitlines()
    header = lines.index(next(line for line in lines if line.startswith("| measurement |")))
    table = list(itertools.takewhile(lambda line: line.startswith("|"), lines[header + 2 :]))
    expected = expected_rows(quick=True)
    if not ENGINE_JAR.is_file():
        expected.remove("start.jvm")
    if not WW2V2.is_file():
        expected.remove("import.ww2v2")
    if not any(REFERENCE_XMLS.glob("*.xml")):
        expected = [k for k in expected if not k.startswith(("ref.", "largest."))]
    assert len(table) == len(expected), "\n".join(table)
    shown = "\n".join(table)
    for label in ("no-op rebuild", "validate the variants", "diff revised lhtr", "import official ww2v2.xml"):
        assert label in shown
    for size in QUICK_SIZES:
        for what in ("generate", "build, XSD cache empty", "build, XSD cache warm", "validate"):
            assert f"synthetic {size:,} territories: {what}" in shown
    assert "FAILED" not in shown, shown
    assert "## Targets" in text
    assert "no-op rebuild" in proc.stdout  # the rich table


def test_rewriting_keeps_the_hand_written_notes(tmp_path: Path) -> None:
    out = tmp_path / "results.md"
    assert kept_notes(out) == NOTES_MARKER + "\n"
    out.write_text(f"old table\n{NOTES_MARKER}\n## Profiles\nkept by hand\n", encoding="utf-8")
    assert kept_notes(out) == f"{NOTES_MARKER}\n## Profiles\nkept by hand\n"


def test_synthetic_spec_is_symmetric_and_revised_like(tmp_path: Path) -> None:
    made = territories(2000)
    assert len(made) == 2000
    for name, entry in made.items():
        for other in entry["connections"]:
            assert name in made[other]["connections"], (name, other)
    sea = sum(1 for t in made.values() if t.get("sea"))
    assert 0.3 < sea / 2000 < 0.5
    land = [t for t in made.values() if not t.get("sea")]
    assert all("production" in t and t["owner"] for t in land)
    assert 2.5 < sum(sum(g.values()) for t in land for g in t["units"].values()) / len(land) < 3.5
    assert territories(500) == territories(500)  # deterministic
    result = write_rules(tmp_path, 300)
    spec = yaml.safe_load((result.rules / "synthetic" / "territories.yaml").read_text(encoding="utf-8"))
    assert len(spec["territories"]) == 300
    assert {p.name for p in (result.rules / "synthetic").iterdir()} >= {"game.yaml", "units.yaml", "sequence.yaml"}
