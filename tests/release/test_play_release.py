"""`play --zip`: a release opened as players get it, in the real TripleA 1.9 client under Xvfb.

A new mod is packaged, its zip renamed as a download might be (`mymod.zip`), and `play --zip`
installs it as it is into a throw-away home, under the name 1.9 finds its art by, and opens its
game against the computer: the board is drawn from the zip alone. What cannot be opened is said
before any client starts.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import BASE_MAP, ROOT, run_cli
from tests.release.test_gui import _histogram, _screenshot, display, screenshots

pytestmark = pytest.mark.engine
__all__ = ["display", "screenshots"]  # the GUI test's fixtures, used here


@pytest.fixture(scope="module")
def release(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new mod's package, as a player downloads it (renamed on the way)."""
    top = tmp_path_factory.mktemp("release")
    assert run_cli("new", "mymod", "--in", "mod", cwd=top).code == 0
    packaged = run_cli("package", "--base-map", str(BASE_MAP), cwd=top / "mod")
    assert packaged.code == 0, packaged.err
    downloaded = top / "mymod.zip"
    shutil.copy(top / "mod" / "dist" / "mymod-master.zip", downloaded)
    return downloaded


def test_play_zip_opens_a_release_in_the_client(release: Path, display: str, screenshots: Path, tmp_path: Path) -> None:
    env = {**os.environ, "DISPLAY": display, "TMPDIR": str(tmp_path)}
    command = [sys.executable, "-m", "generator", "play", "--zip", str(release), "--ai"]
    play = subprocess.Popen(
        command, cwd=release.parent, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert play.stdout is not None
        first = play.stdout.readline()
        assert first.startswith("installed mymod.zip into a TripleA home at "), first + (
            play.stderr.read() if play.stderr else ""
        )
        started = play.stdout.readline()  # printed once the game window is there
        assert started == (
            "playing 'mymod' in TripleA 1.9 (you play Russians, the Fast AI the others); close its window to end\n"
        ), started + (play.stderr.read() if play.stderr else "")
        home = Path(first.split(" at ", 1)[1].strip())
        # Installed as the player keeps it: 1.9 finds the art by the zip's name.
        assert [p.name for p in (home / "triplea" / "downloadedMaps").iterdir()] == ["mymod-master.zip"]
        log = (home.parent / "client.log").read_text()
        assert "FORGE-GUI player Russians: Human" in log and "FORGE-GUI player Germans: Fast (AI)" in log, log
        _screenshot({**os.environ, "DISPLAY": display}, screenshots / "play-zip-mymod.png")
        assert len(_histogram(screenshots / "play-zip-mymod.png")) > 2000  # the board is drawn, from the zip
    finally:
        play.terminate()
        play.wait(timeout=60)
    assert not home.exists()


def test_play_zip_says_what_it_cannot_open(release: Path, tmp_path: Path) -> None:
    env = {"DISPLAY": ":999", "TMPDIR": str(tmp_path)}  # a display never reached: all is said before
    several = tmp_path / "dist"
    assert run_cli("package", "lhtr", "revised", "--base-map", str(BASE_MAP), "--out", str(several), cwd=ROOT).code == 0
    both = several / "world_war_ii_revised-master.zip"
    said = {
        (str(both),): f"Error: {both} holds 2 games (lhtr, revised): name the one to play",
        (str(both), "aare"): f"Error: no game 'aare' in {both} (its games: lhtr, revised)",
        (str(release), "--ai", "--player", "Martians"): "Error: no player 'Martians' in mymod (players: Russians, "
        "Germans, British, Japanese, Americans)",
        (str(BASE_MAP / "map" / "polygons.txt"),): f"Error: {BASE_MAP / 'map' / 'polygons.txt'} is neither a map "
        "folder nor a zip",
    }
    for args, message in said.items():
        result = run_cli("play", "--zip", *args, cwd=tmp_path, env=env)
        assert (result.code, result.err) == (1, message + "\n"), args
    assert not list(tmp_path.glob("triplea-forge-play-*"))  # nothing left behind
    both_given = run_cli("play", "--zip", str(release), "--base-map", str(BASE_MAP), cwd=tmp_path, env=env)
    assert both_given.code == 2
    assert both_given.err.splitlines()[-1] == (
        "Error: --base-map: a release carries its map's art; give --zip or --base-map, not both"
    )
    neither = run_cli("play", cwd=tmp_path, env=env)
    assert neither.code == 2
    assert neither.err.splitlines()[-1] == (
        "Error: give the VARIANT to build and play, or --zip RELEASE to open a release"
    )
