"""Benchmarks of build, validate, diff and import, each beside the real engine and lxml, and at scale.

    python -m bench                      # everything (~10-15 min on 2 shared cores) -> bench/results.md
    python -m bench --quick --out X.md   # tiny sizes, one repetition: proves the benchmark works (CI)
    python -m bench --profile            # also profile the slow cases (cProfile, by module)

Every command is timed in a fresh Python process (`python -m generator ...`) on copies of the
rules in a temp folder, so nothing is cached in memory; the user cache (~/.cache/triplea-forge:
XSD passes, compiled templates) is pointed at a temp folder with XDG_CACHE_HOME and measured both
empty ("XSD cache empty") and filled by an earlier run ("XSD cache warm").

References, measured in the same run and interleaved with our runs (one of each per repetition,
so machine load hits both alike): the real TripleA 1.9 engine parsing the same XMLs in one JVM
(`Engine.dump`: JVM start, parse, canonical dump; nothing subtracted; the bare JVM start is its own
row), and lxml parsing and serialising the same bytes in this process (the floor for producing
that XML). Times are medians; CPU is the child's user+system time; the peak RSS is the child's own
(os.wait4 in a small launcher process). Targets are checked here, not by timed tests. The part of
bench/results.md after NOTES_MARKER (analysis, profiles by hand) is kept when the file is rewritten.
"""

from __future__ import annotations

import argparse
import atexit
import datetime
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console

from bench.cases import (
    bench_reference_xmls,
    bench_scale,
    bench_start,
    bench_variants,
    bench_watch,
    bench_ww2v2,
)
from bench.measure import FULL_SIZES, QUICK_SIZES, RESULTS, ROOT, Bench, forge, jvm_start
from bench.report import kept_notes, markdown, print_table, profile, targets
from generator.engine.harness import Engine, EngineError, find_engine


def sub_benchmarks(console: Console, quick: bool = True) -> list[str]:
    """The other benchmarks of this folder (diff, check, balance), run as they are, their output kept.

    A full run gives the balance lab its full measure (game-rounds per CPU-minute of three
    variants, the gain of a second worker); the others stay quick.
    """
    lines = ["## Other benchmarks of this folder", ""]
    for module in ("bench.diff_bench", "bench.check_bench", "bench.balance_bench"):
        cmd = [sys.executable, "-m", module, *(["--quick"] if quick or module != "bench.balance_bench" else [])]
        console.print(f"[dim]running {' '.join(cmd[1:])}[/]")
        env = {**os.environ, "COLUMNS": "160"}
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env, check=False)
        shown = " ".join(cmd[2:])
        lines += [f"`python -m {shown}` (exit {proc.returncode}):", "", "```", proc.stdout.rstrip(), "```", ""]
    return lines


def _bytecode_as_installed() -> str:
    """Have every timed process read the package's compiled bytecode, as on a default setup.

    Python writes a module's bytecode on its first import and reads it from then on; a machine
    may say not to (PYTHONDONTWRITEBYTECODE, set on this project's build machine), and then every
    timed run would compile each of our modules from source again (~0.05 s), which no user with
    a default Python pays after the first run. The bytecode goes to a private folder.
    """
    said = "PYTHONDONTWRITEBYTECODE" in os.environ
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    folder = Path(tempfile.mkdtemp(prefix="forge-bench-bytecode-"))
    os.environ["PYTHONPYCACHEPREFIX"] = str(folder)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "generator")], check=True)
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return "compiled once before timing, as a default Python writes it on first import" + (
        " (this machine sets PYTHONDONTWRITEBYTECODE: lifted for the timed runs)" if said else ""
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, one repetition, 3 reference XMLs")
    parser.add_argument("--repeat", type=int, default=None, help="runs per measurement (default 5; quick 1)")
    parser.add_argument("--out", type=Path, default=None, help="results file (default bench/results.md; quick: none)")
    parser.add_argument("--profile", action="store_true", help="add cProfile summaries of the slow cases")
    parser.add_argument(
        "--no-sub", action="store_true", help="skip bench.diff_bench, bench.check_bench and bench.balance_bench"
    )
    parser.add_argument("--no-engine", action="store_true", help="leave out the engine references")
    args = parser.parse_args(argv)
    repeat = args.repeat or (1 if args.quick else 5)
    sizes = QUICK_SIZES if args.quick else FULL_SIZES
    out = args.out if args.out is not None else (None if args.quick else RESULTS)
    console = Console(stderr=True)
    engine: Engine | None = None
    if not args.no_engine:
        try:
            engine = find_engine()
            engine.harness_dir()  # compile outside the timings
            jvm_start(engine)  # and bring the jar into the page cache
        except EngineError as exc:
            console.print(f"[yellow]no engine references: {exc}[/]")
            engine = None
    bytecode = _bytecode_as_installed()
    load_before = os.getloadavg()
    started = time.perf_counter()
    forge("--help")  # page cache
    with tempfile.TemporaryDirectory(prefix="forge-bench-") as tmp:
        b = Bench(Path(tmp), engine, repeat, console)
        bench_start(b)
        bench_variants(b)
        bench_watch(b, repeat)
        bench_ww2v2(b)
        bench_reference_xmls(b, args.quick)
        bench_scale(b, sizes)
        found = targets(b, sizes, args.quick)
        extra: list[str] = []
        if args.profile:
            extra += ["## Profiles (cProfile, fresh process each)", "", *profile(b, sizes)]
    if not args.quick and not args.no_sub:
        extra += sub_benchmarks(console, quick=False)
    load_after = os.getloadavg()
    meta = {
        "date": datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        "machine": f"{os.cpu_count()} cores, {platform.machine()}, Linux {platform.release()}, Python "
        f"{platform.python_version()}",
        "load average (1 min) before / after": f"{load_before[0]:.1f} / {load_after[0]:.1f} "
        "(other jobs share the machine: compare CPU s as well as wall s)",
        "mode": ("quick (tiny sizes, 1 repetition: proves the benchmark runs; the numbers mean little)"
                 if args.quick else f"full, {repeat} repetitions (3 for the reference XMLs and scale, 2 at 50k)"),
        "engine": str(engine.jar) if engine else "not measured",
        "Python bytecode": bytecode,
        "duration": f"{time.perf_counter() - started:.0f} s",
    }  # fmt: skip
    print_table(Console(width=max(Console().width, 160)), b, found)
    if out is not None:
        notes = kept_notes(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(markdown(b, found, meta, extra) + "\n" + notes, encoding="utf-8")
        console.print(f"wrote {out}")
    return 0 if all(r.ours.ok for r in b.rows) else 1


if __name__ == "__main__":
    sys.exit(main())
