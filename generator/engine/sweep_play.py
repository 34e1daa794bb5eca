"""A sweep's scenario runs: the proofs' scenarios played on the mutants the dumps left alive.

Two things keep the runs few. Mutants the engine dumps alike are one game to the engine (a switch
dropped and the same switch set to its default): each scenario is played once for all of them.
And the runs come in waves: a mutant's first scenario for every mutant, then its next for those
still alive, and so on; a mutant is done with at its first failed proof. Each scenario is played
once on the original game too, for the verdict to compare with (and to be sure it holds there).
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
    played: dict[tuple[str, str], bool] = {}  # (group, scenario) -> the proof holds
    baseline: dict[str, JsonDict] = {}
    runs = 0
    while True:
        wave: list[tuple[str, str, Path]] = []  # (group, scenario, the group's first game)
        for key, games in groups.items():
            wanted = [s for g in games if not g.killed for s in scenarios[g.edit] if (key, s) not in played]
            if wanted:
                wave.append((key, wanted[0], games[0].path))
        if not wave:
            return runs
        first = sorted({s for _, s, _ in wave} - set(baseline))
        facts = run_scenarios(
            [*((s, original) for s in first), *((s, path) for _, s, path in wave)],
            map_files=map_files,
            engine=engine,
            jobs=SCENARIO_JOBS,
        )
        runs += len(facts)
        for name, found in zip(first, facts, strict=False):
            if "error" in found or (verdict is not None and not verdict(name, found)):
                raise ValueError(f"scenario '{name}' does not hold on the original game: {found.get('error', found)}")
            baseline[name] = found
        for (key, name, _), found in zip(wave, facts[len(first) :], strict=True):
            holds = "error" not in found and (verdict(name, found) if verdict else found == baseline[name])
            played[(key, name)] = holds
            if not holds:
                for game in groups[key]:
                    game.killed = game.killed or name in scenarios[game.edit]
