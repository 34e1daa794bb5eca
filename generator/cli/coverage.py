"""`triplea-forge coverage`: the rule ledgers by grade and proof, and the mutation sweep (`--mutate`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from generator.cli.group import RULES_OPTION, _display, _report, cli
from generator.diagnostics import Diagnostic, did_you_mean
from generator.errors import TripleaForgeError

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

    from generator.checks.claims import check_claims
    from generator.checks.variant import check_variant
    from generator.emit.coverage import coverage as ledger_coverage
    from generator.spec.resolve import Rules

    rules = Rules(rules_dir, _display(rules_dir))
    known = rules.variants()
    for name in variants:
        if not rules.exists(name):  # the folder's own, or one triplea-forge ships (a mod's base)
            raise click.BadParameter(
                f"no variant '{name}' in {_display(rules_dir)}/ or among the variants triplea-forge ships"
                + did_you_mean(name, rules.known()),
                param_hint="VARIANTS",
            )
    ledger_only = mutate or list_stale  # the sweep mutates what a ledger enforces
    problems: list[Diagnostic] = []
    reports: list[Coverage] = []
    specs: dict[str, Spec] = {}
    unledgered: dict[str, CheckedVariant] = {}
    listed: dict[str, CheckedVariant] = {}  # by rule, in the order shown
    for name in variants or tuple(known):
        loaded, found = check_variant(rules, name)
        problems += found
        if loaded is None:
            continue
        if not loaded.spec.rule_ledger:
            if variants and ledger_only:
                raise TripleaForgeError(f"variant '{name}' has no rule ledger (rule_ledger: in its spec)")
            unledgered[name] = loaded
            continue
        specs[name] = loaded.spec
        problems += check_claims(rules, loaded)  # a member of a set rule no entry claims: never swept
        reports.append(ledger_coverage(name, loaded.spec, mutation_results))
        if by_rule:
            listed[name] = loaded
    _report(problems)
    if ledger_only or (not variants and reports):
        unledgered = {}  # without VARIANTS, a folder with ledgers shows those (the project's own rules/)
    if not reports and (ledger_only or not unledgered):
        what = " has a rule ledger" if ledger_only else " (start one: triplea-forge new NAME)"
        raise TripleaForgeError(f"no variant in {_display(rules_dir)}/{what}")
    if mutate:
        _sweep_all(rules, specs)
        return
    _mark_stale(rules, reports)
    if list_stale:
        for report in reports:
            if specs[report.variant].game.target != "2.x" and (report.mutation is None or report.mutation.stale):
                click.echo(report.variant)
        return
    listed.update(unledgered)
    order = [n for n in variants or tuple(known) if n in listed or n in specs]
    console = Console()
    if fmt == "table" and not console.is_terminal:
        console.width = max(console.width, 120)
    _show(order, reports, listed, rules_dir, fmt, console)


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


def _mark_stale(rules: Rules, reports: list[Coverage]) -> None:
    """A recorded sweep of another game than the variant's today is stale (its fingerprint differs)."""
    from generator.engine.mutation import expanded_tree
    from generator.engine.sweep import fingerprint

    for report in reports:
        if report.mutation is not None:
            report.mutation.stale = report.mutation.fingerprint != fingerprint(expanded_tree(rules, report.variant))


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
