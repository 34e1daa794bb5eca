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
import json
import os
import platform
import pstats
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
from rich.table import Table

from bench.scale import write_rules
from generator.emit.outputs import available_cores
from generator.engine.harness import Engine, EngineError, find_engine

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

# In-process import of several XMLs through the real CLI: what one Python process spends on them.
IMPORT_DRIVER = """
import json, sys, time
from generator.cli import cli
rules, report, *pairs = sys.argv[1:]
times, failed = {}, []
for path, name in zip(pairs[::2], pairs[1::2]):
    start = time.perf_counter()
    try:
        cli.main(["import", path, "--name", name, "--rules", rules], standalone_mode=False)
    except BaseException as exc:  # a refused import is counted, not fatal
        failed.append(name)
    times[name] = time.perf_counter() - start
open(report, "w").write(json.dumps({"times": times, "failed": failed}))
"""


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


def _clean(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)


def variant_name(path: Path) -> str:
    return re.sub(r"[^a-z0-9_]", "_", path.stem.lower())


# ------------------------------------------------------------------------------------ the groups


def bench_start(b: Bench) -> None:
    s = b.interleave(
        "start",
        {
            "python": lambda: child([sys.executable, "-c", "pass"]),
            "cli": lambda: forge("--help"),
            "imports": lambda: child([sys.executable, "-c", "import generator.cli, generator.emit.build"]),
            "jvm": lambda: jvm_start(b.engine),
        },
        b.repeat,
    )
    b.add("start.python", "Python start (`python -c pass`)", s["python"])
    b.add("start.cli", "CLI start (`python -m generator --help`)", s["cli"])
    b.add("start.imports", "imports of the build pipeline (`import generator.emit.build`)", s["imports"])
    if s["jvm"].samples:
        b.add("start.jvm", "JVM start (engine harness, no file)", s["jvm"])


def bench_variants(b: Bench) -> list[Path]:
    rules = b.work / "variants" / "rules"
    shutil.copytree(RULES, rules)
    names = sorted(p.name for p in rules.iterdir() if p.is_dir() and any(p.glob("*.yaml")))
    warm, built = b.work / "variants" / "cache", b.work / "variants" / "out"
    first = forge("build", "--rules", rules, "--output", built, cache=warm)  # fills the warm cache
    if not first.ok:
        b.console.print(f"[red]build of rules/ failed: {first.detail}[/]")
    xmls = sorted((built / "games").glob("*.xml"))
    blobs = [p.read_bytes() for p in xmls]

    def validate(cache: Path | None) -> Sample:
        fresh = cache is None
        cache = cache or b.fresh("cache")
        try:
            return forge("validate", "--rules", rules, cache=cache)
        finally:
            if fresh:
                _clean(cache)

    s = b.interleave(
        "variants",
        {
            "build.cold": lambda: timed_build(b, rules, None),
            "build.serial": lambda: timed_build(b, rules, None, "-j1"),
            "build.warm": lambda: timed_build(b, rules, warm),
            "noop": lambda: forge("build", "--rules", rules, "--output", built, cache=warm),
            "validate.cold": lambda: validate(None),
            "validate.warm": lambda: validate(warm),
            "engine": lambda: engine_dump(b.engine, xmls),
            "lxml": lambda: lxml_floor(blobs),
        },
        b.repeat,
    )
    size = sum(map(len, blobs)) / 2**20
    what = f"{len(names)} variants ({', '.join(names)}; {size:.2f} MB XML)"
    ref = (s["engine"], s["lxml"])
    workers = min(available_cores(), len(names))
    b.add("variants.build.cold", f"build {what}, XSD cache empty ({workers} workers)", s["build.cold"], *ref)
    b.add("variants.build.serial", "build, same, XSD cache empty, one process (`-j1`)", s["build.serial"], *ref)
    b.add("variants.build.warm", "build, same, XSD cache warm", s["build.warm"], *ref)
    b.add("variants.noop", "no-op rebuild (output up to date, XSD cache warm)", s["noop"])
    b.add("variants.validate.cold", "validate the variants, XSD cache empty", s["validate.cold"], *ref)
    b.add("variants.validate.warm", "validate the variants, XSD cache warm", s["validate.warm"], *ref)

    if {"revised", "lhtr"} <= set(names):
        pair = [built / "games" / "revised.xml", built / "games" / "lhtr.xml"]
        pair_blobs = [p.read_bytes() for p in pair]
        d = b.interleave(
            "diff",
            {
                "diff": lambda: forge("diff", "revised", "lhtr", "--rules", rules, "--format", "json"),
                "engine": lambda: engine_dump(b.engine, pair),
                "lxml": lambda: lxml_floor(pair_blobs),
            },
            b.repeat,
        )
        b.add("diff", "diff revised lhtr (JSON)", d["diff"], d["engine"], d["lxml"], "engine/lxml: both XMLs")
    return xmls


