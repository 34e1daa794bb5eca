"""The packaged map in the real TripleA 1.9 GUI: installed, listed, started, and the board drawn.

Each variant gets one client start under Xvfb, in a sandbox home whose downloadedMaps/ holds
nothing but the package zip, so the game list and the art can only come from the package. A
small driver (Java, run from source in the client's own JVM) presses the same buttons a player
does: Select Map, the game in 1.9's chooser, OK, Start Local Game, Play. It finds them by their
labels and presses them with Swing's doClick, which runs the same listeners as a mouse click;
clicking by screen position would break with every font or theme. xdotool then sizes and raises
the game window and ImageMagick takes the screenshot that is checked for the map's colours.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml
from lxml import etree

from generator.release import properties as properties_file
from generator.spec.resolve import Rules
from tests.conftest import BASE_MAP, ENGINE_JAR, ROOT, run_cli

TOOLS = {"Xvfb": "xvfb", "xdotool": "xdotool", "import": "imagemagick", "convert": "imagemagick"}
SCREEN = (1600, 1000)
# Variants made for TripleA 2.x only (game.target) are refused by this 1.9 client by design.
VARIANTS = [
    v
    for v in Rules(ROOT / "rules").variants()
    if b"<triplea minimumVersion" not in (ROOT / "output" / "games" / f"{v}.xml").read_bytes()
]

pytestmark = pytest.mark.engine

DRIVER = r"""
import java.awt.Component;
import java.awt.Container;
import java.awt.Frame;
import java.awt.Window;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import javax.swing.AbstractButton;
import javax.swing.JList;
import javax.swing.ListModel;
import javax.swing.SwingUtilities;
import games.strategy.engine.framework.GameRunner;
import games.strategy.engine.framework.startup.mc.GameSelectorModel;

/** Plays the part of a player at TripleA 1.9's start screens; prints FORGE-GUI lines. */
public class ForgeGuiDriver {
  interface Probe<T> { T get() throws Exception; }

  public static void main(String[] args) throws Exception {
    String game = args[0];
    GameRunner.main(new String[] {"triplea.doNotCheckForUpdates=true"});
    Field field = GameRunner.class.getDeclaredField("gameSelectorModel");
    field.setAccessible(true);
    GameSelectorModel model = (GameSelectorModel) field.get(null);
    // The client loads a default game in the background first; choosing before it is done
    // would let it replace our choice.
    await("the default game", () -> model.getGameData());
    click("Select Map");
    JList<?> list = await("the game chooser", () -> (JList<?>) find(JList.class, c -> true));
    List<String> names = new ArrayList<>();
    SwingUtilities.invokeAndWait(() -> {
      ListModel<?> entries = list.getModel();
      for (int i = 0; i < entries.getSize(); i++) names.add(entries.getElementAt(i).toString());
    });
    System.out.println("FORGE-GUI listed: " + String.join(" | ", names));
    int index = names.indexOf(game);
    if (index < 0) fail("game not listed: " + game);
    SwingUtilities.invokeAndWait(() -> list.setSelectedIndex(index));
    click("OK");
    await("the chosen game", () -> game.equals(model.getGameName()) && model.getGameData() != null ? game : null);
    click("Start Local Game");
    await("Play enabled", () -> { AbstractButton b = button("Play"); return b != null && b.isEnabled() ? b : null; });
    click("Play");
    String title = "TripleA - " + game;
    await("the game window", () -> {
      for (Frame frame : Frame.getFrames()) if (frame.isShowing() && frame.getTitle().equals(title)) return frame;
      return null;
    });
    System.out.println("FORGE-GUI game window: " + title);
  }

  static void click(String label) throws Exception {
    AbstractButton button = await("button " + label, () -> button(label));
    // invokeLater: the button may open a modal dialog, which would block invokeAndWait.
    SwingUtilities.invokeLater(button::doClick);
  }

  static <T> T await(String what, Probe<T> probe) throws Exception {
    long end = System.currentTimeMillis() + 60_000;
    while (System.currentTimeMillis() < end) {
      List<T> box = new ArrayList<>();
      SwingUtilities.invokeAndWait(() -> {
        try { T found = probe.get(); if (found != null) box.add(found); }
        catch (Exception e) { throw new RuntimeException(e); }
      });
      if (!box.isEmpty()) return box.get(0);
      Thread.sleep(100);
    }
    fail("timed out waiting for " + what);
    return null;
  }

  static void fail(String message) {
    System.out.println("FORGE-GUI failed: " + message);
    System.exit(3);
  }

  static AbstractButton button(String label) {
    return (AbstractButton) find(AbstractButton.class,
        c -> label.equals(((AbstractButton) c).getText()) && c.isShowing());
  }

