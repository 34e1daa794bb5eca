"""What a player sees of each packaged game in the real TripleA 1.9 client: every unit with a picture.

Each variant gets one client start under Xvfb, in a sandbox home whose downloadedMaps holds
nothing but the package zip, so the game list and the art can only come from the package. The
driver of `triplea-forge play` (generator/engine/client) presses the buttons a player presses,
then opens every player's purchase screen (the client's own dialog) and asks the client for the
picture of every unit on the board. The test checks that every unit offered is drawn with a
picture (not a bare id), that every unit on the board has one, and that the board shows the
owners' colours; the screenshots (board and each purchase screen) are kept in the folder printed
at the end. Two broken packages (a unit's pictures removed, a territory misspelled) must fail the
same checks.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml
from lxml import etree
from PIL import Image

from generator.engine import client as real_client
from generator.release.package import properties as properties_file
from generator.spec.resolve import Rules
from tests.helpers import BASE_MAP, ROOT, run_cli

TOOLS = {"Xvfb": "xvfb", "import": "imagemagick"}
SCREEN = (1600, 1000)
# Variants made for TripleA 2.x only (game.target) are refused by this 1.9 client by design.
VARIANTS = [
    v
    for v in Rules(ROOT / "rules").variants()
    if b"<triplea minimumVersion" not in (ROOT / "output" / "games" / f"{v}.xml").read_bytes()
]

pytestmark = pytest.mark.engine


def _tools_or_skip() -> None:
    missing = sorted({pkg for tool, pkg in TOOLS.items() if shutil.which(tool) is None})
    if shutil.which("java") is None:
        missing.append("default-jre")
    if missing:
        message = f"GUI test needs: apt-get install {' '.join(missing)}"
        if os.environ.get("CI"):
            pytest.fail(message)  # CI must run this test, not skip it
        pytest.skip(message)


@pytest.fixture(scope="module")
def display() -> Iterator[str]:
    """A private X server; -displayfd picks a free display number and tells us which."""
    _tools_or_skip()
    read, write = os.pipe()
    size = f"{SCREEN[0]}x{SCREEN[1]}x24"
    server = subprocess.Popen(
        ["Xvfb", "-displayfd", str(write), "-screen", "0", size, "-nolisten", "tcp"],
        pass_fds=[write],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    os.close(write)
    with os.fdopen(read) as stream:
        number = stream.readline().strip()
    try:
        assert number, "Xvfb did not start"
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("screenshots")
    yield folder
    reporter = request.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line(f"GUI screenshots: {folder}")


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    result = run_cli("package", "--base-map", str(BASE_MAP), "--out", str(out), cwd=ROOT)
    assert result.code == 0, result.err
    return out


@dataclass
class Seen:
    """What the client showed: its log, the screenshots, and every problem a player would see."""

    log: str = ""
    shots: list[Path] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def _screenshot(env: dict[str, str], shot: Path, settle: bool = True) -> None:
    """The whole screen, as a player sees it; with `settle`, once the board is drawn and stays so.

    The whole screen: a step's dialog (AARe's national advantages) or a purchase screen sits over
    the board, and grabbing the game window alone would show it as a black hole. The client draws
    the board's tiles in the background, slower on a busy machine: settled means drawn (many
    colours, none covering half the screen) and the same in two grabs a second apart.
    """
    previous = b""
    for _ in range(40 if settle else 1):
        time.sleep(1.0 if settle else 0.1)
        pixels = subprocess.run(
            ["import", "-window", "root", "-depth", "8", "rgb:-"], env=env, capture_output=True, check=True, timeout=30
        ).stdout
        if not settle or (pixels == previous and _drawn(Image.frombytes("RGB", SCREEN, pixels))):
            break
        previous = pixels
    Image.frombytes("RGB", SCREEN, pixels).save(shot, compress_level=1)


def _drawn(image: Image.Image) -> bool:
    counts = image.getcolors(1 << 24) or []
    return len(counts) > 2000 and max(n for n, _ in counts) < image.width * image.height / 2


def _look(home: Path, game: str, display: str, shots: Path, name: str, tmp: Path, look: bool = True) -> Seen:
    """Start the client on `game`, screenshot the board and each purchase screen, collect problems."""
    seen = Seen()
    env = {**os.environ, "DISPLAY": display}
    client = real_client.start(home, game, tmp, look=look, display=display)
    try:
        client.wait_for(real_client.READY, 120)  # the driver has given the game window the screen
        seen.shots.append(shots / f"{name}-board.png")
        _screenshot(env, seen.shots[-1])
        if look:
            client.proceed()
            done = 0
            deadline = time.monotonic() + 120
            while "FORGE-GUI looked" not in client.text():
                opened = re.findall(r"FORGE-GUI purchase screen open: (.+)", client.text())
                if len(opened) > done:
                    seen.shots.append(shots / f"{name}-purchase-{opened[done]}.png")
                    _screenshot(env, seen.shots[-1], settle=False)
                    client.proceed()
                    done += 1
                if client.process.poll() is not None or time.monotonic() > deadline:
                    raise real_client.ClientError(f"the client stopped showing the game:\n{client.tail()}")
                time.sleep(0.05)  # 0.2 s made each look ~0.5 s longer, a core idle meanwhile
    except real_client.ClientError as exc:
        seen.problems.append(f"{name}: {exc}")
    finally:
        client.stop()
        seen.log = client.text()
    for line in re.findall(r"FORGE-GUI ((?:purchase|board) \S+ \S+ none)", seen.log):
        seen.problems.append(f"{name}: no picture: {line}")
    for line in re.findall(r".*MISSING IMAGE.*", seen.log):
        seen.problems.append(f"{name}: the client says: {line.strip()}")
    return seen


def _exceptions(log: str) -> list[str]:
    """Stack traces and exception lines in the client's output, but for its known network probe.

    1.9 always tries github.com at start (LocalSystemChecker); the sandbox makes that fail.
    """
    blocks: list[str] = []
    lines = log.splitlines()
    i = 0
    while i < len(lines):
        if re.search(r"\b[\w$]+(Exception|Error)\b", lines[i]) and not lines[i].startswith("FORGE-GUI"):
            block = [lines[i]]
            i += 1
            while i < len(lines) and re.match(r"\s+at |\s*\.\.\. \d+ more|Caused by: ", lines[i]):
                block.append(lines[i])
                i += 1
            blocks.append("\n".join(block))
        else:
            i += 1
    return [b for b in blocks if "LocalSystemChecker" not in b and "github.com" not in b]


def _histogram(image: Path) -> dict[tuple[int, int, int], int]:
    return {colour: count for count, colour in Image.open(image).convert("RGB").getcolors(1 << 24) or []}


def _board_problems(seen: Seen, package: Path, variant: str) -> list[str]:
    """The board is drawn: many colours, none covering half the window, every starting owner's colour."""
    if not seen.shots:
        return []
    shot = seen.shots[0]
    counts = _histogram(shot)
    total = sum(counts.values())
    if len(counts) <= 2000 or max(counts.values()) >= total / 2:
        return [f"{shot}: the board is not drawn ({len(counts)} colours)"]
    colours = properties_file.read((package / "map" / "map.properties").read_bytes())
    xml = etree.parse(str(package / "map" / "games" / f"{variant}.xml"))
    owners = {e.get("owner") for e in xml.iter("territoryOwner")}
    problems = []
    for player in sorted(o for o in owners if o and f"color.{o}" in colours):
        hex_colour = colours[f"color.{player}"]
        rgb = tuple(int(hex_colour[i : i + 2], 16) for i in (0, 2, 4))
        near = sum(n for c, n in counts.items() if sum(abs(a - b) for a, b in zip(c, rgb, strict=True)) <= 6)
        if near < 50:
            problems.append(f"{shot}: {player}'s colour #{hex_colour} is missing from the board")
    return problems


