"""Rule-ledger coverage: how much of a seed document each target engine enforces, and proves.

Counts the ledger's rules by fidelity grade, overall and per section (in the order the sections
first appear), for TripleA 1.9 (`fidelity`) and TripleA 2.x (`fidelity_2x` where set, else the
1.9 grade: what 1.9 enforces, 2.x enforces too). An enforced rule is "proven in the engine" when
its entry names a proof (`proof:`, checked by the build and verified by the tests in engine 1.9);
on 2.x only the rules graded as on 1.9 count, since what 2.x does better is not played in 1.9.
The kind of proof is counted too: "shown" (an engine scenario run on the variant plays the rule),
"pinned" (only facts of the engine's dump: option values), "none". With the mutation sweep's
results (tests/engine/test_mutation.py records them in output/mutation/<variant>.json), each variant also
gets its mutation score: the enforced rules swept, their mutants, how many the proofs killed, and
the entries with survivors. Rendered as a rich table for the terminal or as Markdown.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from generator.catalog.scenarios import SCENARIOS
from generator.checks.proofs import shown_on
from generator.emit.sweep_record import read_record
from generator.spec.ledger import LedgerEntry
from generator.spec.model import Spec
from generator.targets import ENGINES, EngineName

GRADES: tuple[str, ...] = ("exact", "approximate", "notes-only")
PROOF_KINDS: tuple[str, ...] = ("shown", "pinned", "none")


@dataclass
class Tally:
    """Rules per grade (in GRADES order) for one engine, and how many of them are proven."""

    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(GRADES, 0))
    proven: dict[str, int] = field(default_factory=lambda: dict.fromkeys(GRADES, 0))
    # Enforced rules by the kind of their proof (PROOF_KINDS).
    kinds: dict[str, int] = field(default_factory=lambda: dict.fromkeys(PROOF_KINDS, 0))

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def enforced(self) -> int:
        """Rules the game enforces, exactly or approximately."""
        return self.counts["exact"] + self.counts["approximate"]

    @property
    def enforced_proven(self) -> int:
        """Enforced rules whose grade is shown in the engine."""
        return self.proven["exact"] + self.proven["approximate"]

    def percent(self, grade: str) -> float:
        return 100.0 * self.counts[grade] / self.total if self.total else 0.0

    def proven_percent(self) -> float:
        return 100.0 * self.enforced_proven / self.enforced if self.enforced else 0.0

    def add(self, grade: str, proven: bool = False, kind: str = "none") -> None:
        self.counts[grade] += 1
        if proven:
            self.proven[grade] += 1
        if grade != "notes-only":
            self.kinds[kind if proven else "none"] += 1


@dataclass
class MutationScore:
    """The mutation sweep's record for one variant (output/mutation/<variant>.json)."""

    entries: int = 0
    mutants: int = 0
    killed: int = 0
    # Entry -> its surviving mutants (an edit of an option several rules claim is each one's).
    survivors: dict[str, list[str]] = field(default_factory=dict)
    equivalent: int = 0  # survivors no game can tell from the original (generator/engine/equivalent.py says why)
    same_game: int = 0  # mutants the engine reads exactly as the original (a default value dropped)
    fingerprint: str = ""  # of what the record depends on (generator/engine/sweep.py)
    stale: bool = False  # the variant changed since: the record is not of the game as it is
    # Operator -> the distinct mutants it made (generator/engine/operators.py), as the sweep recorded.
    operators: dict[str, int] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path, enforced: set[str]) -> MutationScore | None:
        """The recorded results of the entries still enforced; None when the sweep has not run."""
        if not path.is_file():
            return None
        recorded = read_record(path, str(path))  # a merge conflict, a hand edit: said where (exit 1)
        score = cls(fingerprint=str(recorded.get("fingerprint", "")))
        for operator, fates in recorded.get("operators", {}).items():
            score.operators[str(operator)] = int(fates.get("mutants", 0))
        entries: dict[str, Any] = recorded.get("entries", {})
        for rule_id, result in sorted(entries.items()):
            if rule_id not in enforced:
                continue
            score.entries += 1
            score.mutants += int(result.get("mutants", 0))
            score.killed += int(result.get("killed", 0))
            score.equivalent += len(result.get("equivalent", []))
            score.same_game += int(result.get("same_game", 0))
            if result.get("survivors") or not result.get("mutants"):
                score.survivors[rule_id] = list(result.get("survivors", []))
        return score


@dataclass
class SectionCoverage:
    title: str
    by_engine: dict[str, Tally] = field(default_factory=lambda: {e: Tally() for e in ENGINES})


@dataclass
class Coverage:
    variant: str
    total: dict[str, Tally] = field(default_factory=lambda: {e: Tally() for e in ENGINES})
    sections: list[SectionCoverage] = field(default_factory=list)
    # Rules whose 2.x grade differs from their 1.9 grade: (id, 1.9 grade, 2.x grade).
    raised: list[tuple[str, str, str]] = field(default_factory=list)
    mutation: MutationScore | None = None

    @property
    def rules(self) -> int:
        return self.total["1.9"].total


