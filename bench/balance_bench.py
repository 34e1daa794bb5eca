"""Benchmark of the balance lab: game-rounds per CPU-minute per variant, and the gain of workers.

    python -m bench.balance_bench            # lhtr, aare, aarhe: 4 games x 3 rounds; lhtr 8 x 3 on 1 and 2 workers
    python -m bench.balance_bench --quick    # lhtr only: 2 games x 1 round; 2 games on 1 and 2 workers

Fast AI, actions 'random' (as `balance` plays). Each line: wall seconds, the CPU seconds of the
JVMs, game-rounds per CPU-minute, and where the engine's time went (the harness's per-delegate
timings summed over the games: the AI's turn is inside the delegate of the step it plays).
Target: 2 workers play the same games >= 1.7x faster than 1 (on 2 otherwise idle cores).
"""

from __future__ import annotations

import argparse
import os
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from generator.balance import lab
from generator.balance.records import Record
from generator.engine.harness import Engine, find_engine

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "output" / "games"
SPEEDUP_TARGET = 1.7


def _throughput(engine: Engine, variant: str, games: int, rounds: int) -> str:
    plan = lab.plan([(variant, GAMES / f"{variant}.xml")], games, 1)
    timings: Counter[str] = Counter()

    def play() -> list[Record]:
        # One JVM for the games of one variant, so its CPU is that variant's alone.
        reports = engine.play_games([(g.path, g.seed) for g in plan], rounds=rounds, actions="random")
        for report in reports:
            timings.update(report.get("timings", {}).get("byDelegate", {}))
        return []

    _, wall, cpu = lab.timed(play)
    game_rounds = games * rounds
    per_minute = game_rounds / (cpu / 60) if cpu else 0.0
    total = sum(timings.values()) or 1
    top = ", ".join(f"{name} {ms / 1000:.0f} s ({ms / total:.0%})" for name, ms in timings.most_common(3))
    return (
        f"{variant:<8} {games} games x {rounds} rounds: wall {wall:6.1f} s, JVM CPU {cpu:6.1f} s, "
        f"{per_minute:5.1f} game-rounds per CPU-minute, {cpu / game_rounds:5.1f} CPU s per game-round; "
        f"engine time by delegate: {top}"
    )


def _speedup(engine: Engine, variant: str, games: int, rounds: int) -> tuple[str, float]:
    plan = lab.plan([(variant, GAMES / f"{variant}.xml")], games, 1)
    settings = lab.Settings(rounds=rounds)
    walls: dict[int, float] = {}
    for workers in (1, 2):

        def play(count: int = workers) -> list[Record]:
            return lab.play_local(engine, plan, settings, count)

        _, walls[workers], _ = lab.timed(play)
    ratio = walls[1] / walls[2] if walls[2] else 0.0
    verdict = "met" if ratio >= SPEEDUP_TARGET else "missed"
    line = (
        f"{variant} {games} games x {rounds} rounds: 1 worker {walls[1]:.1f} s, 2 workers {walls[2]:.1f} s: "
        f"speed-up {ratio:.2f}x (target >= {SPEEDUP_TARGET}x: {verdict})"
    )
    return line, ratio


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.balance_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="lhtr only, 1 round")
    args = parser.parse_args(argv)
    engine = find_engine()
    engine.harness_dir()
    print(f"cores: {os.cpu_count()}, load average before: {os.getloadavg()[0]:.1f}")
    variants = ("lhtr",) if args.quick else ("lhtr", "aare", "aarhe")
    for variant in variants:
        print(_throughput(engine, variant, 2 if args.quick else 4, 1 if args.quick else 3), flush=True)
    # Enough games that a worker's JVM is warm for most of them, as in a real study.
    line, _ = _speedup(engine, "lhtr", 2 if args.quick else 8, 1 if args.quick else 3)
    print(line)
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
