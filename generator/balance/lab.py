"""Play a balance study: N seeded all-AI games per variant, on local workers or a Ray cluster.

Locally, W workers each run one JVM that plays its share of the games one after the other (a
warm JVM plays a game with less CPU than a fresh one: no class loading, the JIT already done).
Games are dealt over the workers in (seed, variant) order, snake-wise (0, 1, ..., W-1, W-1, ...,
0, 0, 1, ...), so every worker gets a similar mix of variants even when there are as many
variants as workers (plain round-robin would give each worker one variant, and the slower
variant's worker would finish last alone). On a Ray cluster a task plays a few games of one
variant (see cluster.py); the records are the same.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from generator.balance.records import Record, from_report
from generator.engine.batches import play_through
from generator.engine.harness import Engine, PlayedGame, processors_per_jvm

# Per game: JVM start and parse, then each round (Fast AI on Revised-sized maps: ~10-40 s a round
# on this project's 2-core machine; the Pro AI several times that).
STARTUP_SECONDS = 120.0
ROUND_SECONDS = {"fast": 300.0, "pro": 1200.0}


@dataclass(frozen=True)
class Game:
    """One game of a study: a built variant and the seed of its dice and action policy.

    ``variant`` is the name the study reports it under; a game of restricted play ("aare without
    RuWinter") has the variant's file and an action policy of its own (``actions``).
    """

    variant: str
    path: Path
    seed: int
    actions: str | None = None

    def played(self) -> PlayedGame:
        return (self.path, self.seed) if self.actions is None else (self.path, self.seed, self.actions)


@dataclass(frozen=True)
class Settings:
    rounds: int
    ai: str = "fast"
    actions: str = "rules"
    # The same seed plays the same game, AIs' choices included (harness.REPRODUCIBLE_JVM_OPTIONS).
    reproducible: bool = False

    def timeout(self) -> float:
        return STARTUP_SECONDS + self.rounds * ROUND_SECONDS.get(self.ai, 1200.0)


def plan(variants: Sequence[tuple[str, Path, str | None]], games: int, seed: int) -> list[Game]:
    """Seeds seed..seed+games-1 for every (name, file, own action policy or None): the same seeds on
    each side of a comparison, so game i of every variant is paired with game i of the others."""
    return [Game(name, path, seed + i, actions) for i in range(games) for name, path, actions in variants]


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)


def failed_record(game: Game, settings: Settings, problem: str) -> Record:
    """A game the engine could not finish: kept, so a study never silently drops games."""
    return {
        "variant": game.variant,
        "seed": game.seed,
        "ai": settings.ai,
        "actions": game.actions or settings.actions,
        "rounds": settings.rounds,
        "roundsCompleted": 0,
        "gameOver": False,
        "winners": [],
        "winningSide": None,
        "sides": {},
        "seconds": 0.0,
        "cpuSeconds": None,
        "errors": [problem],
        "perRound": [],
        "unitCosts": {},
        "actionsOpen": [],
        "actionsTaken": [],
        "replans": [],
        "deliveries": {},
    }


def deal(count: int, workers: int) -> list[list[int]]:
    """Indices 0..count-1 dealt snake-wise over ``workers`` shares."""
    shares: list[list[int]] = [[] for _ in range(max(1, workers))]
    for index in range(count):
        row, column = divmod(index, len(shares))
        shares[column if row % 2 == 0 else len(shares) - 1 - column].append(index)
    return shares


def play_local(
    engine: Engine,
    games: Sequence[Game],
    settings: Settings,
    workers: int,
    on_record: Callable[[Record], None] | None = None,
) -> list[Record]:
    """Play ``games`` on ``workers`` local JVMs; the records in the order of ``games``."""
    engine.harness_dir()  # compile once, before the workers race for it
    processors = processors_per_jvm(workers)
    lock = threading.Lock()
    done: dict[int, Record] = {}

    def finish(index: int, record: Record) -> None:
        with lock:
            done[index] = record
            if on_record is not None:
                on_record(record)

    def work(share: list[int]) -> None:
        def arrived(position: int, report: dict[str, object]) -> None:
            game = games[share[position]]
            finish(share[position], from_report(game.variant, game.seed, game.actions or settings.actions, report))

        def failed(position: int, problem: str, _seconds: float) -> None:
            finish(share[position], failed_record(games[share[position]], settings, problem))

        play_through(
            engine,
            [games[i].played() for i in share],
            rounds=settings.rounds,
            ai=settings.ai,
            actions=settings.actions,
            timeout=settings.timeout(),
            processors=processors,
            reproducible=settings.reproducible,
            on_report=arrived,
            on_failure=failed,
        )

    with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
        list(pool.map(work, [s for s in deal(len(games), workers) if s]))
    return [done[i] for i in range(len(games))]


def timed(action: Callable[[], list[Record]]) -> tuple[list[Record], float, float]:
    """Run ``action``; its result, wall seconds and the CPU seconds of the JVMs it started."""
    started, before = time.monotonic(), os.times()
    result = action()
    after = os.times()
    cpu = (after.children_user - before.children_user) + (after.children_system - before.children_system)
    return result, time.monotonic() - started, cpu
