"""How the benchmark measures: one command in a fresh process (wall, CPU, peak RSS), the engine and
lxml references, and the Bench that keeps every row of a run (see __main__ for what is compared)."""

from __future__ import annotations

import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from lxml import etree
from rich.console import Console

from generator.engine.harness import Engine, EngineError

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "rules"
DATA = ROOT / "tests" / "data"  # reference material kept in the repository
WW2V2 = DATA / "world_war_ii_revised" / "map" / "games" / "ww2v2.xml"
REFERENCE_XMLS = DATA / "xml"
LARGEST = "TAW_Carthage_Campaign.xml"
RESULTS = ROOT / "bench" / "results.md"
NOTES_MARKER = "<!-- Everything below this line is kept by `python -m bench` when it rewrites this file. -->"
FULL_SIZES = (1_000, 10_000, 50_000)
QUICK_SIZES = (40, 200, 600)
ENGINE_SCALE_LIMIT = 10_000  # larger synthetic games need more JVM heap than a shared machine should give


# --------------------------------------------------------------------------------------- samples


@dataclass
class Sample:
    """One timed run: wall and CPU seconds, peak RSS (MB, where known), success."""

    wall: float
    cpu: float
    rss_mb: float | None = None
    ok: bool = True
    detail: str = ""


@dataclass
class Series:
    samples: list[Sample] = field(default_factory=list)

    @property
    def wall(self) -> float:
        return statistics.median(s.wall for s in self.samples)

    @property
    def cpu(self) -> float:
        return statistics.median(s.cpu for s in self.samples)

    @property
    def rss(self) -> float | None:
        known = [s.rss_mb for s in self.samples if s.rss_mb is not None]
        return max(known) if known else None

    @property
    def spread(self) -> float:
        """(max - min) / median of the wall times: how noisy this row was."""
        walls = [s.wall for s in self.samples]
        return (max(walls) - min(walls)) / statistics.median(walls) if len(walls) > 1 else 0.0

    @property
    def ok(self) -> bool:
        return all(s.ok for s in self.samples)

    @property
    def details(self) -> str:
        return "; ".join(sorted({s.detail for s in self.samples if s.detail}))


@dataclass
class Row:
    key: str
    label: str
    ours: Series
    engine: Series | None = None
    lxml: Series | None = None
    note: str = ""

    @property
    def ratio(self) -> float | None:
        if self.engine is None or not self.engine.samples:
            return None
        return self.ours.wall / self.engine.wall

    @property
    def ratio_range(self) -> tuple[float, float] | None:
        """Min and max of the per-repetition ratios (each pair measured back to back)."""
        if self.engine is None or len(self.engine.samples) != len(self.ours.samples):
            return None
        ratios = [o.wall / e.wall for o, e in zip(self.ours.samples, self.engine.samples, strict=True)]
        return min(ratios), max(ratios)


@dataclass
class Target:
    name: str
    value: str
    limit: str
    met: bool | None  # None: not measured
    cpu_met: bool | None = None  # the same check on CPU seconds (less affected by other jobs)


# Runs one command and reports its wall time, CPU time, peak RSS (KB) and exit code. A fresh small
# process starts it: Linux carries the RSS high-water mark of the process that forks into the child's
# ru_maxrss, so a child forked straight from this (large) process would report at least our size.
LAUNCHER = """
import os, sys, time
report, argv = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
pid = os.posix_spawn(argv[0], argv, os.environ)
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - start
with open(report, "w") as out:
    out.write(f"{wall} {usage.ru_utime + usage.ru_stime} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)}")
"""


