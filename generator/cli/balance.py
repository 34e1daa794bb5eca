"""`triplea-forge balance`: many seeded all-AI games per variant, compared with intervals."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

from generator.cli.bounds import GAMES, JAVA_INT_MAX, SEED, WORKERS, FiniteFloat, check_seeds
from generator.cli.group import (
    ACTIONS_OPTION,
    CHOICE_RATE_OPTION,
    OUTPUT_OPTION,
    REPRODUCIBLE_OPTION,
    RULES_OPTION,
    _display,
    action_policy,
    cli,
)
from generator.diagnostics import Diagnostic, ForgeError
from generator.errors import TripleaForgeError
from generator.paths import UnwritableFile

if TYPE_CHECKING:  # the balance lab (scipy, numpy) is imported when a study runs, not with the CLI
    from generator.balance.study import Arm, Played, Study
    from generator.balance.worth import RuleActions


@cli.command()
@click.argument("variants", nargs=-1, required=True)
@click.option("--games", "-n", default=10, show_default=True, type=GAMES, help="Games per variant.")
@click.option(
    "--rounds", "-r", default=6, show_default=True, type=click.IntRange(1, JAVA_INT_MAX), help="Rounds per game."
)
@click.option(
    "--ai",
    type=click.Choice(["fast", "pro"]),
    default="fast",
    show_default=True,
    help="Who plays every side: TripleA's Fast AI or its Hard (Pro) AI.",
)
@ACTIONS_OPTION
@CHOICE_RATE_OPTION
@click.option("--seed", default=1, show_default=True, type=SEED, help="Seed of the first game (seeds S..S+N-1).")
@click.option(
    "--until",
    type=click.Choice(["significant", "bounded"]),
    default=None,
    help="Two variants: play batches of GAMES paired games until a group-sequential test (O'Brien-Fleming-type "
    "spending by the pairs played) decides that the difference in the first side's score (1 for a win, 0 for a "
    "loss, else its share of all unit value on the board) is not zero (significant), or also that it is within "
    "--margin (bounded), or --max-games is reached.",
)
@click.option(
    "--without",
    "forbidden",
    multiple=True,
    metavar="ACTION",
    help="Restricted play, what a rule is worth: one VARIANT played as is and, with the same seeds, once more "
    "for each --without with ACTION (a user or political action, e.g. RuWinter; A+B for several at once) never "
    "taken; the report ranks what each is worth to the first side.",
)
@click.option(
    "--value-of-actions",
    "value_of_actions",
    is_flag=True,
    help="Restricted play for every rule the AIs act on: one VARIANT played as is and, with the same seeds, "
    "once more with each rule's actions never taken (the user and political actions of one rule of its ledger "
    "together, e.g. Russian Winter); the report ranks what each rule is worth to the side that holds it.",
)
@click.option(
    "--margin",
    default=0.05,
    show_default=True,
    type=FiniteFloat(0, 1, min_open=True),
    help="With --until bounded: the score difference (a share of unit value, 0..1) counted as no difference.",
)
@click.option(
    "--max-games",
    default=None,
    type=GAMES,
    help="With --until: the cap on games per variant, never passed (default 5 batches; the last batch is cut "
    "to the cap).",
)
@click.option("--workers", "-w", default=None, type=WORKERS, help="Local JVMs side by side (default: cores).")
@click.option(
    "--cluster",
    default=None,
    metavar="ray://HOST:PORT|auto",
    help="Play on a Ray cluster instead (needs the 'cluster' extra; every node needs TripleA).",
)
@click.option(
    "--out",
    default="balance",
    show_default=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder for games.jsonl, report.md, report.html and the charts.",
)
@click.option("--force", is_flag=True, help="Replace files in --out that are not of a balance study.")
@REPRODUCIBLE_OPTION
@RULES_OPTION
@OUTPUT_OPTION
def balance(
    variants: tuple[str, ...],
    games: int,
    rounds: int,
    ai: str,
    actions: str,
    choice_rate: float,
    reproducible: bool,
    seed: int,
    until: str | None,
    forbidden: tuple[str, ...],
    value_of_actions: bool,
    margin: float,
    max_games: int | None,
    workers: int | None,
    cluster: str | None,
    out: Path,
    force: bool,
    rules_dir: Path,
    output_dir: Path,
) -> None:
    """Play GAMES seeded all-AI games of each VARIANT and compare them.

    Every variant plays the same seeds: game i of a variant is paired with game i of the baseline
    (the first variant), and differences of income and TUV are taken pair by pair (paired t
    intervals). Writes the raw records (OUT/games.jsonl, one game a line), a Markdown and a
    self-contained HTML report and PNG charts; prints the table. Differences are marked where
    their 95 % interval leaves out zero.
    """
    from generator.balance.study import Study, run_study

    _require_libraries()
    # Every seed played is a Java long, as the harness reads it: said before a game is built.
    check_seeds(seed, (max_games or 5 * games) if until else games)
    _check_out(out, force)
    chosen = _arms(variants, rules_dir, output_dir)
    policy = action_policy(actions, choice_rate)
    rules_of = _restricted_arms(chosen, policy, forbidden, value_of_actions, cluster, rules_dir)
    if until and len(chosen) != 2:
        raise click.UsageError("--until compares two variants: name exactly two (or one with --without)")
    settings = _settings(rounds, ai, policy, reproducible)
    study = Study(chosen, games, seed, settings, until, margin, max_games, workers, cluster)
    with _opened(out / "games.jsonl") as stream:  # an engine or cluster that cannot play: exit 2, said once
        played = run_study(study, stream, partial(click.echo, err=True), None if cluster else _find_engine())
    _report(study, played, rules_of, out)


def _report(study: Study, played: Played, rules_of: dict[str, RuleActions], out: Path) -> None:
    """The records rewritten in the plan's order, the table printed, the report files written, and said."""
    from rich.console import Console

    from generator.balance.study import write_report

    # Streamed in the order games finished (an interrupted study keeps what it played); kept in
    # the plan's order (variant by seed), so the same study gives the same file on one worker or many.
    try:
        written = write_report(study, played, rules_of, out, Console())
    except UnwritableFile as exc:
        raise ForgeError([Diagnostic(str(exc))]) from exc
    click.echo(
        f"{len(played.games)} games in {played.wall:.0f} s {played.where}; wrote {_display(out / 'games.jsonl')}, "
        + ", ".join(_display(p) for p in written)
    )