  static Component find(Class<?> type, Predicate<Component> test) {
    for (Window window : Window.getWindows()) {
      Component found = window.isShowing() ? search(window, type, test) : null;
      if (found != null) return found;
    }
    return null;
  }

  static Component search(Component c, Class<?> type, Predicate<Component> test) {
    if (type.isInstance(c) && test.test(c)) return c;
    if (c instanceof Container) {
      for (Component child : ((Container) c).getComponents()) {
        Component found = search(child, type, test);
        if (found != null) return found;
      }
    }
    return null;
  }
}
"""


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
class Client:
    log: str
    screenshot: Path


def _home_with(tmp: Path, *installs: Path) -> Path:
    maps = tmp / "home" / "triplea" / "downloadedMaps"
    maps.mkdir(parents=True)
    for item in installs:
        if item.is_dir():
            shutil.copytree(item, maps / item.name)
        else:
            shutil.copy(item, maps / item.name)
    return tmp / "home"


def _start_game(home: Path, game: str, display: str, shot: Path, tmp: Path) -> Client:
    """Start the client, play through the start screens to `game`, screenshot the game window."""
    driver = tmp / "ForgeGuiDriver.java"
    driver.write_text(DRIVER, encoding="utf-8")
    log_path = tmp / "client.log"
    no_network = [f"-D{scheme}.proxy{part}" for scheme in ("http", "https") for part in ("Host=127.0.0.1", "Port=9")]
    command = [
        "java",
        f"-Duser.home={home}",  # downloadedMaps, saved games and settings stay in the sandbox
        f"-Djava.util.prefs.userRoot={home / '.prefs'}",
        f"-Djava.util.prefs.systemRoot={home / '.prefs-system'}",
        *no_network,  # the client's one unconditional network probe fails at once, offline
        "-Xmx1g",
        "-cp",
        str(ENGINE_JAR),
        str(driver),
        game,
    ]
    env = {**os.environ, "DISPLAY": display}
    with log_path.open("w") as log:
        # cwd: the engine reads game_engine.properties from the working folder, as its launcher does.
        client = subprocess.Popen(
            command, cwd=ENGINE_JAR.parent, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True
        )
    try:
        title = f"TripleA - {game}"
        deadline = time.monotonic() + 90
        while "FORGE-GUI game window" not in log_path.read_text() and time.monotonic() < deadline:
            assert client.poll() is None, f"client exited ({client.returncode}):\n{_tail(log_path)}"
            time.sleep(0.5)
        assert "FORGE-GUI game window" in log_path.read_text(), f"no game window:\n{_tail(log_path)}"
        window = _find_window(f"^{re.escape(title)}$", env)
        # Without a window manager the frame keeps its packed size; give the board the screen.
        subprocess.run(
            ["xdotool", "windowmove", window, "0", "0", "windowsize", window, *map(str, SCREEN), "windowraise", window],
            env=env,
            check=True,
            timeout=30,
        )
        _wait_for_board(env, shot)
    finally:
        os.killpg(client.pid, signal.SIGTERM)
        client.wait(timeout=30)
    return Client(log_path.read_text(), shot)


def _find_window(pattern: str, env: dict[str, str]) -> str:
    """The id of the first window whose title matches, asking again until it is there.

    `xdotool search --sync` gives up (exit 1) when a window it is reading vanishes meanwhile, as the
    client's short-lived frames do while it starts (seen once in a run of the whole suite).
    """
    deadline = time.monotonic() + 30
    while True:
        found = subprocess.run(
            ["xdotool", "search", "--name", pattern], env=env, capture_output=True, text=True, timeout=30
        ).stdout.split()
        if found:
            return found[0]
        assert time.monotonic() < deadline, f"no window named {pattern}"
        time.sleep(0.5)


def _wait_for_board(env: dict[str, str], shot: Path) -> None:
    """Screenshots until two in a row are the same: the tiles are drawn in the background."""
    previous = b""
    for _ in range(20):
        time.sleep(1.0)
        # The whole screen, as a player sees it: a step's dialog (AARe's national advantages)
        # sits over the board, and grabbing the game window alone would show it as a black hole.
        subprocess.run(["import", "-window", "root", str(shot)], env=env, check=True, timeout=30)
        pixels = subprocess.run(["convert", str(shot), "rgb:-"], capture_output=True, check=True).stdout
        if pixels == previous:
            return
        previous = pixels


def _tail(path: Path, lines: int = 60) -> str:
    return "\n".join(path.read_text().splitlines()[-lines:])


def _histogram(image: Path) -> dict[tuple[int, int, int], int]:
    out = subprocess.run(
        ["convert", str(image), "-format", "%c", "histogram:info:-"], capture_output=True, text=True, check=True
    ).stdout
    counts: dict[tuple[int, int, int], int] = {}
    for line in out.splitlines():
        m = re.match(r"\s*(\d+):\s*\(\s*(\d+),\s*(\d+),\s*(\d+)", line)
        if m:
            counts[(int(m[2]), int(m[3]), int(m[4]))] = int(m[1])
    return counts


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


def _board_checks(client: Client, package: Path, variant: str, map_name: str, zip_name: str) -> None:
    """The log says the game and map loaded cleanly; the screenshot shows the map's colours."""
    assert not _exceptions(client.log), "\n\n".join(_exceptions(client.log))
    assert re.search(rf"Loading map: {re.escape(map_name)}, from: .*{re.escape(zip_name)}", client.log), client.log
    counts = _histogram(client.screenshot)
    total = sum(counts.values())
    assert len(counts) > 2000, f"{client.screenshot}: only {len(counts)} colours, the board is not drawn"
    assert max(counts.values()) < total / 2, f"{client.screenshot}: one colour covers half the window"
    colours = properties_file.read((package / "map" / "map.properties").read_bytes())
    xml = etree.parse(str(package / "map" / "games" / f"{variant}.xml"))
    owners = {e.get("owner") for e in xml.iter("territoryOwner")}
    checked = 0
    for player in sorted(o for o in owners if o and f"color.{o}" in colours):
        hex_colour = colours[f"color.{player}"]
        rgb = tuple(int(hex_colour[i : i + 2], 16) for i in (0, 2, 4))
        near = sum(n for c, n in counts.items() if sum(abs(a - b) for a, b in zip(c, rgb, strict=True)) <= 6)
        assert near >= 50, f"{client.screenshot}: {player}'s colour #{hex_colour} is missing from the board"
        checked += 1
    assert checked >= 2, f"too few player colours to check in {variant}"


