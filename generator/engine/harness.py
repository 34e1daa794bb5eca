"""Run the real TripleA 1.9 engine (Debian package ``triplea``) through a small Java harness.

The harness sources live in ``generator/engine/java``; they are compiled against the installed jar on
first use and cached under ``${XDG_CACHE_HOME:-~/.cache}/triplea-forge/harness-<hash>/`` (``javac``).

``dump`` parses game XMLs with the engine's own ``GameParser`` and returns, per file, a canonical
JSON view of the parsed ``GameData`` (see ``generator/engine/java/GameDump.java`` for the layout), or
``{"error": ..., "saxErrors": [...]}`` when the engine rejected the file.

``play`` runs all-AI games for N rounds and returns, per file, what happened (see
``generator/engine/java/PlayReport.java``), reporting each step as it starts through a callback.
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from generator.engine.errors import EngineError, EngineNotFound, HarnessError, JsonDict
from generator.engine.javac import compiled_classes, proof_sources
from generator.engine.sandbox import JVM_XML_FENCES, WentQuiet, engine_input, kill_group, run_group
from generator.installed_map import default_maps_folder
from generator.paths import JAR_ENV, engine_jar

__all__ = [
    "Engine",
    "EngineError",
    "EngineNotFound",
    "HarnessError",
    "JsonDict",
    "PlayEvent",
    "dump",
    "find_engine",
]

log = logging.getLogger(__name__)

MAIN_CLASS = "forge.ForgeHarness"
CLIENT_CLASS = "ForgeClient"  # the client's driver (client/ForgeClient.java), in no package
# The engine reads ./game_engine.properties (engine version) relative to the working directory.
PROPERTIES_NAME = "game_engine.properties"
DEFAULT_HEAP = "384m"
DEFAULT_TIMEOUT = 300.0
# Peak heap used over 2 rounds of Revised: FastAI ~250 MB, ProAI 300-700 MB (RSS 0.4 and 0.5-1.1
# GB). The caps leave room for bigger maps and keep two checks side by side far below 24 GB.
PLAY_HEAP = {"fast": "768m", "weak": "768m", "pro": "1g"}
# A JVM over in seconds (a parse, a scenario's few steps, a look at the client) is done before
# the optimising compiler pays: the serial GC and C1 only start it faster and spend less CPU (a
# shipped variant's 14 proof scenarios: 6.5 CPU s with C2, 3.1 without; a look at a Revised-map
# game in the client: 8.6 and 3.9), in the same wall time or less.
# A game runs for seconds to minutes and wants the optimising compiler.
SHORT_JVM_OPTIONS = ("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
# The AIs keep reaching new code all game long, and with the JIT's default thresholds the
# optimising compiler (C2) compiled ~7,800 methods in 4 Fast-AI games of a Revised-map game: a
# third of the JVM's CPU, on a second core. Ten times the thresholds leave C2 the truly hot code:
# 25 % less CPU per game, the game thread no slower (4 games x 3 rounds of one shipped variant, 8 x
# 6 of another; 3, 5 and 30 measured worse), and JVMs side by side no longer spend their cores
# compiling what each compiles again. The throughput collector suits a batch that never waits on a
# user: the very same four games (reproducible, 2 rounds of three shipped variants) took 4.5 % less
# CPU and 3 % less time than with G1, three runs each; the serial collector was no better than G1.
PLAY_JVM_OPTIONS: tuple[str, ...] = ("-XX:CompileThresholdScaling=10", "-XX:+UseParallelGC")
# The harness resets the engine's own random sources before each game (Determinism.java); what
# is left is the order of hash sets keyed by objects without a hash of their own, which follows
# the JVM's identity hash codes. A constant identity hash makes those sets iterate in insertion
# order, so a game plays the same wherever it runs in a JVM (at a CPU cost: see docs/how-to/balance-study.md).
REPRODUCIBLE_JVM_OPTIONS = ("-XX:+UnlockExperimentalVMOptions", "-XX:hashCode=2")


def processors_per_jvm(jvms: int) -> int:
    """The cores each of ``jvms`` JVMs side by side may size its threads for: its share.

    A lone Fast-AI JVM keeps 1.1-1.3 cores busy (its JIT compiler threads run beside the game);
    JVMs that each believe they own every core fight over them instead.
    """
    return max(1, (os.cpu_count() or 1) // max(1, jvms))


PlayEvent = JsonDict
"""One ``{"event": "step", "path", "round", "index", "steps", "rounds", "step"}`` progress line."""


# A game to play: its file and seed, and optionally an action policy of its own.
PlayedGame = tuple[Path, int] | tuple[Path, int, str]


@dataclass(frozen=True)
class Engine:
    """A located engine installation plus the Java tools needed to drive it."""

    jar: Path
    properties: Path
    java: str
    javac: str

    def harness_dir(self) -> Path:
        """Compiled harness classes for these sources, the proofs in use and this jar, compiling them if
        needed (the scenario driver finds the proofs' classes there: generator/engine/javac.py)."""
        marker = "forge/ForgeHarness.class"
        return compiled_classes(self.javac, self.jar, "java", "harness", marker, proof_sources())

    def client_dir(self) -> Path:
        """The compiled driver of the 1.9 client (`client/ForgeClient.java`), compiling it if needed.

        Compiled once like the harness, not run from source: the source launcher compiled it again
        at every start (0.6 of the 4 CPU seconds a look at a game in the client costs).
        """
        return compiled_classes(self.javac, self.jar, "client", "client", f"{CLIENT_CLASS}.class")

    def too_old_for(self, game: Path) -> str | None:
        """The `<triplea minimumVersion>` of a game this engine (1.9) refuses to play, else None."""
        with open(game, "rb") as stream:
            head = stream.read(4096).decode("utf-8", "replace")
        found = re.search(r'<triplea\s+minimumVersion="([^"]+)"', head)
        if found is None:
            return None
        wanted = tuple(int(p) for p in re.findall(r"\d+", found.group(1))[:2])
        return found.group(1) if wanted > (1, 9) else None

    def run(
        self,
        args: Sequence[str],
        *,
        heap: str = DEFAULT_HEAP,
        timeout: float | None = DEFAULT_TIMEOUT,
        jvm_options: Sequence[str] = SHORT_JVM_OPTIONS,
        main_class: str = MAIN_CLASS,
        idle_timeout: float | None = None,
    ) -> subprocess.CompletedProcess[str]:
        """Run the harness (or another class compiled with it) with ``args`` in a throw-away sandbox;
        with IDLE_TIMEOUT, it is stopped when it prints no line for that long."""
        with self._sandbox() as work:
            cmd = self._command(args, work, heap, jvm_options, main_class)
            try:
                return run_group(cmd, timeout, idle_timeout=idle_timeout, cwd=work, encoding="utf-8")
            except subprocess.TimeoutExpired as exc:
                after = f"with no output for {idle_timeout:g} s" if isinstance(exc, WentQuiet) else f"after {timeout} s"
                raise HarnessError(f"engine harness timed out {after}: {' '.join(args[:3])}") from exc

    def play(
        self,
        paths: Sequence[Path],
        *,
        rounds: int = 2,
        ai: str = "fast",
        seed: int = 1,
        actions: str = "none",
        heap: str | None = None,
        timeout: float | None = None,
        on_event: Callable[[PlayEvent], None] | None = None,
    ) -> dict[str, JsonDict]:
        """Play every file for ``rounds`` rounds in one JVM; map ``str(path)`` to its report.

        ``rounds=0`` only parses; ``timeout`` is per game; ``actions`` is the harness's policy for
        the user and political actions the AIs never take (rules[:P][;without=A,B], none, random,
        cover, all-early). Raises HarnessError when the JVM dies, times out or prints something
        unreadable; the error's ``reports`` holds the files finished before that.
        """
        try:
            played = self.play_games(
                [(Path(p), seed) for p in paths],
                rounds=rounds,
                ai=ai,
                actions=actions,
                heap=heap,
                timeout=timeout,
                on_event=on_event,
            )
        except HarnessError as exc:
            finished = {str(paths[i]): r for i, r in enumerate(exc.games) if r is not None}
            raise HarnessError(str(exc), games=exc.games, reports=finished) from exc
        return {str(p): r for p, r in zip(paths, played, strict=True)}

    def play_games(
        self,
        games: Sequence[PlayedGame],
        *,
        rounds: int = 2,
        ai: str = "fast",
        actions: str = "none",
        heap: str | None = None,
        timeout: float | None = None,
        on_event: Callable[[PlayEvent], None] | None = None,
        processors: int | None = None,
        reproducible: bool = False,
        on_report: Callable[[int, JsonDict], None] | None = None,
    ) -> list[JsonDict]:
        """Play each (file, seed) in turn in one warm JVM; the reports in the same order.

        The same file may come with many seeds; a game given as (file, seed, policy) plays with its
        own action policy instead of ``actions`` (restricted play). On failure the HarnessError's ``games`` holds the
        reports finished before it (None for the rest). ``processors`` caps the cores the JVM sees:
        the AI's odds calculators, the JIT and the collector size their threads by it, so JVMs
        side by side each get their share instead of fighting over every core. ``on_report`` gets
        each game's index and report the moment the game ends (a long batch streams its results).
        """
        options: tuple[str, ...] = SHORT_JVM_OPTIONS if rounds <= 0 else PLAY_JVM_OPTIONS
        if processors:
            options = (*options, f"-XX:ActiveProcessorCount={processors}")
        if reproducible:
            options = (*options, *REPRODUCIBLE_JVM_OPTIONS)
        with self._sandbox() as work, (work / "stderr.txt").open("w+", encoding="utf-8") as err:
            inputs = [str(engine_input(Path(game[0]), work, i).resolve()) for i, game in enumerate(games)]
            found: list[JsonDict | None] = [None] * len(games)
            args = ["play", "--rounds", str(rounds), "--ai", ai, "--actions", actions]
            current = actions
            for path, game in zip(inputs, games, strict=True):
                policy = game[2] if len(game) > 2 else actions
                if policy != current:  # --actions, like --seed, holds for the files after it
                    args += ["--actions", policy]
                    current = policy
                args += ["--seed", str(game[1]), path]
            cmd = self._command(args, work, heap or PLAY_HEAP.get(ai, "1g"), options)
            # stderr goes to a file: an engine that prints a lot must never block on a full pipe.
            proc = subprocess.Popen(
                cmd, cwd=work, stdout=subprocess.PIPE, stderr=err, text=True, encoding="utf-8", start_new_session=True
            )
            expired, finished = threading.Event(), threading.Event()
            deadline = time.monotonic() + (timeout or 0)

            def watch() -> None:  # the clock restarts with every game
                while not finished.wait(0.5):
                    if time.monotonic() > deadline:
                        expired.set()
                        kill_group(proc)
                        return

            if timeout:
                threading.Thread(target=watch, daemon=True).start()
            last: PlayEvent = {}
            try:
                assert proc.stdout is not None
                for line in proc.stdout:
                    try:
                        record = json.loads(line)
                    except json.JSONDecodeError as exc:
                        raise HarnessError(f"unreadable harness output: {line[:200]!r}") from exc
                    if record.get("event") == "report":
                        # Games are played and reported in argument order (a file may repeat).
                        done = sum(r is not None for r in found)
                        if done >= len(inputs) or record.get("path") != inputs[done]:
                            raise HarnessError(f"harness report out of order: {str(record.get('path'))[:200]}")
                        found[done] = record["report"]
                        deadline, last = time.monotonic() + (timeout or 0), {}
                        if on_report is not None:
                            on_report(done, record["report"])
                    else:
                        last = record
                        if on_event is not None:
                            on_event(record)
                code = proc.wait()
            finally:
                finished.set()
                if proc.poll() is None:
                    kill_group(proc)
                    proc.wait()
            if any(r is None for r in found):
                err.seek(0)
                where = f" in round {last.get('round')}, step {last.get('step')}" if last else ""
                if expired.is_set():
                    problem = f"engine harness timed out after {timeout:g} s{where}"
                else:
                    problem = f"engine harness exited with {code}{where}; stderr tail:\n{_tail(err.read(), 15)}"
                raise HarnessError(problem, games=found)
        return [r for r in found if r is not None]

    def dump(self, paths: Sequence[Path], *, heap: str = DEFAULT_HEAP) -> dict[str, JsonDict]:
        """Parse every file in one JVM; map ``str(path)`` (as given) to its canonical dump."""
        if not paths:
            return {}
        with tempfile.TemporaryDirectory(prefix="triplea-forge-input-") as inputs:
            # The JVM runs in its own directory, so relative paths must be made absolute for it.
            absolute = [str(engine_input(Path(p), Path(inputs), i).resolve()) for i, p in enumerate(paths)]
            proc = self.run(["dump", *absolute], heap=heap)
        if proc.stderr:
            log.debug("engine output:\n%s", proc.stderr)
        lines = [line for line in proc.stdout.splitlines() if line.strip()]
        if proc.returncode != 0 or len(lines) != len(paths):
            raise HarnessError(
                f"engine harness exited with {proc.returncode} after {len(lines)} of {len(paths)} "
                f"files; stderr tail:\n{_tail(proc.stderr)}"
            )
        result: dict[str, JsonDict] = {}
        for given, expected, line in zip(paths, absolute, lines, strict=True):
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise HarnessError(f"unreadable harness output for {given}: {exc}") from exc
            if not isinstance(record, dict) or record.get("path") != expected:
                raise HarnessError(f"harness output out of order: expected {expected}")
            doc = record.get("dump")
            if not isinstance(doc, dict):
                raise HarnessError(f"harness output for {given} has no dump object")
            result[str(given)] = doc
        return result

    @contextmanager
    def _sandbox(self) -> Iterator[Path]:
        """A private working folder holding the engine's version file (read from the cwd)."""
        with tempfile.TemporaryDirectory(prefix="triplea-forge-run-") as sandbox:
            work = Path(sandbox)
            shutil.copyfile(self.properties, work / PROPERTIES_NAME)
            yield work

    def _command(
        self, args: Sequence[str], work: Path, heap: str, jvm_options: Sequence[str], main_class: str = MAIN_CLASS
    ) -> list[str]:
        classes = self.harness_dir()
        return [
            self.java,
            f"-Xmx{heap}",
            *jvm_options,
            "-Djava.awt.headless=true",
            "-Dtriplea.headless=true",
            "-Djava.util.prefs.PreferencesFactory=forge.MemPrefs$Factory",
            # Autosaves, downloadedMaps and prefs would otherwise land in the real home.
            f"-Duser.home={work}",
            # The installed maps, for a game's texts (notifications, victory messages): PlayRun.
            f"-Dforge.maps={default_maps_folder()}",
            "-Dfile.encoding=UTF-8",
            *JVM_XML_FENCES,
            "-cp",
            f"{classes}{os.pathsep}{self.jar}",
            main_class,
            *args,
        ]


def find_engine() -> Engine:
    """Locate triplea.jar ($TRIPLEA_JAR or the Debian path) and the JDK tools."""
    jar = engine_jar()
    if not jar.is_file():
        raise EngineNotFound(f"TripleA engine not found at {jar} (set {JAR_ENV} or run: apt-get install triplea)")
    properties = jar.parent / PROPERTIES_NAME
    if not properties.is_file():
        raise EngineNotFound(f"{properties} missing next to {jar} (reinstall: apt-get install triplea)")
    java_home = os.environ.get("JAVA_HOME")
    java = _tool("java", java_home)
    javac = _tool("javac", java_home)
    if java is None or javac is None:
        raise EngineNotFound("java/javac not found (install a JDK >= 11, e.g. apt-get install default-jdk-headless)")
    return Engine(jar=jar, properties=properties, java=java, javac=javac)


def dump(paths: Sequence[Path], engine: Engine | None = None) -> dict[str, JsonDict]:
    """Canonical engine dumps of ``paths`` (one JVM for all of them)."""
    return (engine or find_engine()).dump(paths)


# ---------------------------------------------------------------------------- helpers


def _tool(name: str, java_home: str | None) -> str | None:
    if java_home:
        candidate = Path(java_home) / "bin" / name
        if candidate.is_file():
            return str(candidate)
    return shutil.which(name)


def _tail(text: str, lines: int = 40) -> str:
    return "\n".join(text.splitlines()[-lines:])