def _require_libraries() -> None:
    """A study needs the 'balance' extra: said before anything is built or played."""
    from generator.balance import missing_libraries

    missing = missing_libraries()
    if missing:
        from generator.release.repo.scaffold import extra_install_line

        raise TripleaForgeError(
            f"a balance study needs {', '.join(missing)} (the 'balance' extra), which this triplea-forge was "
            f"installed without; add it with: {extra_install_line('balance')}"
        )


def _check_out(out: Path, force: bool) -> None:
    """What a study writes is checked before a game is played: hours of play are not lost to a file in
    the way, and a FIFO named games.jsonl is refused rather than waited on. A file of the user's there
    (a report.md of their own) is never replaced without --force."""
    from generator.balance import render
    from generator.cli.outputs import foreign_file_problem, study_kind
    from generator.paths import output_file_problem, output_folder_problem

    blocked = output_folder_problem(out)
    unwritable = [f"cannot write {out}: {blocked}"] if blocked else []  # as given: it may be a link
    for name in [] if blocked else ["games.jsonl", *render.report_files()]:
        problem = output_file_problem(out / name)
        unwritable += [f"cannot write {out / name}: {problem}"] if problem else []
        foreign = None if problem else foreign_file_problem(out / name, study_kind(name), force, "--out", "folder")
        unwritable += [foreign] if foreign else []
    if unwritable:
        raise ForgeError([Diagnostic(message) for message in unwritable])


