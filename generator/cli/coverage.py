"""`triplea-forge coverage`: the rule ledgers by grade and proof, and the mutation sweep (`--mutate`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cli.group import RULES_OPTION, _display, _report, cli
from generator.diagnostics import did_you_mean

if TYPE_CHECKING:
    from rich.console import Console

    from generator.checks.variant import CheckedVariant
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
@click.option(
    "--by-rule",
    is_flag=True,
    help="Also list each rule of a variant with a ledger as a variant without one is listed: its place, "
    "its gates, what check saw it do.",
)
@RULES_OPTION
def coverage(
    variants: tuple[str, ...],
    fmt: str,
    mutation_results: Path,
    mutate: bool,
    list_stale: bool,
    by_rule: bool,
    rules_dir: Path,
) -> None:
    """Each rule a variant writes, and what of it is enforced, shown in the engine and seen in play.

    A variant without a rule ledger (any mod) lists each rule it writes (a pattern use, a trigger,
    a national objective, a user or political action): its place in the YAML, its gates (every one
    open, or the one that keeps it inert, as validate says it) and what the last `check` of the
    variant saw it do (fired, offered, taken: in how many games, from which round). That evidence
    is of the game check played: a variant edited since says its evidence is of an earlier build.
    A variant triplea-forge ships can be named from any folder.

    A variant with a rule ledger counts it by fidelity grade and section, for TripleA 1.9 and 2.x
    (--by-rule lists its rules too). Without VARIANTS, every variant in rules/ that has a rule
    ledger; in a folder where none has one, every variant. The 2.x grade is the rule's
    `fidelity_2x` where it has one, else its 1.9 grade. The proof column counts the enforced rules
    an engine scenario shows, those only pinned by dump facts, and those without a proof; the
    mutation line gives the sweep's recorded score, marked stale when the variant changed since.
    A rule over a set (convoy zones, victory cities) claims each member: an element the variant
    writes with an option a rule claims on two or more others, claimed by no entry, is an error.

    With --mutate, each variant's enforced rules are mutated one edit at a time (an option dropped,
    a switch flipped, a number moved by one or doubled, a list item dropped or written twice, a
    name swapped for a sibling's, a neighbour's or another of its kind, a condition inverted, a
    trigger given one use) and the proofs of the rules an edit serves run on each mutant: its dump
    facts, then its scenarios, which kill the mutant when they fail or report other facts than on
    the variant's own game. Exit 1 when a mutant survives.
    """
    from rich.console import Console

    from generator.engine.ledger_report import gather_ledgers, mark_stale, refuse_nothing_to_show
    from generator.spec.resolve import Rules

    rules = Rules(rules_dir, _display(rules_dir))
    _refuse_unknown(variants, rules)
    ledger_only = mutate or list_stale  # the sweep mutates what a ledger enforces
    names = variants or tuple(rules.variants())
    found = gather_ledgers(rules, names, bool(variants), ledger_only, by_rule, mutation_results)
    _report(found.problems)
    refuse_nothing_to_show(rules, found, ledger_only)
    if mutate:
        _sweep_all(rules, found.specs)
        return
    mark_stale(rules, found)
    if list_stale:
        for name in found.stale_sweeps():
            click.echo(name)
        return
    console = Console()
    if fmt == "table" and not console.is_terminal:
        console.width = max(console.width, 120)
    _show(found.order, found.reports, found.listed, rules_dir, fmt, console)


def _refuse_unknown(variants: tuple[str, ...], rules: Rules) -> None:
    """A usage error for a name that is neither the folder's variant nor one triplea-forge ships (a mod's base)."""
    for name in variants:
        if not rules.exists(name):
            raise click.BadParameter(
                f"no variant '{name}' in {rules.display_root}/ or among the variants triplea-forge ships"
                + did_you_mean(name, rules.known()),
                param_hint="VARIANTS",
            )


def _show(
    order: list[str],
    reports: list[Coverage],
    listed: dict[str, CheckedVariant],
    rules_dir: Path,
    fmt: str,
    console: Console,
) -> None:
    """Each variant in order: its ledger's counts, then its rules one by one (those listed)."""
    from generator.emit.coverage import render_markdown, render_table
    from generator.engine.rule_coverage import render_rules_markdown, render_rules_table, rule_report

    ledgers = {r.variant: r for r in reports}
    parts: list[str] = []
    for name in order:
        ledger = ledgers.get(name)
        if ledger is not None:
            if fmt == "markdown":
                parts.append(render_markdown([ledger]))
            else:
                render_table([ledger], console)
        if name in listed:
            by_rule = rule_report(listed[name], _check_command(rules_dir, name))
            if fmt == "markdown":
                parts.append(render_rules_markdown(by_rule))
            else:
                render_rules_table(by_rule, console)
    if parts:
        click.echo("\n".join(parts), nl=False)


def _check_command(rules_dir: Path, name: str) -> str:
    """What plays the variant's game (a shipped one too, as check finds it by name)."""
    folder = "" if rules_dir == Path("rules") else f" --rules {_display(rules_dir)}"
    return f"triplea-forge check {name}{folder}"


def _sweep_all(rules: Rules, specs: dict[str, Spec]) -> None:
    """Each variant's sweep said as it finishes (stage release.ledger_sweep); exit 1 when a mutant survives."""
    from generator.release.ledger_sweep import sweep_variants

    survivors = 0
    for swept in sweep_variants(rules, specs, progress=lambda line: click.echo(line, err=True)):
        if swept.result is None:
            click.echo(f"{swept.name}: made for TripleA 2.x; engine 1.9 plays its parent's game, swept there")
        else:
            survivors += _print_sweep(swept.result, swept.rules)
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
    for operator, fates in result.by_operator().items():
        click.echo(
            f"  {operator}: {fates['mutants']} mutants, {fates['killed']} killed, {fates['equivalent']} equivalent, "
            f"{fates['survivors']} survivors ({fates['stillborn']} stillborn)"
        )
    for entry, record in zip(result.entries, records, strict=True):
        if record["survivors"]:
            click.echo(f"  {entry.rule_id}: {len(record['survivors'])} of {record['mutants']} mutants survive")
            for edit in record["survivors"]:
                click.echo(f"    {edit}")
    if without:
        click.echo(f"  no mutant builds for: {', '.join(without)}")
    return left + len(without)