def _game_names(package: Path) -> dict[str, str]:
    listing = yaml.safe_load((package / "map.yml").read_text())
    return {g["file_name"].removesuffix(".xml"): g["game_name"] for g in listing["games"]}


def _home(tmp: Path, *installs: Path) -> Path:
    return real_client.home_with(tmp / "home", *installs)


def _purchases(log: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for player, unit in re.findall(r"FORGE-GUI purchase (\S+) (\S+) picture", log):
        found.setdefault(player, set()).add(unit)
    return found


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_unit_of_the_packaged_game_has_a_picture_in_the_1_9_client(
    variant: str, dist: Path, display: str, screenshots: Path, tmp_path: Path
) -> None:
    archive = next(dist.glob("*-master.zip"))
    package = next(p for p in dist.iterdir() if p.is_dir())
    names = _game_names(package)
    seen = _look(_home(tmp_path, archive), names[variant], display, screenshots, variant, tmp_path)
    assert not seen.problems, "\n".join(seen.problems)
    listed = re.search(r"FORGE-GUI listed: (.*)", seen.log)
    assert listed and {names[v] for v in VARIANTS} <= set(listed[1].split(" | ")), seen.log
    for only_2x in set(names) - set(VARIANTS):  # 1.9 leaves a 2.x-only game out, and says why
        assert names[only_2x] not in listed[1].split(" | ")
        assert f"is not compatible with version: 2.6, required by map: {names[only_2x]}" in seen.log
    assert not _exceptions(seen.log), "\n\n".join(_exceptions(seen.log))
    zip_name = re.escape(archive.name)
    assert re.search(rf"Loading map: {re.escape(package.name)}, from: .*{zip_name}", seen.log), seen.log
    assert _board_problems(seen, package, variant) == []
    # Every player who can buy had a purchase screen, and it offered every unit of their frontier.
    xml = etree.parse(str(package / "map" / "games" / f"{variant}.xml"))
    offered = _purchases(seen.log)
    for production in xml.iter("playerProduction"):
        player, frontier = str(production.get("player")), production.get("frontier")
        rules = {r.get("name") for f in xml.iter("productionFrontier") if f.get("name") == frontier for r in f}
        results = (u.get("resourceOrUnit") for r in xml.iter("productionRule") if r.get("name") in rules for u in r)
        units = {u for u in results if xml.find(f"unitList/unit[@name='{u}']") is not None}
        assert units and units <= offered.get(player, set()), (player, units, offered)
    assert re.search(r"FORGE-GUI board \S+ \S+ picture", seen.log), "no unit on the board was looked at"
    assert len(seen.shots) == 1 + len(re.findall("FORGE-GUI purchase screen open", seen.log)), seen.shots


def _broken_copy(archive: Path, folder: Path, drop: str = "", rename: tuple[str, str] | None = None) -> Path:
    """The package zip with the entries matching `drop` left out, or a territory renamed in every game."""
    folder.mkdir()
    broken = folder / archive.name
    with zipfile.ZipFile(archive) as source, zipfile.ZipFile(broken, "w") as out:
        for info in source.infolist():
            if drop and re.search(drop, info.filename):
                continue
            data = source.read(info)
            if rename and info.filename.endswith(".xml"):
                data = data.replace(f'"{rename[0]}"'.encode(), f'"{rename[1]}"'.encode())
            out.writestr(info, data)
    return broken


def test_the_checks_fail_on_a_unit_without_pictures(
    dist: Path, display: str, screenshots: Path, tmp_path: Path
) -> None:
    """expansion with heavyTank's pictures taken out of the package: the purchase screen shows its id."""
    archive = next(dist.glob("*-master.zip"))
    package = next(p for p in dist.iterdir() if p.is_dir())
    broken = _broken_copy(archive, tmp_path / "broken", drop=r"/units/[^/]+/heavyTank\.png$")
    game = _game_names(package)["expansion"]
    seen = _look(_home(tmp_path, broken), game, display, screenshots, "broken-art", tmp_path)
    assert "broken-art: no picture: purchase Germans heavyTank none" in seen.problems, seen.problems
    assert "broken-art: no picture: board Germans heavyTank none" not in seen.problems  # none on the board at start
    assert all("heavyTank" in p for p in seen.problems), seen.problems


def test_the_checks_fail_on_a_misspelled_territory(dist: Path, display: str, screenshots: Path, tmp_path: Path) -> None:
    """A territory the map does not have: the client refuses to start the game, and the test says why."""
    archive = next(dist.glob("*-master.zip"))
    package = next(p for p in dist.iterdir() if p.is_dir())
    broken = _broken_copy(archive, tmp_path / "broken", rename=("Karelia S.S.R.", "Karelia SSR"))
    game = _game_names(package)["lhtr"]
    seen = _look(_home(tmp_path, broken), game, display, screenshots, "misspelled", tmp_path)
    assert len(seen.problems) == 1 and "No data of type" in seen.problems[0], seen.problems
    assert "Karelia SSR" in seen.problems[0]


def test_overlay_keeps_base_games_and_starts_in_the_1_9_client(
    dist: Path, display: str, screenshots: Path, tmp_path: Path
) -> None:
    """Variants added into an installed copy of the base map: its own games stay listed, the art is added."""
    base_games = _game_names(BASE_MAP)
    package = next(p for p in dist.iterdir() if p.is_dir())
    ours = {
        v: g
        for v, g in _game_names(package).items()
        if g not in base_games.values() and v not in base_games and v in VARIANTS
    }
    if not ours:
        pytest.skip("every variant shares a name with a game of the base map")
    variant, game = ("expansion", ours["expansion"]) if "expansion" in ours else sorted(ours.items())[0]
    home = _home(tmp_path, BASE_MAP)
    installed = home / "triplea" / "downloadedMaps" / BASE_MAP.name
    result = run_cli("package", variant, "--overlay", str(installed), cwd=ROOT)
    assert result.code == 0, result.err
    seen = _look(home, game, display, screenshots, f"overlay-{variant}", tmp_path)
    assert not seen.problems, "\n".join(seen.problems)
    listed = re.search(r"FORGE-GUI listed: (.*)", seen.log)
    assert listed and {*base_games.values(), game} <= set(listed[1].split(" | ")), seen.log
    assert not _exceptions(seen.log), "\n\n".join(_exceptions(seen.log))
    assert f"Loading map: {BASE_MAP.name}, from: {installed}" in seen.log
    assert _board_problems(seen, installed, variant) == []


def test_play_starts_the_client_on_the_game_with_the_computer_for_the_others(
    display: str, screenshots: Path, tmp_path: Path
) -> None:
    """`triplea-forge play lhtr --ai`: built, packaged, the client opened on the game; stopping it cleans up."""
    env = {**os.environ, "DISPLAY": display, "TMPDIR": str(tmp_path)}
    command = [sys.executable, "-m", "generator", "play", "lhtr", "--ai", "--base-map", str(BASE_MAP)]
    play = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert play.stdout is not None
        board = play.stdout.readline()  # which map the game is played on, as every command says
        assert board == f"board: map 'world_war_ii_revised' at {BASE_MAP}, for lhtr\n", board + (
            play.stderr.read() if play.stderr else ""
        )
        first = play.stdout.readline()
        assert first.startswith("packaged lhtr into a TripleA home at "), first + (
            play.stderr.read() if play.stderr else ""
        )
        started = play.stdout.readline()  # printed once the game window is there
        assert started == (
            "playing 'World War II Revised LHTR' in TripleA 1.9 (you play Russians, the Fast AI the others); "
            "close its window to end\n"
        ), started
        home = Path(first.split(" at ", 1)[1].strip())
        log = next(home.parent.glob("client.log")).read_text()
        assert "FORGE-GUI player Russians: Human" in log and "FORGE-GUI player Germans: Fast (AI)" in log, log
        _screenshot({**os.environ, "DISPLAY": display}, screenshots / "play-lhtr.png")
        assert len(_histogram(screenshots / "play-lhtr.png")) > 2000  # the board is drawn
    finally:
        play.terminate()  # as a user's Ctrl-C or a closed terminal would
        play.wait(timeout=60)
    assert not home.exists()  # the throw-away home is gone, and the client with it
    assert not subprocess.run(["pgrep", "-f", str(home)], capture_output=True).stdout


def test_play_needs_a_display_and_a_known_player(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "DISPLAY"}
    env["TMPDIR"] = str(tmp_path)
    command = [sys.executable, "-m", "generator", "play", "lhtr", "--base-map", str(BASE_MAP)]
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 1
    assert "Error: no display (DISPLAY is not set): run it on a desktop, or under xvfb-run" in result.stderr
    assert not list(tmp_path.glob("triplea-forge-play-*"))  # nothing left behind
    # A display that is never reached: the player is checked before any client starts.
    martians = ("play", "lhtr", "--ai", "--player", "Martians", "--base-map", str(BASE_MAP))
    wrong = run_cli(*martians, cwd=ROOT, env={"DISPLAY": ":999", "TMPDIR": str(tmp_path)})
    assert wrong.code == 1 and "no player 'Martians' in lhtr (players: Russians, Germans" in wrong.err
    assert run_cli("play", "lhtr", "--player", "Germans", cwd=ROOT).code == 2  # --player without --ai
    only_2x = run_cli("play", "aare-2x", "--base-map", str(BASE_MAP), cwd=ROOT, env={"DISPLAY": ":999"})
    assert only_2x.code == 1
    assert "aare-2x is made for TripleA 2.x (game.target); the installed client is 1.9" in only_2x.err


def test_play_says_a_missing_engine_before_building(tmp_path: Path) -> None:
    jar = tmp_path / "triplea.jar"
    env = {"DISPLAY": ":999", "TMPDIR": str(tmp_path), "TRIPLEA_JAR": str(jar)}
    result = run_cli("play", "lhtr", "--base-map", str(BASE_MAP), cwd=ROOT, env=env)
    assert result.code == 1
    assert result.err == f"Error: TripleA engine not found at {jar} (set TRIPLEA_JAR or run: apt-get install triplea)\n"
    assert result.out == "" and not list(tmp_path.glob("triplea-forge-play-*"))
