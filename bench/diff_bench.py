"""Benchmark of ``triplea-forge diff``: two Revised-sized variants, in-process and end to end.

    python -m bench.diff_bench            # revised -> lhtr, ww2v2.xml -> lhtr.xml, lhtr -> aare
    python -m bench.diff_bench --quick    # revised -> lhtr only, fewer repeats (~5 s)

Target: `diff revised lhtr` <= 0.5 s in-process (loading both variants from YAML, comparing,
rendering), interpreter start excluded. The end-to-end time of the command (a new Python process,
imports included) is reported next to it, with the bare interpreter start for reference. Every
in-process run reads the rules afresh (a new `Rules`), so no run profits from another's cache.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from generator.diff.compare import Diff, compare
from generator.diff.markdown import markdown
from generator.diff.render import json_text, plain_lines
from generator.diff.sides import diff_sides, load_variant
from generator.spec.resolve import Rules

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "rules"
OFFICIAL = ROOT / "tests" / "data" / "world_war_ii_revised" / "map" / "games"
BUDGET_S = 0.5


def _times(action: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        out.append(time.perf_counter() - start)
    return out


def _render(diff: Diff) -> None:
    plain_lines(diff)
    markdown(diff)
    json_text(diff)


def _row(name: str, seconds: list[float], budget: float | None = None) -> bool:
    best, median = min(seconds), statistics.median(seconds)
    verdict = "" if budget is None else ("  ok" if best <= budget else f"  OVER {budget:.2f} s")
    print(f"{name:<58} min {best:6.3f} s  median {median:6.3f} s  (n={len(seconds)}){verdict}")
    return budget is None or best <= budget


def in_process(old: str, new: str, repeat: int, budget: float | None = None) -> bool:
    """Whole diff (load both sides, compare, render text/markdown/JSON), then its parts."""
    label = f"{Path(old).name} {Path(new).name}"
    # The first run pays one-time costs (option catalog, lazy imports): shown apart.
    first = _times(lambda: _render(diff_sides(old, new, Rules(RULES))), 1)
    _row(f"in-process  diff {label}  (first call)", first)
    ok = _row(f"in-process  diff {label}", _times(lambda: _render(diff_sides(old, new, Rules(RULES))), repeat), budget)
    if old.endswith(".xml"):
        return ok
    rules = Rules(RULES)
    specs = (load_variant(rules, old), load_variant(rules, new))

    def load() -> None:
        fresh = Rules(RULES)
        load_variant(fresh, old)
        load_variant(fresh, new)

    _row("    of which: load both variants (YAML, resolve, checks)", _times(load, repeat))
    _row("    of which: compare", _times(lambda: compare(*specs), repeat))
    diff = diff_sides(old, new, rules)
    _row("    of which: render text + markdown + JSON", _times(lambda: _render(diff), repeat))
    return ok


def end_to_end(args: list[str], repeat: int) -> None:
    command = [sys.executable, "-m", "generator", "diff", *args]
    _row(
        f"end-to-end  triplea-forge diff {' '.join(Path(a).name for a in args)}",
        _times(lambda: subprocess.run(command, cwd=ROOT, check=True, capture_output=True), repeat),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="revised -> lhtr only, fewer repeats")
    parser.add_argument("--repeat", type=int, default=None, help="runs per measurement (default 10, quick 3)")
    options = parser.parse_args()
    repeat = options.repeat or (3 if options.quick else 10)
    ok = in_process("revised", "lhtr", repeat, BUDGET_S)
    _row(
        "interpreter start (python -c pass), for reference",
        _times(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True), repeat),
    )
    end_to_end(["revised", "lhtr"], repeat)
    if not options.quick:
        if (OFFICIAL / "lhtr.xml").is_file():
            xmls = [str(OFFICIAL / "ww2v2.xml"), str(OFFICIAL / "lhtr.xml")]
            in_process(xmls[0], xmls[1], repeat)
            end_to_end(xmls, repeat)
        in_process("lhtr", "aare", max(2, repeat // 3))
        end_to_end(["lhtr", "aare"], max(2, repeat // 3))
    print(f"target: in-process diff of two Revised-sized variants <= {BUDGET_S} s: {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