def _game_names(package: Path) -> dict[str, str]:
    listing = yaml.safe_load((package / "map.yml").read_text())
    return {g["file_name"].removesuffix(".xml"): g["game_name"] for g in listing["games"]}


@pytest.mark.parametrize("variant", VARIANTS)
def test_packaged_variant_starts_in_the_1_9_client(
    variant: str, dist: Path, display: str, screenshots: Path, tmp_path: Path
) -> None:
    archive = next(dist.glob("*-master.zip"))
    package = next(p for p in dist.iterdir() if p.is_dir())
    game = _game_names(package)[variant]
    home = _home_with(tmp_path, archive)  # the zip alone, as a player drops it into downloadedMaps
    client = _start_game(home, game, display, screenshots / f"{variant}.png", tmp_path)
    listed = re.search(r"FORGE-GUI listed: (.*)", client.log)
    names = _game_names(package)
    assert listed and {names[v] for v in VARIANTS} <= set(listed[1].split(" | ")), client.log
    for only_2x in set(names) - set(VARIANTS):  # 1.9 leaves a 2.x-only game out, and says why
        assert names[only_2x] not in listed[1].split(" | ")
        assert f"is not compatible with version: 2.6, required by map: {names[only_2x]}" in client.log
    _board_checks(client, package, variant, package.name, archive.name)


def test_overlay_keeps_base_games_and_starts_in_the_1_9_client(
    dist: Path, display: str, screenshots: Path, tmp_path: Path
) -> None:
    """Variants added into an installed copy of the base map: its own games stay listed."""
    base_games = _game_names(BASE_MAP)
    package = next(p for p in dist.iterdir() if p.is_dir())
    ours = {
        v: g
        for v, g in _game_names(package).items()
        if g not in base_games.values() and v not in base_games and v in VARIANTS
    }
    if not ours:
        pytest.skip("every variant shares a name with a game of the base map")
    variant, game = sorted(ours.items())[0]
    home = _home_with(tmp_path, BASE_MAP)
    installed = home / "triplea" / "downloadedMaps" / BASE_MAP.name
    result = run_cli("package", variant, "--overlay", str(installed), cwd=ROOT)
    assert result.code == 0, result.err
    client = _start_game(home, game, display, screenshots / f"overlay-{variant}.png", tmp_path)
    listed = re.search(r"FORGE-GUI listed: (.*)", client.log)
    assert listed and {*base_games.values(), game} <= set(listed[1].split(" | ")), client.log
    assert not _exceptions(client.log), "\n\n".join(_exceptions(client.log))
    assert f"Loading map: {BASE_MAP.name}, from: {installed}" in client.log
    counts = _histogram(client.screenshot)
    assert len(counts) > 2000, f"{client.screenshot}: the board is not drawn"
