"""Prove rules in the real TripleA 1.9 engine: run the `forge.Scenario` driver on a built game.

Each scenario (the driver: ``generator/engine/java/Scenario.java``) loads the game XML into fresh headless games,
sets the state up through the engine's own change objects, runs the steps and delegates where the
rule lives, and reports facts as JSON; the tests assert on them (``tests/proofs.py`` ties each test
to the ledger entries it proves). The scenarios live beside their variants (``rules/<variant>/proofs/``, the
classes the harness compiles with the driver, and the manifest that says what each proves and on which
variants' games it is played); ``generator/catalog/scenarios.py`` (SCENARIOS) reads the manifests, below
the stages, where the spec checks read them too. The JVM
is started the way ``generator.engine.Engine`` starts its harness: the same compiled classes
(``Engine.harness_dir()``), headless flags, a private working folder holding the engine's version
file, and ``user.home`` inside it.

`run_scenarios` plays many (scenario, game) runs in one JVM (``forge.Scenario --batch``): each run
loads its game afresh, and the JVM's start and the engine's class loading are paid once, not once
per run (the mutation sweep plays hundreds).

``python -m generator.engine.scenario SCENARIO [FILE]`` prints the facts (FILE defaults to the built game of
the first variant the scenario's manifest plays it on: ``output/games/<variant>.xml``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from generator.catalog.scenarios import SCENARIOS
from generator.engine.harness import SHORT_JVM_OPTIONS, Engine, EngineError, HarnessError, find_engine
from generator.errors import TripleaForgeError

__all__ = ["SCENARIOS", "ScenarioError", "default_game", "players", "run_scenario", "run_scenarios"]

MAIN_CLASS = "forge.Scenario"
GAMES = Path("output/games")  # where `build` writes the built games
DEFAULT_HEAP = "512m"
DEFAULT_TIMEOUT = 600.0
# A batch's time limit per run: the slowest scenario takes ~5 s alone on a loaded machine.
BATCH_TIMEOUT_PER_RUN = 60.0
# A batch's run that reports nothing for this long is stuck (a mutant can make a battle on loaded
# dice go on for ever: nobody can hit): its JVM is stopped, the run is an error, the rest go on in
# a new JVM. The slowest scenario takes a few seconds alone.
RUN_TIMEOUT = 180.0
# With several JVMs (`run_scenarios(jobs=...)`): the runs are split into this many hands per JVM.
HANDS_PER_JOB = 4
JsonDict = dict[str, Any]


class ScenarioError(EngineError):
    """The scenario driver failed or reported an error."""


def default_game(name: str) -> Path:
    """The built game scenario NAME is played on first: its manifest's first variant's, in `GAMES`."""
    info = SCENARIOS.get(name)
    if info is None:
        raise ScenarioError(f"unknown scenario '{name}' (known: {', '.join(SCENARIOS)})")
    if not info.variants:
        raise ScenarioError(f"scenario '{name}' is played on no variant's game: name the game file")
    return GAMES / f"{info.variants[0]}.xml"


def run_scenario(
    name: str,
    game: Path,
    *,
    map_files: Path | None = None,
    engine: Engine | None = None,
    heap: str = DEFAULT_HEAP,
    timeout: float = DEFAULT_TIMEOUT,
) -> JsonDict:
    """The facts scenario NAME reports for GAME; raises ScenarioError when it fails.

    MAP_FILES is a folder with the map's .properties files (notifications, actionstext...) as the
    packaged map holds them: TripleA 1.9 reads trigger messages from there, and a victory trigger
    without its message does not end the game.
    """
    if name not in SCENARIOS:
        raise ScenarioError(f"unknown scenario '{name}' (known: {', '.join(SCENARIOS)})")
    engine = engine or find_engine()
    try:
        proc = engine.run(
            [name, str(Path(game).resolve()), *([str(Path(map_files).resolve())] if map_files else [])],
            heap=heap,
            timeout=timeout,
            jvm_options=SHORT_JVM_OPTIONS,
            main_class=MAIN_CLASS,
        )
    except HarnessError as exc:
        raise ScenarioError(f"scenario '{name}': {exc}") from exc
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if not lines:
        raise HarnessError(f"scenario '{name}' printed no result (exit {proc.returncode}):\n{_tail(proc.stderr)}")
    try:
        record = json.loads(lines[-1])
    except json.JSONDecodeError as exc:
        raise HarnessError(f"unreadable result of scenario '{name}': {exc}") from exc
    facts = record.get("facts") if isinstance(record, dict) else None
    if not isinstance(facts, dict):
        raise HarnessError(f"scenario '{name}' result has no facts")
    if proc.returncode != 0 or "error" in facts:
        raise ScenarioError(f"scenario '{name}' failed: {facts.get('error')}\n{_tail(proc.stderr)}")
    return facts


def run_scenarios(
    runs: Sequence[tuple[str, Path]],
    *,
    map_files: Path | None = None,
    engine: Engine | None = None,
    heap: str = DEFAULT_HEAP,
    jobs: int = 1,
    seconds: list[float] | None = None,
) -> list[JsonDict]:
    """The facts of each (scenario, game) run, in order, played in as few JVMs as possible; with
    SECONDS, how long each run took in its JVM is added to it, in order (0 for a run that failed).

    A run that fails has {"error": ...} as its facts (what `run_scenario` raises as ScenarioError);
    a JVM that dies or hangs half-way costs the run it was playing (an error) and the rest go on in
    a new JVM. With JOBS above 1 the runs are dealt out to that many JVMs playing side by side.
    """
    unknown = sorted({name for name, _ in runs if name not in SCENARIOS})
    if unknown:
        raise ScenarioError(f"unknown scenario '{unknown[0]}' (known: {', '.join(SCENARIOS)})")
    engine = engine or find_engine()
    engine.harness_dir()  # compiled once, before the JVMs start side by side
    jobs = max(1, min(jobs, len(runs)))
    timed: list[tuple[JsonDict, float]]
    if jobs == 1:
        timed = _run_in_one_jvm(runs, map_files, engine, heap)
    else:
        timed = _deal_out(runs, map_files, engine, heap, jobs)
    if seconds is not None:
        seconds[:] = [took for _, took in timed]
    return [facts for facts, _ in timed]


def players(names: Sequence[str], engine: Engine | None = None) -> dict[str, str | None]:
    """The compiled proof class that plays each scenario of NAMES (None: none does), as the driver
    finds them (its `--which`); two classes playing one name are both named, space-separated."""
    engine = engine or find_engine()
    proc = engine.run(["--which", *names], jvm_options=SHORT_JVM_OPTIONS, main_class=MAIN_CLASS)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise HarnessError(f"the scenario driver could not say who plays the scenarios:\n{_tail(proc.stderr)}")
    found = json.loads(lines[-1])
    return {name: found.get(name) for name in names}


def _deal_out(
    runs: Sequence[tuple[str, Path]], map_files: Path | None, engine: Engine, heap: str, jobs: int
) -> list[tuple[JsonDict, float]]:
    """The runs played by JOBS JVMs side by side, in the runs' order."""
    # Each scenario's runs dealt round-robin into a few hands per JVM, which the JVMs take as they
    # finish the last: scenarios differ a hundredfold in time, so even shares of runs are not even
    # shares of work; a hand is big enough that a JVM's start is a small part of it.
    order = sorted(range(len(runs)), key=lambda i: runs[i][0])
    hands = [order[k :: jobs * HANDS_PER_JOB] for k in range(min(len(runs), jobs * HANDS_PER_JOB))]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        played = list(pool.map(lambda hand: _run_in_one_jvm([runs[i] for i in hand], map_files, engine, heap), hands))
    results: list[tuple[JsonDict, float]] = [({}, 0.0)] * len(runs)
    for hand, facts in zip(hands, played, strict=True):
        for i, fact in zip(hand, facts, strict=True):
            results[i] = fact
    return results


