"""What a benchmark run says: its targets checked, cProfile summaries, the rich table and the
Markdown of bench/results.md (whose hand-written part is kept)."""

from __future__ import annotations

import os
import pstats
import re
import sys
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bench.measure import FULL_SIZES, LARGEST, NOTES_MARKER, QUICK_SIZES, Bench, Row, Target, child, clean
from bench.scale import write_rules

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
    clean(folder)
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
    intro = "Written by `python -m bench` (`bench/cases.py` says what each row runs)."
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