def grade_for(entry: LedgerEntry, engine: EngineName) -> str:
    """The rule's grade on one engine: 2.x falls back to the 1.9 grade."""
    if engine == "2.x" and entry.fidelity_2x is not None:
        return entry.fidelity_2x.grade
    return entry.fidelity.grade


def is_proven(entry: LedgerEntry, engine: EngineName, variant: str | None = None) -> bool:
    """The rule is enforced on `engine` and its grade there is shown in the engine (engine 1.9)."""
    if entry.proof is None or grade_for(entry, engine) == "notes-only" or not shown_on(entry.proof, variant):
        return False
    return grade_for(entry, engine) == entry.fidelity.grade and (engine == "1.9" or entry.fidelity_2x is None)


def proof_kind(entry: LedgerEntry, variant: str | None = None) -> str:
    """The kind of proof: "shown" (a scenario run on the variant plays the rule), "pinned" (dump facts
    only) or "none"."""
    if entry.proof is None or not shown_on(entry.proof, variant):
        return "none"
    if any(variant is None or variant in SCENARIOS[n].variants for n in entry.proof.scenarios if n in SCENARIOS):
        return "shown"
    return "pinned"


def coverage(variant: str, spec: Spec, mutation_results: Path | None = None) -> Coverage:
    """Counts of the variant's rule ledger by grade, engine and section; with MUTATION_RESULTS (a
    folder of <variant>.json), the variant's mutation score."""
    result = Coverage(variant)
    by_title: dict[str, SectionCoverage] = {}
    for rule_id, entry in spec.rule_ledger.items():
        section = by_title.get(entry.section)
        if section is None:
            section = by_title[entry.section] = SectionCoverage(entry.section)
            result.sections.append(section)
        for engine in ENGINES:
            grade = grade_for(entry, engine)
            proven = is_proven(entry, engine, variant)
            kind = proof_kind(entry, variant)
            section.by_engine[engine].add(grade, proven, kind)
            result.total[engine].add(grade, proven, kind)
        if grade_for(entry, "2.x") != entry.fidelity.grade:
            result.raised.append((rule_id, entry.fidelity.grade, grade_for(entry, "2.x")))
    if mutation_results is not None:
        enforced = {i for i, e in spec.rule_ledger.items() if e.fidelity.grade != "notes-only"}
        result.mutation = MutationScore.read(mutation_results / f"{variant}.json", enforced)
    return result


def _cell(tally: Tally, grade: str) -> str:
    return f"{tally.counts[grade]} ({tally.percent(grade):.0f}%)"


def _proven_cell(tally: Tally) -> str:
    """Proven exact + proven approximate rules, of the enforced ones."""
    if not tally.enforced:
        return "-"
    return (
        f"{tally.proven['exact']} + {tally.proven['approximate']} of {tally.enforced} ({tally.proven_percent():.0f}%)"
    )


def _kinds_cell(tally: Tally) -> str:
    return " / ".join(str(tally.kinds[k]) for k in PROOF_KINDS) if tally.enforced else "-"


def _cells(tally: Tally) -> list[str]:
    return [_cell(tally, g) for g in GRADES] + [str(tally.total), _proven_cell(tally), _kinds_cell(tally)]


def _rows(report: Coverage) -> Iterable[tuple[str, EngineName, list[str]]]:
    """(section, engine, cells) rows: every section, then the total."""
    for section in report.sections:
        for engine in ENGINES:
            yield section.title, engine, _cells(section.by_engine[engine])
    for engine in ENGINES:
        yield "All rules", engine, _cells(report.total[engine])


def proven_line(report: Coverage, engine: EngineName) -> str:
    """One sentence: the share of the enforced rules proven in the engine."""
    tally = report.total[engine]
    return (
        f"{report.variant}: {tally.enforced_proven} of {tally.enforced} enforced rules proven in the engine "
        f"on {engine} ({tally.proven_percent():.0f}%)"
    )


HEADERS = ("section", "engine", *GRADES, "rules", "proven in the engine", "proof: shown / pinned / none")
PROVEN_KEY = "proven in the engine: exact + approximate rules whose grade an engine scenario or dump shows"
KINDS_KEY = (
    "proof: enforced rules an engine scenario plays (shown), whose dump facts alone pin option values "
    "(pinned), or without a proof on this variant (none)"
)


