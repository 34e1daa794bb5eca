"""`triplea-forge play`: a variant built, packaged into a throw-away TripleA home and opened there.

The same pipeline as `package` makes the map (the variant alone, on its base map: `--base-map` or
the player's installed copy); the real 1.9 client starts in a temporary home whose downloadedMaps
holds only that zip, so what a mod maker plays is what a player would install. With a computer
opponent, every player but one (the first to move, unless named) is TripleA's Fast AI. The
command waits for the client to close, then removes the temporary home.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from generator.checks.board import board_missing, find_board, get_hint, map_names
from generator.diagnostics import Diagnostic
from generator.engine import client as real_client
from generator.errors import TripleaForgeError
from generator.installed_map import MapLookup
from generator.release.package.folder import compiled_by_name, standalone, write_package
from generator.spec.model import Spec
from generator.spec.resolve import Rules
from generator.targets import Target

START_TIMEOUT = 180.0  # seconds until the game window shows; the 1.9 client takes 10-20 s


class PlayError(TripleaForgeError):
    """Why the game could not be started, in words (exit 1)."""


@dataclass
class Playtest:
    variant: str
    game: str
    human: str | None
    home: Path


def first_mover(spec: Spec) -> str | None:
    """The player of the first step that has one: who moves first."""
    for step in spec.ordered_steps():
        player = spec.sequence[step].player
        if player is not None:
            return player
    return None


def prepare(
    rules: Rules, variant: str, target: Target, maps: MapLookup, work: Path, ai: bool, player: str | None
) -> tuple[Playtest | None, list[Diagnostic]]:
    """Build and package `variant` into a TripleA home inside `work`; problems as located diagnostics."""
    compiled, problems = compiled_by_name(rules, [variant], target, maps)
    if variant not in compiled:
        return None, problems
    spec = compiled[variant].spec
    if spec.game.target == "2.x":
        raise PlayError(f"{variant} is made for TripleA 2.x (game.target); the installed client is 1.9")
    if player is not None and player not in spec.players:
        raise PlayError(f"no player '{player}' in {variant} (players: {', '.join(spec.players)})")
    installed = find_board(spec, compiled[variant].resolved, rules, maps)
    if installed is None:
        names = map_names(rules, compiled[variant].resolved, spec.game.map)
        raise PlayError(f"{board_missing(names, maps)}: {get_hint(names)}")
    try:
        base = installed.as_folder(work / "base")
    except OSError as exc:  # a zip holding a file and a folder of one name, a full disk...
        raise PlayError(f"{installed.location}: cannot unpack it ({exc.strerror or exc}); repair the zip") from exc
    package, found = standalone(base, compiled, None, "playtest", rules)
    problems += found
    if package is None:
        return None, problems
    _, archive = write_package(package, work / "dist")
    home = real_client.home_with(work / "home", archive)
    human = (player or first_mover(spec)) if ai else None
    return Playtest(variant, spec.game.name, human, home), problems


def check_display() -> None:
    """The client needs a screen: say so before building anything."""
    if not os.environ.get("DISPLAY"):
        raise PlayError("no display (DISPLAY is not set): run it on a desktop, or under xvfb-run")


def find_client() -> real_client.Driver:
    """The installed client, a java and the driver compiled for it: what is missing is said before
    anything is built."""
    try:
        return real_client.find_driver()
    except real_client.ClientError as exc:
        raise PlayError(str(exc)) from exc


def run(playtest: Playtest, work: Path, echo: Callable[[str], None], driver: real_client.Driver) -> int:
    """Start the client on the packaged game and wait until it closes; its exit code."""
    try:
        started = real_client.start(playtest.home, playtest.game, work, human=playtest.human, driver=driver)
    except OSError as exc:  # a java that does not start (the driver was found before the build)
        raise PlayError(f"the client did not start: {exc}") from exc

    def stop(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        try:
            started.wait_for(real_client.READY, START_TIMEOUT)
        except real_client.ClientError as exc:
            raise PlayError(str(exc)) from exc
        who = f"you play {playtest.human}, the Fast AI the others" if playtest.human else "every player is human"
        echo(f"playing '{playtest.game}' in TripleA 1.9 ({who}); close its window to end")
        return started.process.wait()
    finally:
        started.stop()
        signal.signal(signal.SIGTERM, previous)


def temporary_folder() -> Path:
    return Path(tempfile.mkdtemp(prefix="triplea-forge-play-"))


def remove(folder: Path) -> None:
    shutil.rmtree(folder, ignore_errors=True)
