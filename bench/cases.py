"""What the benchmark measures: start-up, the shipped variants, watch, import of the reference XMLs,
the largest of them, and synthetic games at scale; each group adds its rows to the Bench."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from bench.measure import (
    ENGINE_SCALE_LIMIT,
    LARGEST,
    REFERENCE_XMLS,
    ROOT,
    RULES,
    WW2V2,
    Action,
    Bench,
    Sample,
    Series,
    child,
    clean,
    engine_dump,
    forge,
    jvm_start,
    lxml_floor,
    variant_name,
)
from bench.scale import write_rules
from generator.emit.outputs import available_cores

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
                clean(cache)

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
            clean(rules)

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
    clean(rules)
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
            clean(target)

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
        clean(out)
        if cold:
            clean(cache)


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
            clean(target)

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
        clean(folder)
