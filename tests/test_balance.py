"""Balance lab: the statistics against known values, a real study through the CLI, its HTML page in
a real browser, and the same games through a real local Ray cluster."""

from __future__ import annotations

import json
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from generator.balance.stats import newcombe, quartiles, welch, wilson
from tests.conftest import ROOT, Result, run_cli


def test_wilson_interval_matches_the_published_values() -> None:
    # Newcombe (1998), table I: 81/263 -> 0.2553..0.3662; 0/10 -> 0..0.2775.
    interval = wilson(81, 263)
    assert (round(interval.low, 4), round(interval.high, 4)) == (0.2553, 0.3662)
    interval = wilson(0, 10)
    assert (interval.low, round(interval.high, 4)) == (0.0, 0.2775)
    assert wilson(0, 0).high == 1.0  # no games: nothing known


def test_newcombe_difference_matches_the_published_values() -> None:
    # Newcombe (1998), example (a) of table II: 56/70 vs 48/80 -> 0.2 (0.0524..0.3339), as b - a.
    difference = newcombe(48, 80, 56, 70)
    assert round(difference.value, 4) == 0.2
    assert (round(difference.low, 4), round(difference.high, 4)) == (0.0524, 0.3339)
    assert difference.significant
    assert not newcombe(5, 10, 6, 10).significant


def test_welch_and_quartiles() -> None:
    interval = welch([10, 12, 14], [20, 22, 24])
    assert interval.value == 10 and interval.significant
    assert round(interval.half_width, 3) == round(1.959963984540054 * (4 / 3 + 4 / 3) ** 0.5, 3)
    assert quartiles([1, 2, 3, 4]) == (1.75, 2.5, 3.25)


def _study(tmp: Path, *args: str) -> tuple[Result, list[dict[str, Any]]]:
    out = tmp / "study"
    result = run_cli("balance", *args, "--out", str(out), cwd=ROOT)
    lines = (out / "games.jsonl").read_text(encoding="utf-8").splitlines() if (out / "games.jsonl").is_file() else []
    return result, [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def study(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Result, list[dict[str, Any]]]:
    folder = tmp_path_factory.mktemp("balance")
    result, games = _study(folder, "lhtr", "aare", "--games", "2", "--rounds", "1", "--workers", "2", "--seed", "5")
    return folder / "study", result, games


@pytest.mark.engine
def test_a_study_compares_two_variants_game_by_game(study: tuple[Path, Result, list[dict[str, Any]]]) -> None:
    out, result, games = study
    assert result.code == 0, result.out + result.err
    assert sorted((g["variant"], g["seed"]) for g in games) == [("aare", 5), ("aare", 6), ("lhtr", 5), ("lhtr", 6)]
    for game in games:
        assert game["errors"] == [] and game["roundsCompleted"] == 1
        assert [r["round"] for r in game["perRound"]] == [0, 1]
        assert set(game["sides"].values()) == {"Allies", "Axis"}
        start = game["perRound"][0]["players"]
        assert start["Germans"]["tuv"] > 0 and start["Germans"]["income"] > 0 and start["Germans"]["victoryCities"] > 0
    # aare's national advantages are user actions: the seeded policy takes some; lhtr has none.
    assert any(g["actionsTaken"] for g in games if g["variant"] == "aare")
    assert not any(g["actionsTaken"] for g in games if g["variant"] == "lhtr")
    assert "aare - lhtr" in result.out and "Axis win rate" in result.out
    markdown = (out / "report.md").read_text(encoding="utf-8")
    assert "| Axis win rate | 0% (0%..66%) | 0% (0%..66%) | +0 % (-66..+66 %) |" in markdown
    assert "![income.png](income.png)" in markdown
    for chart in ("income.png", "tuv.png"):
        assert (out / chart).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.engine
def test_the_html_report_renders_in_a_real_browser(study: tuple[Path, Result, list[dict[str, Any]]]) -> None:
    out, result, _ = study
    assert result.code == 0, result.err
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    assert browser, "Chromium is part of the test set-up (apt-get install chromium)"
    page = out / "report.html"
    shot = out / "screenshot.png"  # kept with the study in pytest's temporary folder, to look at
    flags = [
        "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", f"--user-data-dir={out / 'profile'}",
    ]  # fmt: skip
    dom = subprocess.run(
        [browser, *flags, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120, check=False
    )
    # The DOM after rendering: the table's rows and both charts, decoded from the page itself.
    assert '<table id="figures">' in dom.stdout and "Axis win rate" in dom.stdout, dom.stderr[-2000:]
    assert dom.stdout.count('<img alt="') == 2
    subprocess.run(
        [browser, *flags, "--window-size=1200,1600", f"--screenshot={shot}", page.as_uri()],
        capture_output=True, timeout=120, check=False,
    )  # fmt: skip
    from PIL import Image

    with Image.open(shot) as picture:
        assert picture.size == (1200, 1600)
        colours = picture.convert("RGB").getcolors(maxcolors=1 << 20)
        assert colours is not None and len(colours) > 50  # text, table lines and charts, not a blank page


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.mark.engine
def test_a_study_runs_on_a_local_ray_cluster(tmp_path: Path) -> None:
    ray = shutil.which("ray", path=str(Path(sys.executable).parent)) or shutil.which("ray")
    assert ray, "Ray is part of the test set-up (pip install -e '.[test,cluster]')"
    port, client = _free_port(), _free_port()
    # Ray's socket paths must stay under 108 bytes: a short folder of its own, not pytest's.
    scratch = Path(tempfile.mkdtemp(prefix="ray-", dir="/tmp"))
    start = [ray, "start", "--head", "--num-cpus", "2", f"--port={port}", f"--ray-client-server-port={client}",
             "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={scratch}"]  # fmt: skip
    started = subprocess.run(start, capture_output=True, text=True, timeout=300, check=False)
    assert started.returncode == 0, started.stdout + started.stderr
    try:
        result, games = _study(tmp_path / "ray", *REPRODUCIBLE_GAMES, "--cluster", f"ray://127.0.0.1:{client}")
    finally:
        subprocess.run([ray, "stop", "--force"], capture_output=True, timeout=120, check=False)
        shutil.rmtree(scratch, ignore_errors=True)
    assert result.code == 0, result.out + result.err
    assert f"on the Ray cluster ray://127.0.0.1:{client}" in result.out
    assert [(g["variant"], g["seed"], g["roundsCompleted"], g["errors"]) for g in games] == [
        ("lhtr", 5, 1, []),
        ("lhtr", 6, 1, []),
    ]
    # --reproducible: the same seeds on a local worker play the very same games, the AIs' purchases,
    # moves and battles included, so every figure of every round is the same as on the cluster.
    local, again = _study(tmp_path / "local", *REPRODUCIBLE_GAMES, "--workers", "1")
    assert local.code == 0, local.out + local.err
    assert [_without_timing(g) for g in again] == [_without_timing(g) for g in games]
    assert games[0]["perRound"] != games[1]["perRound"]  # and another seed plays another game


REPRODUCIBLE_GAMES = ("lhtr", "--games", "2", "--rounds", "1", "--seed", "5", "--reproducible")


def _without_timing(game: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in game.items() if key != "seconds"}


@pytest.mark.engine
def test_an_unknown_variant_is_a_usage_error(tmp_path: Path) -> None:
    result, _ = _study(tmp_path, "lhtr", "lhrt", "--games", "1", "--rounds", "1")
    assert result.code == 2
    assert "no variant lhrt in rules" in result.err