def mutation_line(report: Coverage) -> str:
    """One sentence: the mutation score, and the entries whose proofs let a mutant live."""
    score = report.mutation
    tally = report.total["1.9"]
    if score is None:
        return f"{report.variant}: mutation sweep not run (triplea-forge coverage {report.variant} --mutate)"
    share = f" ({100.0 * score.killed / score.mutants:.0f}%)" if score.mutants else ""
    line = (
        f"{report.variant}: mutation: {score.entries} of {tally.enforced} enforced rules swept, "
        f"{score.mutants} mutants, {score.killed} killed{share}"
    )
    if score.equivalent or score.same_game:
        line += f", {score.equivalent + score.same_game} equivalent"
    if score.operators:
        line += " (distinct mutants by operator: " + ", ".join(f"{op} {n}" for op, n in score.operators.items()) + ")"
    if score.survivors:
        listed = ", ".join(f"{rule} ({len(edits) or 'no mutant'})" for rule, edits in score.survivors.items())
        line += f"; survivors: {listed}"
    if score.stale:
        line += " (stale: the variant changed since the sweep)"
    return line


# A terminal too narrow for the full table (80 columns) gets counts only, under short headers
# explained by this legend: nothing wraps inside a cell and nothing is cut off.
COMPACT_HEADERS = ("section", "eng", "exact", "appr", "notes", "all", "proven")
COMPACT_KEY = (
    "appr = approximate, notes = notes-only, all = rules in the section, proven = exact + approximate "
    "rules an engine scenario or dump shows, of the enforced ones (shares: a wider terminal or --format markdown)"
)


def _compact_cells(tally: Tally) -> list[str]:
    proven = f"{tally.enforced_proven}/{tally.enforced}" if tally.enforced else "-"
    return [str(tally.counts[g]) for g in GRADES] + [str(tally.total), proven]


def _table(report: Coverage, compact: bool) -> Table:
    title = f"rule coverage: {report.variant} ({report.rules} rules)"
    table = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False) if compact else Table(title=title)
    for header in COMPACT_HEADERS if compact else HEADERS:
        justify = "left" if header in ("section", "engine", "eng") else "right"
        table.add_column(header, justify=justify, no_wrap=True)  # type: ignore[arg-type]
    previous = None
    rows = list(_rows(report))
    for index, (title, engine, cells) in enumerate(rows):
        last = index == len(rows) - 1 or rows[index + 1][0] != title
        label = title if title != previous else ""
        style = "bold" if title == "All rules" else None
        shown = _compact_cells(_tally_of(report, title, engine)) if compact else cells
        table.add_row(label, engine, *shown, style=style, end_section=last and not compact)
        previous = title
    return table


def _tally_of(report: Coverage, title: str, engine: EngineName) -> Tally:
    if title == "All rules":
        return report.total[engine]
    return next(s.by_engine[engine] for s in report.sections if s.title == title)


def render_table(reports: Sequence[Coverage], console: Console) -> None:
    """Terminal tables, one per variant, then the rules whose grade differs on 2.x; the compact
    table where the full one would not fit the terminal."""
    for report in reports:
        table = _table(report, compact=False)
        compact = console.measure(table, options=console.options.update_width(10_000)).maximum > console.width
        console.print(_table(report, compact=True) if compact else table)
        console.print(COMPACT_KEY if compact else PROVEN_KEY, markup=False, highlight=False)
        if not compact:
            console.print(KINDS_KEY, markup=False, highlight=False)
        for engine in ENGINES:
            console.print(proven_line(report, engine), markup=False, highlight=False)
        if report.mutation is not None:
            console.print(mutation_line(report), markup=False, highlight=False)
        for rule_id, before, after in report.raised:
            line = f"{report.variant}: {rule_id} is {before} in 1.9, {after} in 2.x"
            console.print(line, markup=False, highlight=False)


def render_markdown(reports: Sequence[Coverage]) -> str:
    """The same tables as Markdown (GitHub flavour)."""
    lines: list[str] = []
    for report in reports:
        if lines:
            lines.append("")
        lines.append(f"## Rule coverage: {report.variant}")
        lines.append("")
        lines.append(
            f"{report.rules} rules in the ledger; counts (and shares) by fidelity grade, and how many of the "
            "enforced rules are proven in the engine."
        )
        lines.append("")
        lines.append("| " + " | ".join(HEADERS) + " |")
        lines.append("|" + "|".join(["---", "---"] + ["---:"] * (len(HEADERS) - 2)) + "|")
        for title, engine, cells in _rows(report):
            shown_engine: str = engine
            if title == "All rules":
                title, shown_engine, cells = f"**{title}**", f"**{engine}**", [f"**{c}**" for c in cells]
            lines.append("| " + " | ".join([title.replace("|", "\\|"), shown_engine, *cells]) + " |")
        lines.append("")
        lines.append(PROVEN_KEY[:1].upper() + PROVEN_KEY[1:] + "; " + KINDS_KEY + ".")
        lines.append("")
        lines.extend(f"- {proven_line(report, engine)}" for engine in ENGINES)
        if report.mutation is not None:
            lines.append(f"- {mutation_line(report)}")
        if report.raised:
            lines.append("")
            lines.append("Rules graded higher on TripleA 2.x:")
            lines.append("")
            lines.extend(f"- `{rule_id}`: {before} in 1.9, {after} in 2.x" for rule_id, before, after in report.raised)
    return "\n".join(lines) + "\n"
