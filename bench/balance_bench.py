"""Benchmark of the balance lab: game-rounds per CPU-minute per variant, and the gain of workers.

    python -m bench.balance_bench            # lhtr, aare, aarhe: 4 games x 3 rounds; lhtr 8 x 3 on 1 and 2 workers
    python -m bench.balance_bench --quick    # lhtr only: 2 games x 1 round; 2 games on 1 and 2 workers
    python -m bench.balance_bench --workers-only --flags default,serial-gc --repeat 3

Fast AI, actions 'random' (as `balance` plays). Each line: wall seconds, the CPU seconds of the
JVMs, game-rounds per CPU-minute, and where the engine's time went (the harness's per-delegate
timings summed over the games: the AI's turn is inside the delegate of the step it plays).
Target: 2 workers play the same games >= 1.4x faster than 1 (on 2 cores).

1 and 2 workers are measured interleaved (1 then 2, then 2 then 1, ...) with the load average
before each run: the machine is shared, and what the other processes take drifts over minutes,
so runs far apart would compare two loads rather than two worker counts. Each JVM flag set
(--flags) is measured the same way, interleaved with the others.
"""

from __future__ import annotations

import argparse
import os
import statistics
from collections import Counter
from collections.abc import Sequence
from functools import partial
from pathlib import Path

from generator.balance import lab
from generator.balance.records import Record
from generator.engine import harness
from generator.engine.harness import Engine, find_engine

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "output" / "games"
SPEEDUP_TARGET = 1.4
# JVM flags tried beside the harness's own (harness.PLAY_JVM_OPTIONS). Not here: an application
# class-data archive (AppCDS) of the engine's classes, which JDK 17 refuses while the harness's own
# classes are a directory on the class path ("non-empty directory"); the JDK's own archive is on
# by default (-Xshare:auto), and a worker's JVM starts once per study, so the start weighs little.
FLAG_SETS = {
    "default": (),
    # The harness's own choice is the parallel collector: a JVM refuses two, so each is turned off first.
    "serial-gc": ("-XX:-UseParallelGC", "-XX:+UseSerialGC"),
    "g1-gc": ("-XX:-UseParallelGC", "-XX:+UseG1GC"),
    "c1-only": ("-XX:TieredStopAtLevel=1",),
    "one-compiler": ("-XX:CICompilerCount=2", "-XX:-UseDynamicNumberOfCompilerThreads"),
}


def _throughput(engine: Engine, variant: str, games: int, rounds: int) -> str:
    plan = lab.plan([(variant, GAMES / f"{variant}.xml", None)], games, 1)
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


def _interleaved(
    engine: Engine, variant: str, games: int, rounds: int, flag_sets: Sequence[str], repeat: int
) -> tuple[list[str], dict[str, float]]:
    """1 and 2 workers for every flag set, interleaved; the lines to print and the median speed-ups."""
    plan = lab.plan([(variant, GAMES / f"{variant}.xml", None)], games, 1)
    settings = lab.Settings(rounds=rounds, actions="random")
    flags = {name: FLAG_SETS[name] for name in flag_sets}
    runs: dict[tuple[str, int], list[tuple[float, float, float]]] = {}
    base = harness.PLAY_JVM_OPTIONS
    lines = []
    for index in range(repeat):
        for name in flag_sets:
            for workers in (1, 2) if index % 2 == 0 else (2, 1):
                load = os.getloadavg()[0]
                harness.PLAY_JVM_OPTIONS = (*base, *flags[name])
                try:
                    _, wall, cpu = lab.timed(partial(lab.play_local, engine, plan, settings, workers))
                finally:
                    harness.PLAY_JVM_OPTIONS = base
                runs.setdefault((name, workers), []).append((wall, cpu, load))
                lines.append(
                    f"  run {index + 1} {name:<9} {workers} worker{'s' if workers > 1 else ' '}: wall {wall:6.1f} s, "
                    f"JVM CPU {cpu:6.1f} s, {cpu / (games * rounds):4.1f} CPU s per game-round, "
                    f"{games * 3600 / wall:5.0f} games an hour; load average before {load:.1f}"
                )
                print(lines[-1], flush=True)
    speedups = {}
    for name in flag_sets:
        ratios = [one[0] / two[0] for one, two in zip(runs[(name, 1)], runs[(name, 2)], strict=True)]
        speedups[name] = statistics.median(ratios)
        walls = {w: statistics.median(r[0] for r in runs[(name, w)]) for w in (1, 2)}
        loads = [r[2] for w in (1, 2) for r in runs[(name, w)]]
        verdict = "met" if speedups[name] >= SPEEDUP_TARGET else "missed"
        lines.append(
            f"{variant} {games} games x {rounds} rounds, {name} ({' '.join(flags[name]) or 'harness flags only'}): "
            f"1 worker {walls[1]:.1f} s, 2 workers {walls[2]:.1f} s (medians of {repeat}): speed-up "
            f"{speedups[name]:.2f}x (per pair {', '.join(f'{r:.2f}' for r in ratios)}; target >= {SPEEDUP_TARGET}x: "
            f"{verdict}); load average {min(loads):.1f}..{max(loads):.1f}"
        )
    return lines, speedups


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.balance_bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="lhtr only, 1 round")
    parser.add_argument("--workers-only", action="store_true", help="only 1 vs 2 workers, not the variants' CPU")
    parser.add_argument("--flags", default="default", help=f"comma-separated JVM flag sets: {', '.join(FLAG_SETS)}")
    parser.add_argument("--repeat", type=int, default=2, help="1-vs-2-worker pairs per flag set")
    parser.add_argument("--games", type=int, default=None, help="games of lhtr per run (default 8, quick 2)")
    parser.add_argument("--rounds", type=int, default=None, help="rounds a game (default 3, quick 1)")
    args = parser.parse_args(argv)
    unknown = [f for f in args.flags.split(",") if f not in FLAG_SETS]
    if unknown:
        parser.error(f"unknown flag set {', '.join(unknown)} (known: {', '.join(FLAG_SETS)})")
    engine = find_engine()
    engine.harness_dir()
    print(f"cores: {os.cpu_count()}, load average before: {os.getloadavg()[0]:.1f}")
    variants = ("lhtr",) if args.quick else ("lhtr", "aare", "aarhe")
    if not args.workers_only:
        for variant in variants:
            print(_throughput(engine, variant, 2 if args.quick else 4, 1 if args.quick else 3), flush=True)
    # Enough games that a worker's JVM is warm for most of them, as in a real study.
    games = args.games or (2 if args.quick else 8)
    rounds = args.rounds or (1 if args.quick else 3)
    lines, _ = _interleaved(engine, "lhtr", games, rounds, args.flags.split(","), 1 if args.quick else args.repeat)
    for line in lines[-len(args.flags.split(",")) :]:
        print(line)
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