def _run_in_one_jvm(
    runs: Sequence[tuple[str, Path]], map_files: Path | None, engine: Engine, heap: str
) -> list[tuple[JsonDict, float]]:
    """The runs played one after another in one JVM (a new one after a JVM that died): each run's
    facts and how long it took there."""
    results: list[tuple[JsonDict, float] | None] = [None] * len(runs)
    start = 0
    while start < len(runs):
        pending = runs[start:]
        with tempfile.TemporaryDirectory(prefix="forge-scenarios-") as folder:
            listing = Path(folder) / "runs.tsv"
            extra = f"\t{Path(map_files).resolve()}" if map_files else ""
            listing.write_text(
                "".join(f"{name}\t{Path(game).resolve()}{extra}\n" for name, game in pending), encoding="utf-8"
            )
            failure = ""
            try:
                proc = engine.run(
                    ["--batch", str(listing)],
                    heap=heap,
                    timeout=BATCH_TIMEOUT_PER_RUN * len(pending),
                    jvm_options=SHORT_JVM_OPTIONS,
                    main_class=MAIN_CLASS,
                    idle_timeout=RUN_TIMEOUT,
                )
                output, failure = proc.stdout, _tail(proc.stderr) if proc.returncode else ""
            except HarnessError as exc:  # timed out: the runs it reported before still count
                output, failure = str(getattr(exc.__cause__, "output", None) or ""), str(exc)
        done = 0
        for line in output.splitlines():
            if not line.startswith("{"):
                continue
            record = json.loads(line)
            results[start + int(record["index"])] = (record["facts"], float(record.get("ms", 0)) / 1000)
            done = max(done, int(record["index"]) + 1)
        if done < len(pending):  # the JVM died or hung in the run after the last it reported
            results[start + done] = ({"error": f"the engine stopped: {failure or 'no result'}"}, 0.0)
            done += 1
        start += done
    return [r if r is not None else ({"error": "no result"}, 0.0) for r in results]


def _tail(text: str, lines: int = 30) -> str:
    return "\n".join(text.splitlines()[-lines:])


def main(argv: Sequence[str] | None = None) -> int:
    try:
        known = sorted(SCENARIOS)  # the proofs in use: a broken manifest is said, not a traceback
    except TripleaForgeError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    parser = argparse.ArgumentParser(prog="python -m generator.engine.scenario", description=__doc__.split("\n\n")[0])
    parser.add_argument("scenario", choices=known, help="which rule to prove")
    parser.add_argument(
        "game", nargs="?", type=Path, help="game XML (default: the first game its proofs play it on, in output/games)"
    )
    args = parser.parse_args(argv)
    try:
        facts = run_scenario(args.scenario, args.game or default_game(args.scenario))
    except TripleaForgeError as exc:  # the engine's errors, and the proofs' (a manifest, a compile)
        print(f"error: {exc}", file=sys.stderr)
        return 1
    json.dump(facts, sys.stdout, indent=1, sort_keys=True)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