def bench_watch(b: Bench, repeat: int) -> None:
    """`watch aare`: from the save of one of its spec files to the printed result, in the warm process."""
    rules = b.work / "watch" / "rules"
    shutil.copytree(RULES, rules)
    spec = rules / "aare" / "units.yaml"
    original = spec.read_text(encoding="utf-8")
    env = {**os.environ, "XDG_CACHE_HOME": str(b.fresh("cache"))}
    cmd = [sys.executable, "-m", "generator", "watch", "aare", "--rules", str(rules),
           "--output", str(b.work / "watch" / "out"), "--stop-after", str(repeat)]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    series = Series()
    try:
        for line in proc.stdout:  # the first build, before any save
            if "aare:" in line:
                break
        for i in range(repeat):
            b.console.print(f"[dim]watch: save ({i + 1}/{repeat})[/]")
            time.sleep(0.3)  # a pause between saves, as a person makes
            cpu_before = _cpu_of(proc.pid)
            saved = time.perf_counter()
            spec.write_text(original + f"# save {i}\n", encoding="utf-8")
            for line in proc.stdout:
                if "aare:" in line:
                    break
            built = "built in" in line
            took, cpu = time.perf_counter() - saved, _cpu_of(proc.pid) - cpu_before
            series.samples.append(Sample(took, cpu, ok=built, detail="" if built else line.strip()))
        proc.wait(timeout=60)
    finally:
        proc.kill()
    b.add("watch.save", "watch aare: a save to its printed result (warm process, polls every 0.05 s)", series)


