"""A sweep's scenario runs: the proofs' scenarios played on the mutants the dumps left alive.

Three things keep the runs few and short. Mutants the engine dumps alike are one game to the
engine (a switch dropped and the same switch set to its default): each scenario is played once for
all of them. The runs come in waves: a scenario for every mutant, then another for those still
alive, and so on; a mutant is done with at its first failed proof. And each mutant plays its
cheapest scenarios first: each scenario is played once on the original game before the waves,
for the verdict to compare with (and to be sure it holds there), which also times it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from generator.engine.harness import Engine
from generator.engine.scenario import run_scenarios
from generator.engine.sweep_games import Game

__all__ = ["SCENARIO_JOBS", "Verdict", "play"]

JsonDict = dict[str, Any]
# JVMs playing a sweep's scenario runs side by side: two per core, so a core is not left idle while
# a JVM starts or loads a game (each JVM takes up to 512 MB of heap, hence the cap).
SCENARIO_JOBS = min(8, 2 * (os.cpu_count() or 1))
# (scenario, its facts on a mutant) -> whether the proof still holds there.
Verdict = Callable[[str, JsonDict], bool]


def play(
    alive: Sequence[Game],
    scenarios: dict[str, list[str]],
    dumps: dict[str, JsonDict],
    original: Path,
    verdict: Verdict | None,
    map_files: Path | None,
    engine: Engine,
) -> int:
    """Play, in waves, the scenarios SCENARIOS names for each game's edit (in the proofs' order)
    on the games left ALIVE, killing those a proof fails on; the number of runs played."""
    groups: dict[str, list[Game]] = {}
    for game in alive:
        groups.setdefault(json.dumps(dumps.get(str(game.path), {}), sort_keys=True), []).append(game)
    names = sorted({s for game in alive for s in scenarios[game.edit]})
    if not names:
        return 0
    # Each scenario once on the original game: what the verdict compares with, and how long it
    # takes, so that each mutant plays its cheapest scenarios first.
    took: list[float] = []
    originals = run_scenarios(
        [(name, original) for name in names], map_files=map_files, engine=engine, jobs=SCENARIO_JOBS, seconds=took
    )
    baseline: dict[str, JsonDict] = {}
    for name, found in zip(names, originals, strict=True):
        if "error" in found or (verdict is not None and not verdict(name, found)):
            raise ValueError(f"scenario '{name}' does not hold on the original game: {found.get('error', found)}")
        baseline[name] = found
    cost = dict(zip(names, took, strict=True))
    cheap_first = {edit: sorted(wanted, key=lambda name: cost[name]) for edit, wanted in scenarios.items()}
    played: dict[tuple[str, str], bool] = {}  # (group, scenario) -> the proof holds
    runs = len(originals)
    while True:
        wave: list[tuple[str, str, Path]] = []  # (group, scenario, the group's first game)
        for key, games in groups.items():
            wanted = [s for g in games if not g.killed for s in cheap_first[g.edit] if (key, s) not in played]
            if wanted:
                wave.append((key, min(wanted, key=lambda name: cost[name]), games[0].path))
        if not wave:
            return runs
        facts = run_scenarios(
            [(name, path) for _, name, path in wave], map_files=map_files, engine=engine, jobs=SCENARIO_JOBS
        )
        runs += len(facts)
        for (key, name, _), found in zip(wave, facts, strict=True):
            holds = "error" not in found and (verdict(name, found) if verdict else found == baseline[name])
            played[(key, name)] = holds
            if not holds:
                for game in groups[key]:
                    game.killed = game.killed or name in scenarios[game.edit]