def child(cmd: Sequence[str], cache: Path | None = None, cwd: Path = ROOT) -> Sample:
    """Run `cmd` in a fresh process: its wall and CPU time and its own peak RSS."""
    env = dict(os.environ)
    if cache is not None:
        env["XDG_CACHE_HOME"] = str(cache)
    with tempfile.TemporaryFile() as output, tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "usage"
        launcher = [sys.executable, "-S", "-c", LAUNCHER, str(report), *cmd]
        subprocess.run(launcher, cwd=cwd, env=env, stdout=output, stderr=subprocess.STDOUT, check=False)
        wall, cpu, rss_kb, code = report.read_text().split()
        ok = code == "0"
        detail = ""
        if not ok:
            output.seek(0)
            tail = output.read().decode("utf-8", "replace").strip().splitlines()[-1:]
            detail = f"exit {code}: {tail[0][:160] if tail else ''}"
    return Sample(float(wall), float(cpu), int(rss_kb) / 1024, ok, detail)


def forge(*args: str | Path, cache: Path | None = None) -> Sample:
    return child([sys.executable, "-m", "generator", *map(str, args)], cache)


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def engine_dump(engine: Engine | None, paths: Sequence[Path], heap: str = "384m") -> Sample | None:
    """The engine parsing `paths` in one JVM (start, parse, dump); None without an engine."""
    if engine is None:
        return None
    cpu, start = children_cpu(), time.perf_counter()
    try:
        docs = engine.dump(list(paths), heap=heap)
    except EngineError as exc:
        return Sample(time.perf_counter() - start, children_cpu() - cpu, None, False, str(exc).splitlines()[0])
    wall = time.perf_counter() - start
    rejected = sum(1 for doc in docs.values() if "error" in doc)
    detail = f"engine 1.9 rejects {rejected} of {len(paths)}" if rejected else ""
    return Sample(wall, children_cpu() - cpu, None, True, detail)


def jvm_start(engine: Engine | None) -> Sample | None:
    """The harness JVM with no file: JVM start, sandbox folder, harness main."""
    if engine is None:
        return None
    cpu, start = children_cpu(), time.perf_counter()
    proc = engine.run(["dump"])
    return Sample(time.perf_counter() - start, children_cpu() - cpu, None, proc.returncode == 0)


def lxml_floor(blobs: Sequence[bytes]) -> Sample:
    """lxml parsing and serialising these bytes in this process."""
    parser = etree.XMLParser(load_dtd=False, resolve_entities=False, no_network=True, huge_tree=True)
    cpu, start = time.process_time(), time.perf_counter()
    for blob in blobs:
        tree = etree.fromstring(blob, parser).getroottree()
        etree.tostring(tree, xml_declaration=True, encoding="UTF-8")
    return Sample(time.perf_counter() - start, time.process_time() - cpu)


Action = Callable[[], Sample | None]


class Bench:
    def __init__(self, work: Path, engine: Engine | None, repeat: int, console: Console) -> None:
        self.work = work
        self.engine = engine
        self.repeat = repeat
        self.console = console
        self.rows: list[Row] = []
        self.series: dict[str, Series] = {}
        self.per_file: dict[str, float] = {}  # seconds per XML of the last one-process import
        self._counter = 0

    def fresh(self, prefix: str) -> Path:
        """A new empty folder under the work folder (an empty cache, an empty output...)."""
        self._counter += 1
        return self.work / f"{prefix}-{self._counter}"

    def interleave(self, group: str, actions: dict[str, Action], repeat: int) -> dict[str, Series]:
        """Run every action once per repetition, one after the other, so load hits all alike."""
        out = {name: Series() for name in actions}
        for i in range(repeat):
            for name, action in actions.items():
                self.console.print(f"[dim]{group}: {name} ({i + 1}/{repeat})[/]")
                sample = action()
                if sample is not None:
                    out[name].samples.append(sample)
        for name, series in out.items():
            self.series[f"{group}.{name}"] = series
        return out

    def add(self, key: str, label: str, ours: Series, engine: Series | None = None, lxml: Series | None = None,
            note: str = "") -> None:  # fmt: skip
        engine = engine if engine is not None and engine.samples else None
        lxml = lxml if lxml is not None and lxml.samples else None
        self.rows.append(Row(key, label, ours, engine, lxml, note))

    def row(self, key: str) -> Row | None:
        return next((r for r in self.rows if r.key == key), None)


def clean(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


def variant_name(path: Path) -> str:
    return re.sub(r"[^a-z0-9_]", "_", path.stem.lower())