def _arms(variants: tuple[str, ...], rules_dir: Path, output_dir: Path) -> list[Arm]:
    """One arm per variant named, its built file: never a stale game, the variants are built first, as
    `check` does; a shipped one into a temporary folder that lives as long as the command (never into
    the mod's own output/). A name is the rules folder's own variant, else one triplea-forge ships."""
    from generator.cli.targets import built_games, find_variants, unknown_variant
    from generator.spec.resolve import Rules

    specs = Rules(rules_dir, _display(rules_dir))
    found = find_variants(variants, specs)
    if found.neither:
        raise click.UsageError("; ".join(unknown_variant(name, specs) for name in found.neither))
    shipped = built_games(found, specs, output_dir)
    return [(v, shipped.get(v, output_dir / "games" / f"{v}.xml"), None) for v in dict.fromkeys(variants)]


def _restricted_arms(
    chosen: list[Arm],
    policy: str,
    forbidden: tuple[str, ...],
    value_of_actions: bool,
    cluster: str | None,
    rules_dir: Path,
) -> dict[str, RuleActions]:
    """Restricted play: the arms of the one variant with rules forbidden, added to ``chosen``, by name."""
    if not (forbidden or value_of_actions):
        return {}
    rules_of = _restricted(chosen, forbidden, value_of_actions, bool(cluster), rules_dir)
    chosen += [(arm, chosen[0][1], f"{policy};without={','.join(r.actions)}") for arm, r in rules_of.items()]
    if value_of_actions:
        click.echo(f"value of actions: {len(rules_of)} rules of {chosen[0][0]}, each forbidden in turn", err=True)
    return rules_of


def _settings(rounds: int, ai: str, policy: str, reproducible: bool) -> Any:
    """How each game of the study is played (generator.balance.lab.Settings)."""
    from generator.balance import lab

    return lab.Settings(rounds=rounds, ai=ai, actions=policy, reproducible=reproducible)


@contextmanager
def _opened(path: Path) -> Iterator[TextIO]:
    """games.jsonl, open for the records streamed as games finish."""
    from generator.paths import open_output

    try:
        stream = io.TextIOWrapper(open_output(path), encoding="utf-8")
    except UnwritableFile as exc:
        raise ForgeError([Diagnostic(str(exc))]) from exc
    with stream:
        yield stream


def _find_engine() -> Any:
    from generator.engine.harness import find_engine

    return find_engine()


def _restricted(
    chosen: list[Arm],
    forbidden: tuple[str, ...],
    every_rule: bool,
    cluster: bool,
    rules_dir: Path,
) -> dict[str, RuleActions]:
    """The restricted arms, by name: each --without, or every rule made of actions (--value-of-actions)."""
    from generator.balance.worth import RuleActions, from_spec, from_xml

    if len(chosen) != 1 or cluster:
        raise click.UsageError(
            "--without and --value-of-actions play one variant several ways, on local workers: name exactly one"
        )
    if forbidden and every_rule:
        raise click.UsageError("--value-of-actions forbids every rule in turn: give it without --without")
    name, path, _ = chosen[0]
    if every_rule:
        found = from_spec(_spec(rules_dir, name))
        if not found:
            raise click.UsageError(f"{name} has no user or political actions to forbid")
        return {f"{name} without {rule.label}": rule for rule in found}
    held = from_xml(path)
    unknown = list(dict.fromkeys(a for group in forbidden for a in group.split("+") if a not in held))
    if unknown:
        known = ", ".join(sorted(held)[:12]) + (", ..." if len(held) > 12 else "")
        raise click.UsageError(f"no action {', '.join(unknown)} in {name} (its actions: {known or 'none'})")
    return {
        f"{name} without {group}": RuleActions(
            group, tuple(group.split("+")), tuple(dict.fromkeys(p for a in group.split("+") for p in held[a]))
        )
        for group in dict.fromkeys(forbidden)
    }


def _spec(rules_dir: Path, name: str) -> Any:
    """The variant's checked spec (it was just built, so it loads)."""
    from generator.checks.variant import check_variant
    from generator.spec.resolve import Rules

    loaded, problems = check_variant(Rules(rules_dir, _display(rules_dir)), name)
    if loaded is None:
        raise ForgeError(problems)
    return loaded.spec