def _cpu_of(pid: int) -> float:
    """User + system seconds a running process has used (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def bench_ww2v2(b: Bench) -> None:
    if not WW2V2.is_file():
        b.console.print(f"[yellow]{WW2V2} missing: import rows skipped[/]")
        return
    blob = WW2V2.read_bytes()

    def run() -> Sample:
        rules = b.fresh("rules")
        try:
            return forge("import", WW2V2, "--name", "ww2v2", "--rules", rules)
        finally:
            _clean(rules)

    s = b.interleave(
        "ww2v2",
        {"import": run, "engine": lambda: engine_dump(b.engine, [WW2V2]), "lxml": lambda: lxml_floor([blob])},
        b.repeat,
    )
    b.add("import.ww2v2", "import official ww2v2.xml", s["import"], s["engine"], s["lxml"])


def import_all(b: Bench, xmls: Sequence[Path], rules: Path) -> Sample:
    """Import every XML in one Python process (through the CLI code); per-file times in the detail."""
    report = b.fresh("import-report.json")
    pairs = [str(x) for p in xmls for x in (p, variant_name(p))]
    sample = child([sys.executable, "-c", IMPORT_DRIVER, str(rules), str(report), *pairs])
    if report.is_file():
        result = json.loads(report.read_text())
        b.per_file = result["times"]
        if result["failed"]:
            sample.detail = f"refused: {', '.join(result['failed'])}"
        sample.ok = sample.ok and not result["failed"]
        report.unlink()
    return sample


def import_cli_each(b: Bench, xmls: Sequence[Path]) -> Sample:
    """Import every XML with its own `triplea-forge import` process: summed times, largest RSS."""
    rules = b.fresh("rules")
    samples = [forge("import", p, "--name", variant_name(p), "--rules", rules) for p in xmls]
    _clean(rules)
    failed = [variant_name(p) for p, s in zip(xmls, samples, strict=True) if not s.ok]
    return Sample(
        sum(s.wall for s in samples),
        sum(s.cpu for s in samples),
        max((s.rss_mb or 0) for s in samples),
        not failed,
        f"refused: {', '.join(failed)}" if failed else "",
    )


def bench_reference_xmls(b: Bench, quick: bool) -> None:
    every = sorted(REFERENCE_XMLS.glob("*.xml"))
    if not every:
        b.console.print(f"[yellow]no XMLs in {REFERENCE_XMLS}: reference rows skipped[/]")
        return
    xmls = sorted(every, key=lambda p: p.stat().st_size)[:3] if quick else every
    label = f"{len(xmls)} reference XMLs" + (f" (the 3 smallest of {len(every)})" if quick else "")
    blobs = [p.read_bytes() for p in xmls]
    # One import up front gives the rules the build rows compile (and what the engine reads of them).
    rules, warm, built = b.work / "ref" / "rules", b.work / "ref" / "cache", b.work / "ref" / "out"
    import_all(b, xmls, rules)
    forge("build", "--target", "2.x", "--rules", rules, "--output", built, cache=warm)
    ours = sorted((built / "games").glob("*.xml"))
    built_blobs = [p.read_bytes() for p in ours]

    def imported() -> Sample:
        target = b.fresh("rules")
        try:
            return import_all(b, xmls, target)
        finally:
            _clean(target)

    repeat = max(1, min(b.repeat, 3))
    s = b.interleave(
        "reference",
        {
            "import": imported,
            "import.cli": lambda: import_cli_each(b, xmls),
            "build.cold": lambda: timed_build(b, rules, None, *TARGET_2X),
            "build.warm": lambda: timed_build(b, rules, warm, *TARGET_2X),
            "engine.originals": lambda: engine_dump(b.engine, xmls),
            "engine.built": lambda: engine_dump(b.engine, ours),
            "lxml.originals": lambda: lxml_floor(blobs),
            "lxml.built": lambda: lxml_floor(built_blobs),
        },
        repeat,
    )
    orig = (s["engine.originals"], s["lxml.originals"])
    made = (s["engine.built"], s["lxml.built"])
    size = sum(map(len, blobs)) / 2**20
    slowest = sorted(b.per_file.items(), key=lambda kv: -kv[1])[:3]
    note = "slowest in-process: " + ", ".join(f"{n} {t:.2f} s" for n, t in slowest) if slowest else ""
    b.add("ref.import", f"import {label} ({size:.1f} MB), one process", s["import"], *orig, note=note)
    b.add("ref.import.cli", f"import {label}, one `import` process each (sum)", s["import.cli"], *orig)
    b.add("ref.build.cold", f"build the {len(ours)} imported variants (2.x), XSD cache empty", s["build.cold"], *made)
    b.add("ref.build.warm", f"build the {len(ours)} imported variants (2.x), XSD cache warm", s["build.warm"], *made)
    bench_largest(b, every)


TARGET_2X = ("--target", "2.x")


def timed_build(b: Bench, rules: Path, cache: Path | None, *options: str) -> Sample:
    """One timed `build` of `rules` into a fresh folder; no cache given means an empty one."""
    out, cold = b.fresh("out"), cache is None
    cache = cache or b.fresh("cache")
    try:
        return forge("build", *options, "--rules", rules, "--output", out, cache=cache)
    finally:
        _clean(out)
        if cold:
            _clean(cache)


def bench_largest(b: Bench, every: Sequence[Path]) -> None:
    source = next((p for p in every if p.name == LARGEST), max(every, key=lambda p: p.stat().st_size))
    name = variant_name(source)
    rules, warm, built = b.work / "largest" / "rules", b.work / "largest" / "cache", b.work / "largest" / "out"
    forge("import", source, "--name", name, "--rules", rules)
    forge("build", "--target", "2.x", "--rules", rules, "--output", built, cache=warm)
    ours = built / "games" / f"{name}.xml"
    blob, ours_blob = source.read_bytes(), ours.read_bytes() if ours.is_file() else b""

    def imported() -> Sample:
        target = b.fresh("rules")
        try:
            return forge("import", source, "--name", name, "--rules", target)
        finally:
            _clean(target)

    s = b.interleave(
        "largest",
        {
            "import": imported,
            "build.cold": lambda: timed_build(b, rules, None, *TARGET_2X),
            "build.warm": lambda: timed_build(b, rules, warm, *TARGET_2X),
            "engine.original": lambda: engine_dump(b.engine, [source]),
            "engine.built": lambda: engine_dump(b.engine, [ours]) if ours_blob else None,
            "lxml.original": lambda: lxml_floor([blob]),
            "lxml.built": lambda: lxml_floor([ours_blob]) if ours_blob else None,
        },
        b.repeat,
    )
    kb = len(blob) // 1024
    b.add("largest.import", f"import {source.name} ({kb} KB)", s["import"], s["engine.original"], s["lxml.original"])
    made = (s["engine.built"], s["lxml.built"])
    b.add("largest.build.cold", f"build {name} alone (2.x), XSD cache empty", s["build.cold"], *made)
    b.add("largest.build.warm", f"build {name} alone (2.x), XSD cache warm", s["build.warm"], *made)


def bench_scale(b: Bench, sizes: Sequence[int]) -> None:
    for size in sizes:
        folder = b.work / f"scale-{size}"
        start, cpu = time.perf_counter(), time.process_time()
        made = write_rules(folder, size)
        generated = Sample(time.perf_counter() - start, time.process_time() - cpu)
        warm, built = folder / "cache", folder / "out"
        first = forge("build", "--rules", made.rules, "--output", built, cache=warm)
        if not first.ok:
            b.console.print(f"[red]synthetic {size}: build failed: {first.detail}[/]")
        xml = built / "games" / f"{made.variant}.xml"
        blob = xml.read_bytes() if xml.is_file() else b""

        def validate(made_rules: Path = made.rules, cache: Path = warm) -> Sample:
            return forge("validate", "--rules", made_rules, cache=cache)

        def floor(blob: bytes = blob) -> Sample | None:
            return lxml_floor([blob]) if blob else None

        def build_cold(made_rules: Path = made.rules) -> Sample:
            return timed_build(b, made_rules, None)

        def build_warm(made_rules: Path = made.rules, cache: Path = warm) -> Sample:
            return timed_build(b, made_rules, cache)

        def parse(xml: Path = xml) -> Sample | None:
            return engine_dump(b.engine, [xml], heap="1g")

        actions: dict[str, Action] = {
            "build.cold": build_cold,
            "validate": validate,
            "lxml": floor,
            "build.warm": build_warm,
        }
        if size <= ENGINE_SCALE_LIMIT and blob:
            actions["engine"] = parse
        repeat = max(1, min(b.repeat, 3 if size < 50_000 else 2))
        s = b.interleave(f"scale-{size}", actions, repeat)
        facts = (
            f"{made.land} land, {made.sea} sea, {made.borders} borders, {made.units} units, "
            f"{made.attachments} attachments; {len(blob) / 2**20:.1f} MB XML"
        )
        ref = (s.get("engine"), s.get("lxml"))
        label = f"synthetic {size:,} territories"
        b.add(f"scale.{size}.generate", f"{label}: generate the spec (bench/scale.py)", Series([generated]), note=facts)
        b.add(f"scale.{size}.build.cold", f"{label}: build, XSD cache empty", s["build.cold"], *ref)
        b.add(f"scale.{size}.build.warm", f"{label}: build, XSD cache warm", s["build.warm"], *ref)
        b.add(f"scale.{size}.validate", f"{label}: validate, XSD cache warm", s["validate"], *ref)
        _clean(folder)


# ----------------------------------------------------------------------------------- the targets


def targets(b: Bench, sizes: Sequence[int], quick: bool) -> list[Target]:
    found: list[Target] = []

    def check(name: str, value: float, limit: float, unit: str, cpu_value: float | None = None) -> None:
        cpu_met = None if cpu_value is None else cpu_value <= limit
        shown = f"{value:.2f}{unit}" + (f" (CPU {cpu_value:.2f}{unit})" if cpu_value is not None else "")
        found.append(Target(name, shown, f"<= {limit:g}{unit}", value <= limit, cpu_met))

    for key, cache in (("variants.build.cold", "empty"), ("variants.build.warm", "warm")):
        row = b.row(key)
        if row is not None and row.engine is not None:
            limit = 0.5 * row.engine.wall
            found.append(
                Target(
                    f"build+validate of every variant, one cold process, XSD cache {cache} <= 0.5 x engine parse",
                    f"{row.ours.wall:.2f} s = {row.ours.wall / row.engine.wall:.2f} x engine {row.engine.wall:.2f} s",
                    f"<= {limit:.2f} s",
                    row.ours.wall <= limit,
                    row.ours.cpu <= 0.5 * row.engine.cpu,
                )
            )
    cold = b.row("variants.build.cold")
    if cold is not None and cold.engine is not None:
        found.append(Target(
            "cold build of every variant, every cache empty <= 1.0 x engine parse of the same games",
            f"{cold.ours.wall:.2f} s = {cold.ours.wall / cold.engine.wall:.2f} x engine {cold.engine.wall:.2f} s",
            f"<= {cold.engine.wall:.2f} s", cold.ours.wall <= cold.engine.wall, cold.ours.cpu <= cold.engine.cpu,
        ))  # fmt: skip
    save = b.row("watch.save")
    if save is not None:
        check("watch: a save of one variant's spec to its printed result", save.ours.wall, 0.2, " s")
    small, medium = sizes[0], sizes[1]
    for cache in ("cold", "warm"):
        row = b.row(f"scale.{medium}.build.{cache}")
        if row is not None:
            what = "empty" if cache == "cold" else "warm"
            check(f"{medium:,} territories: build, XSD cache {what}", row.ours.wall, 10, " s", row.ours.cpu)
            if row.ours.rss is not None:
                found.append(Target(f"{medium:,} territories: build peak memory", f"{row.ours.rss:.0f} MB",
                                    "<= 500 MB", row.ours.rss <= 500))  # fmt: skip
    validate = b.row(f"scale.{medium}.validate")
    if validate is not None:
        check(f"{medium:,} territories: validate", validate.ours.wall, 10, " s", validate.ours.cpu)
    for cache in ("cold", "warm"):
        low, high = b.row(f"scale.{small}.build.{cache}"), b.row(f"scale.{medium}.build.{cache}")
        if low is not None and high is not None:
            what = "empty" if cache == "cold" else "warm"
            check(f"time({medium:,}) / time({small:,}), build, XSD cache {what}", high.ours.wall / low.ours.wall, 12,
                  "", high.ours.cpu / low.ours.cpu)  # fmt: skip
    noop = b.row("variants.noop")
    if noop is not None:
        check("no-op rebuild of every variant", noop.ours.wall, 0.3, " s", noop.ours.cpu)
    imp, imp_cli = b.row("ref.import"), b.row("ref.import.cli")
    for cache in ("cold", "warm"):
        build = b.row(f"ref.build.{cache}")
        what = "empty" if cache == "cold" else "warm"
        if build is not None and imp is not None:
            check(f"import (one process) + build of the reference XMLs, XSD cache {what}",
                  imp.ours.wall + build.ours.wall, 10, " s", imp.ours.cpu + build.ours.cpu)  # fmt: skip
        if build is not None and imp_cli is not None:
            check(f"import (a process each) + build of the reference XMLs, XSD cache {what}",
                  imp_cli.ours.wall + build.ours.wall, 10, " s", imp_cli.ours.cpu + build.ours.cpu)  # fmt: skip
    for key, what in (
        ("largest.import", "import"),
        ("largest.build.cold", "build, XSD cache empty"),
        ("largest.build.warm", "build, XSD cache warm"),
    ):
        row = b.row(key)
        if row is not None:
            check(f"{LARGEST}: {what} (cold process)", row.ours.wall, 2, " s", row.ours.cpu)
    if quick:
        for t in found:
            t.name += " [quick sizes: not meaningful]"
    return found


# ------------------------------------------------------------------------------------ profiling


def profile(b: Bench, sizes: Sequence[int]) -> list[str]:
    """cProfile of the slow cases, each in a fresh process: time by package, then our hottest functions."""
    lines: list[str] = []
    cases: list[tuple[str, list[str], Path | None]] = []
    rules = b.work / "variants" / "rules"
    if rules.is_dir():
        cases.append(("build of every variant, XSD cache empty", ["build", "--rules", str(rules)], None))
        cases.append(("build of every variant, XSD cache warm", ["build", "--rules", str(rules)],
                      b.work / "variants" / "cache"))  # fmt: skip
    medium = sizes[1]
    folder = b.work / f"profile-{medium}"
    made = write_rules(folder, medium)
    cases.append((f"build of {medium:,} synthetic territories", ["build", "--rules", str(made.rules)], None))
    for title, args, cache in cases:
        stats_file = b.fresh("profile")
        out = b.fresh("out")
        cache = cache or b.fresh("cache")
        cmd = [sys.executable, "-m", "cProfile", "-o", str(stats_file), "-m", "generator", *args, "--output", str(out)]
        b.console.print(f"[dim]profiling: {title}[/]")
        child(cmd, cache)
        if not stats_file.is_file():
            continue
        lines += [f"#### {title}", "", *summarise(pstats.Stats(str(stats_file))), ""]
    _clean(folder)
    return lines


def _area(filename: str) -> str:
    if "/generator/" in filename:
        return "generator/" + filename.rsplit("/generator/", 1)[1]
    match = re.search(r"site-packages/([^/]+)", filename)
    if match:
        return match.group(1).removesuffix(".py")
    if filename.startswith("<frozen") or "/lib/python3" in filename:
        return "python stdlib / imports"
    return "built-ins (C)" if filename == "~" else filename


def summarise(stats: pstats.Stats, top: int = 12) -> list[str]:
    """Self time by package (ours by module), and our functions by cumulative time."""
    raw: dict[tuple[str, int, str], tuple[int, int, float, float, object]] = stats.stats  # type: ignore[attr-defined]
    total = sum(tt for _, _, tt, _, _ in raw.values())
    by_area: dict[str, float] = {}
    for (filename, _, _), (_, _, tt, _, _) in raw.items():
        area = _area(filename)
        by_area[area] = by_area.get(area, 0.0) + tt
    out = [f"total {total:.2f} s (under cProfile, which slows pure-Python code about 2x)", "",
           "| self time by package / module | s | share |", "|---|---:|---:|"]  # fmt: skip
    for area, seconds in sorted(by_area.items(), key=lambda kv: -kv[1])[:top]:
        out.append(f"| {area} | {seconds:.2f} | {seconds / total:.0%} |")
    ours = [
        (ct, f"{_area(filename)}:{line} {name}")
        for (filename, line, name), (_, _, _, ct, _) in raw.items()
        if "/generator/" in filename and "__main__" not in filename and name not in ("<module>", "main", "invoke")
    ]
    out += ["", "| our function (cumulative) | s |", "|---|---:|"]
    for ct, where in sorted(ours, reverse=True)[:top]:
        out.append(f"| {where} | {ct:.2f} |")
    return out


# -------------------------------------------------------------------------------------- reports


def _s(value: float | None, digits: int = 2) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def row_cells(row: Row) -> list[str]:
    ours = row.ours
    ratio = row.ratio
    spread = row.ratio_range
    ratio_text = "-" if ratio is None else f"{ratio:.2f}"
    if spread is not None and len(ours.samples) > 1:
        ratio_text += f" ({spread[0]:.2f}-{spread[1]:.2f})"
    note = "; ".join(
        n
        for n in (
            row.note,
            "" if ours.ok else f"FAILED: {ours.details}",
            ours.details if ours.ok else "",
            row.engine.details if row.engine else "",
        )
        if n
    )
    return [
        row.label,
        str(len(ours.samples)),
        _s(ours.wall),
        _s(ours.cpu),
        _s(ours.rss, 0),
        f"{ours.spread:.0%}",
        _s(row.engine.wall if row.engine else None),
        _s(row.engine.cpu if row.engine else None),
        ratio_text,
        _s(row.lxml.wall if row.lxml else None, 3),
        note,
    ]


HEADERS = [
    "measurement",
    "n",
    "wall s",
    "CPU s",
    "peak MB",
    "spread",
    "engine s",
    "engine CPU s",
    "ours/engine",
    "lxml s",
    "notes",
]


def print_table(console: Console, b: Bench, found: list[Target]) -> None:
    table = Table(title=f"triplea-forge benchmark ({os.cpu_count()} cores)", show_lines=False)
    for h in HEADERS:
        table.add_column(h, justify="left" if h in ("measurement", "notes") else "right", overflow="fold")
    for row in b.rows:
        table.add_row(*row_cells(row))
    console.print(table)
    verdicts = Table(title="targets")
    for h in ("target", "measured", "limit", "wall", "CPU"):
        verdicts.add_column(h)
    for t in found:
        verdicts.add_row(t.name, t.value, t.limit, _verdict(t.met, rich=True), _verdict(t.cpu_met, rich=True))
    console.print(verdicts)


def _verdict(met: bool | None, rich: bool = False) -> str:
    if met is None:
        return "-"
    if rich:
        return "[green]met[/]" if met else "[red]MISSED[/]"
    return "met" if met else "**missed**"


def markdown(b: Bench, found: list[Target], meta: dict[str, str], extra: list[str]) -> str:
    intro = "Written by `python -m bench` (`bench/__main__.py` says what each row runs)."
    lines = ["# Benchmark results", "", intro, ""]
    lines += [f"- {k}: {v}" for k, v in meta.items()]
    lines += [
        "",
        "Times are medians of `n` runs, each in a fresh process (`wall s`, `CPU s` = the child's user+system "
        "time, `peak MB` = its largest RSS). `spread` = (max - min) / median of the wall times. `engine s`: "
        "TripleA 1.9 parsing the same XMLs in one JVM (start, parse, dump; nothing subtracted; CPU of all its "
        "threads), run back to "
        "back with ours in every repetition; `ours/engine` is the ratio of the medians (in brackets the range "
        "of the per-repetition ratios). `lxml s`: lxml parsing + serialising the same bytes in-process.",
        "",
        "| " + " | ".join(HEADERS) + " |",
        "|" + "|".join("---" if h in ("measurement", "notes") else "---:" for h in HEADERS) + "|",
    ]
    for row in b.rows:
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in row_cells(row)) + " |")
    lines += ["", "## Targets", "", "| target | measured | limit | wall | CPU |", "|---|---|---|---|---|"]
    for t in found:
        lines.append(f"| {t.name} | {t.value} | {t.limit} | {_verdict(t.met)} | {_verdict(t.cpu_met)} |")
    return "\n".join([*lines, "", *extra]).rstrip() + "\n"


def kept_notes(path: Path) -> str:
    """The hand-written part of an existing results file (after the marker), or a fresh marker."""
    if path.is_file():
        text = path.read_text(encoding="utf-8")
        if NOTES_MARKER in text:
            return NOTES_MARKER + text.split(NOTES_MARKER, 1)[1]
    return NOTES_MARKER + "\n"


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


def expected_rows(quick: bool) -> list[str]:
    """The keys of the rows a run makes (when the engine, rules and reference XMLs are there)."""
    sizes = QUICK_SIZES if quick else FULL_SIZES
    keys = ["start.python", "start.cli", "start.imports", "start.jvm"]
    builds = ("build.cold", "build.serial", "build.warm", "noop", "validate.cold", "validate.warm")
    keys += [f"variants.{k}" for k in builds]
    keys += ["watch.save"]
    keys += ["diff", "import.ww2v2", "ref.import", "ref.import.cli", "ref.build.cold", "ref.build.warm"]
    keys += ["largest.import", "largest.build.cold", "largest.build.warm"]
    for size in sizes:
        keys += [f"scale.{size}.{k}" for k in ("generate", "build.cold", "build.warm", "validate")]
    return keys


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
