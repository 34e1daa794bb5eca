"""The real TripleA 1.9 client, started on one game in a throw-away home: `play` and the GUI test.

A small driver (`client/ForgeClient.java`, compiled once like the harness, run in the client's own
JVM) presses the buttons a player presses: Select Map, the game in 1.9's chooser, OK, Start Local
Game, (every other player to the Fast AI), Play. With `look` it then opens every player's purchase
screen and asks the client for the picture of every unit on the board, printing what it sees as
`FORGE-GUI` lines; it waits for a line on its stdin before closing each purchase screen, so a
screenshot can be taken. The client's home (`-Duser.home`) is a folder of ours: its downloadedMaps
holds only what we put there, and its settings and saved games stay there. Its one network probe
at start goes to a closed local port.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from generator.engine.harness import CLIENT_CLASS, SHORT_JVM_OPTIONS, EngineError, find_engine
from generator.errors import TripleaForgeError

READY = "FORGE-GUI game window"
# What the client prints when it cannot start a game: its Play button then does nothing.
REFUSALS = ("No data of type", "FORGE-GUI failed")


class ClientError(TripleaForgeError):
    """The client could not start (what is missing is said) or did not get to the game (the message
    ends with the tail of its log)."""


@dataclass(frozen=True)
class Driver:
    """What starts the client: the java to run, TripleA's jar and the driver compiled against it."""

    java: str
    jar: Path
    classes: Path


def find_driver() -> Driver:
    """The installed client and its driver, compiled if needed; ClientError saying what is missing."""
    try:
        engine = find_engine()
        return Driver(engine.java, engine.jar, engine.client_dir())
    except EngineError as exc:
        raise ClientError(str(exc)) from exc


def home_with(folder: Path, *installs: Path) -> Path:
    """A TripleA home in `folder` whose downloadedMaps holds `installs` (map folders or zips)."""
    maps = folder / "triplea" / "downloadedMaps"
    maps.mkdir(parents=True, exist_ok=True)
    for item in installs:
        if item.is_dir():
            shutil.copytree(item, maps / item.name)
        else:
            shutil.copy(item, maps / item.name)
    return folder


@dataclass
class Client:
    process: subprocess.Popen[str]
    log: Path

    def text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def tail(self, lines: int = 40) -> str:
        return "\n".join(self.text().splitlines()[-lines:])

    def wait_for(self, marker: str, timeout: float) -> None:
        """Until `marker` is in the log; ClientError when the client exits, fails or time runs out first."""
        deadline = time.monotonic() + timeout
        while marker not in (text := self.text()):
            refused = next((line for line in text.splitlines() if any(s in line for s in REFUSALS)), None)
            if refused is not None:
                raise ClientError(f"the client refused the game: {refused.strip()}\n{self.tail()}")
            if self.process.poll() is not None:
                raise ClientError(f"the client exited ({self.process.returncode}) before '{marker}':\n{self.tail()}")
            if time.monotonic() > deadline:
                raise ClientError(f"no '{marker}' from the client after {timeout:g} s:\n{self.tail()}")
            time.sleep(0.05)  # reading a short log is cheap; each wait is the player's (or a test's)

    def proceed(self) -> None:
        """Tell the driver to go on (it waits on stdin while a purchase screen is open)."""
        assert self.process.stdin is not None
        self.process.stdin.write("\n")
        self.process.stdin.flush()

    def stop(self) -> None:
        """The client and everything it started, by its process group."""
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)


def start(
    home: Path,
    game: str,
    work: Path,
    *,
    human: str | None = None,
    look: bool = False,
    display: str | None = None,
    driver: Driver | None = None,
) -> Client:
    """Start the client on `game` (its name in map.yml); `human` plays, every other player is the AI.

    `driver`: one found beforehand (find_driver), so a missing engine is said before anything is built.
    """
    found = driver or find_driver()
    no_network = [f"-D{scheme}.proxy{part}" for scheme in ("http", "https") for part in ("Host=127.0.0.1", "Port=9")]
    command = [
        found.java,
        f"-Duser.home={home}",
        f"-Djava.util.prefs.userRoot={home / '.prefs'}",
        f"-Djava.util.prefs.systemRoot={home / '.prefs-system'}",
        *no_network,
        "-Xmx1g",
        # A look (the GUI test) is over in seconds: half the client's CPU. A player's game keeps the
        # JVM's defaults, for the AIs' long turns.
        *(SHORT_JVM_OPTIONS if look else ()),
        "-cp",
        f"{found.classes}{os.pathsep}{found.jar}",
        CLIENT_CLASS,
        game,
        *(["--human", human] if human else []),
        *(["--look"] if look else []),
    ]
    env = {**os.environ, **({"DISPLAY": display} if display else {})}
    log = work / "client.log"
    with log.open("w") as out:
        # cwd: the engine reads game_engine.properties from the working folder, as its launcher does.
        process = subprocess.Popen(
            command,
            cwd=found.jar.parent,
            stdin=subprocess.PIPE,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
            text=True,
            start_new_session=True,
        )
    return Client(process, log)
