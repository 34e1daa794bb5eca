"""Benchmark of ``triplea-forge check``: parse-only, FastAI and ProAI rounds, JVM strategies.

    python -m bench.check_bench            # everything (a few minutes on 2 cores)
    python -m bench.check_bench --quick    # parse-only + 2 FastAI rounds of revised (~20 s)

Targets: parse-only check of every variant <= 2 s in total; 2 FastAI rounds of a Revised-sized
variant <= 15 s. Wall times depend on what else runs on the machine (the AIs also decide
differently from run to run), so every line also shows the CPU seconds the JVMs used and the
load average when it started; repeat (--repeat) and read the minimum.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from rich.console import Console
from rich.table import Table

from generator.engine.check import resolve_targets, run_games
from generator.engine.harness import Engine, find_engine
from generator.engine.judge import Target, Verdict, seconds_per_round

ROOT = Path(__file__).resolve().parents[1]
GAMES = ROOT / "output" / "games"
PARSE_BUDGET_S = 2.0
FAST_BUDGET_S = 15.0


@dataclass
class Measurement:
    """One timed run."""

    name: str
    wall_s: float
    cpu_s: float
    load: float
    ok: bool
    rounds_s: dict[str, list[float]] = field(default_factory=dict)
    budget_s: float | None = None


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


Action = Callable[[], list[Verdict] | bool]


def measure(name: str, action: Action, budget: float | None = None) -> Measurement:
    load = os.getloadavg()[0]
    cpu, start = _children_cpu(), time.perf_counter()
    result = action()
    wall, cpu = time.perf_counter() - start, _children_cpu() - cpu
    if isinstance(result, bool):
        return Measurement(name, wall, cpu, load, result, budget_s=budget)
    rounds = {o.target.name: seconds_per_round(o.report) for o in result}
    return Measurement(name, wall, cpu, load, all(o.ok for o in result), rounds, budget)


def _cli_parse_only() -> bool:
    # What a user pays: Python start, CLI, one JVM parsing every variant.
    proc = subprocess.run([sys.executable, "-m", "generator", "check", "--rounds", "0"], cwd=ROOT, capture_output=True)
    return proc.returncode == 0


def plan(engine: Engine, targets: list[Target], quick: bool, repeat: int) -> list[tuple[str, Action]]:
    def games(group: list[Target], ai: str = "fast", rounds: int = 2, jobs: int = 1, fresh: bool = False) -> Action:
        return lambda: run_games(engine, group, rounds=rounds, ai=ai, seed=7, jobs=jobs, jvm_per_game=fresh)

    revised = [t for t in targets if t.name == "revised"] or targets[:1]
    steps: list[tuple[str, Action]] = []
    for i in range(1 if quick else repeat):
        steps.append((f"parse-only, all {len(targets)} variants, one JVM (API) #{i + 1}", games(targets, rounds=0)))
        steps.append((f"parse-only, all variants, `triplea-forge check --rounds 0` #{i + 1}", _cli_parse_only))
    if quick:
        steps.append(("FastAI 2 rounds: revised (own JVM)", games(revised)))
        return steps
    for i in range(repeat):
        for t in targets:
            steps.append((f"FastAI 2 rounds: {t.name} (own JVM) #{i + 1}", games([t])))
        steps.append((f"FastAI 2 rounds: all, a fresh JVM per game #{i + 1}", games(targets, fresh=True)))
        steps.append((f"FastAI 2 rounds: all, one JVM for all (default) #{i + 1}", games(targets)))
        steps.append((f"FastAI 2 rounds: all, two JVMs side by side (-j 2) #{i + 1}", games(targets, jobs=2)))
    steps.append(("ProAI 2 rounds: revised", games(revised, ai="pro")))
    return steps


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.check_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="parse-only and one FastAI game only")
    parser.add_argument("--repeat", type=int, default=2, help="repetitions of each FastAI measurement")
    parser.add_argument("--json", type=Path, help="also write the measurements here")
    args = parser.parse_args(argv)
    engine = find_engine()
    engine.harness_dir()  # compile outside the timings
    # Games made for TripleA 2.x only (aare-2x) cannot be played by the 1.9 engine measured here.
    targets = [t for t in resolve_targets([], GAMES) if engine.too_old_for(t.path) is None]
    console = Console()
    if not console.is_terminal:
        console.width = max(console.width, 140)
    results: list[Measurement] = []
    for name, action in plan(engine, targets, args.quick, args.repeat):
        budget = PARSE_BUDGET_S if name.startswith("parse-only") else None
        if name.startswith("FastAI") and "(own JVM)" in name:
            budget = FAST_BUDGET_S
        console.print(f"[dim]running[/] {name} ...")
        results.append(measure(name, action, budget))
    table = Table(title=f"check benchmark ({os.cpu_count()} CPUs)")
    for column in ("run", "wall s", "JVM CPU s", "load", "per-round s", "result"):
        table.add_column(column, justify="left" if column in ("run", "per-round s", "result") else "right")
    for m in results:
        rounds = "; ".join(f"{k} {', '.join(f'{s:.1f}' for s in v)}" for k, v in m.rounds_s.items() if v)
        verdict = "ok" if m.ok else "[red]check failed[/]"
        if m.budget_s is not None:
            verdict += f", {'within' if m.wall_s <= m.budget_s else '[red]over[/]'} {m.budget_s:g} s"
        table.add_row(m.name, f"{m.wall_s:.2f}", f"{m.cpu_s:.1f}", f"{m.load:.1f}", rounds, verdict)
    console.print(table)
    if args.json:
        args.json.write_text(json.dumps([asdict(m) for m in results], indent=1) + "\n", encoding="utf-8")
    return 0 if all(m.ok for m in results) else 1


if __name__ == "__main__":
    sys.exit(main())
