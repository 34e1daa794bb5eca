"""`triplea-forge coverage`: the rule ledgers by grade and proof, and the mutation sweep (`--mutate`)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cli.group import RULES_OPTION, _display, _report, cli
from generator.cli.release import EngineUnusable
from generator.diagnostics import Diagnostic

if TYPE_CHECKING:
    from generator.emit.coverage import Coverage
    from generator.engine.sweep import SweepResult
    from generator.spec.model import Spec
    from generator.spec.resolve import Rules


@cli.command()
@click.argument("variants", nargs=-1)
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["table", "markdown"]),
    default="table",
    show_default=True,
    help="A terminal table, or Markdown for reports and pull requests.",
)
@click.option(
    "--mutation-results",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("output/mutation"),
    show_default=True,
    help="Folder of the mutation sweep's <variant>.json (pytest -m mutation --update-goldens writes them).",
)
@click.option(
    "--mutate",
    is_flag=True,
    help="Run the mutation sweep in engine 1.9: mutants of every enforced rule, and the proofs run on them.",
)
@click.option(
    "--list-stale",
    is_flag=True,
    help="Only print the variants whose recorded sweep is missing or stale, one a line (CI sweeps those).",
)
@RULES_OPTION
def coverage(
    variants: tuple[str, ...], fmt: str, mutation_results: Path, mutate: bool, list_stale: bool, rules_dir: Path
) -> None:
    """Count each variant's rule ledger by fidelity grade and section, for TripleA 1.9 and 2.x.

    Without VARIANTS, every variant in rules/ that has a rule ledger. The 2.x grade is the rule's
    `fidelity_2x` where it has one, else its 1.9 grade. The proof column counts the enforced rules
    an engine scenario shows, those only pinned by dump facts, and those without a proof; the
    mutation line gives the sweep's recorded score, marked stale when the variant changed since.

    With --mutate, each variant's enforced rules are mutated one edit at a time (an option dropped,
    a number changed by one, a switch flipped, a list shortened or widened, a name swapped) and the
    proofs of the rules an edit serves run on each mutant: its dump facts, then its scenarios,
    which kill the mutant when they fail or report other facts than on the variant's own game.
    Exit 1 when a mutant survives.
    """
    from rich.console import Console

    from generator.checks.variant import check_variant
    from generator.emit.coverage import coverage as ledger_coverage
    from generator.emit.coverage import render_markdown, render_table
    from generator.spec.resolve import Rules

    rules = Rules(rules_dir, _display(rules_dir))
    known = rules.variants()
    for name in variants:
        if name not in known:
            raise click.BadParameter(f"no variant '{name}' in {_display(rules_dir)}/", param_hint="VARIANTS")
    problems: list[Diagnostic] = []
    reports: list[Coverage] = []
    specs: dict[str, Spec] = {}
    for name in variants or tuple(known):
        loaded, found = check_variant(rules, name)
        problems += found
        if loaded is None:
            continue
        if not loaded.spec.rule_ledger:
            if variants:
                raise click.ClickException(f"variant '{name}' has no rule ledger (rule_ledger: in its spec)")
            continue
        specs[name] = loaded.spec
        reports.append(ledger_coverage(name, loaded.spec, mutation_results))
    _report(problems)
    if not reports:
        raise click.ClickException(f"no variant in {_display(rules_dir)}/ has a rule ledger")
    if mutate:
        _sweep_all(rules, specs)
        return
    _mark_stale(rules, reports)
    if list_stale:
        for report in reports:
            if specs[report.variant].game.target != "2.x" and (report.mutation is None or report.mutation.stale):
                click.echo(report.variant)
        return
    if fmt == "markdown":
        click.echo(render_markdown(reports), nl=False)
    else:
        console = Console()
        if not console.is_terminal:
            console.width = max(console.width, 120)
        render_table(reports, console)


def _mark_stale(rules: Rules, reports: list[Coverage]) -> None:
    """A recorded sweep of another game than the variant's today is stale (its fingerprint differs)."""
    from generator.engine.mutation import expanded_tree
    from generator.engine.sweep import fingerprint

    for report in reports:
        if report.mutation is not None:
            report.mutation.stale = report.mutation.fingerprint != fingerprint(expanded_tree(rules, report.variant))


def _sweep_all(rules: Rules, specs: dict[str, Spec]) -> None:
    """Sweep each variant (those made for 2.x are their parent's game in engine 1.9: swept there)."""
    from generator.engine.harness import EngineError
    from generator.engine.mutation import expanded_tree, parent_tree

    survivors = 0
    for name, spec in specs.items():
        if spec.game.target == "2.x":
            click.echo(f"{name}: made for TripleA 2.x; engine 1.9 plays its parent's game, swept there")
            continue
        enforced = {i: e for i, e in spec.rule_ledger.items() if e.fidelity.grade != "notes-only"}
        with tempfile.TemporaryDirectory(prefix="forge-map-files-") as folder:
            _write_map_files(spec, Path(folder))
            try:
                from generator.engine.sweep import sweep

                result = sweep(
                    name,
                    enforced,
                    expanded_tree(rules, name),
                    parent=parent_tree(rules, name),
                    map_files=Path(folder),
                    progress=lambda line: click.echo(line, err=True),
                )
            except EngineError as exc:
                raise EngineUnusable(str(exc)) from exc
        survivors += _print_sweep(result, len(spec.rule_ledger))
    if survivors:
        raise SystemExit(1)


def _print_sweep(result: SweepResult, rules: int) -> int:
    """The variant's line, then each entry with survivors and its surviving edits; the survivor count."""
    records = [r.as_json() for r in result.entries]
    mutants, killed = sum(r["mutants"] for r in records), sum(r["killed"] for r in records)
    equivalent = sum(len(r["equivalent"]) + r["same_game"] for r in records)
    left = sum(len(r["survivors"]) for r in records)
    without = [r.rule_id for r, n in zip(result.entries, records, strict=True) if not n["mutants"]]
    click.echo(
        f"{result.variant}: {len(result.entries)} enforced of {rules} rules; {mutants} mutants, {killed} killed, "
        f"{equivalent} equivalent, {left} survivors; {result.seconds:g} s"
    )
    for entry, record in zip(result.entries, records, strict=True):
        if record["survivors"]:
            click.echo(f"  {entry.rule_id}: {len(record['survivors'])} of {record['mutants']} mutants survive")
            for edit in record["survivors"]:
                click.echo(f"    {edit}")
    if without:
        click.echo(f"  no mutant builds for: {', '.join(without)}")
    return left + len(without)


def _write_map_files(spec: Spec, folder: Path) -> None:
    """The variant's map .properties files as its package writes them: trigger texts live there."""
    from generator.release.properties import encode, format_entry
    from generator.spec.option_values import xml_value

    for file, entries in spec.map_files.items():
        lines = [format_entry(key, xml_value(value)) for key, value in entries.items()]
        (folder / f"{file}.properties").write_bytes(encode(lines))
