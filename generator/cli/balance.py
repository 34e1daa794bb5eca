"""`triplea-forge balance`: many seeded all-AI games per variant, compared with intervals."""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
from generator.cli.release import EngineUnusable
from generator.diagnostics import Diagnostic, ForgeError

if TYPE_CHECKING:  # the balance lab (scipy, numpy) is imported when a study runs, not with the CLI
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
    from rich.console import Console

    from generator.balance import lab, missing_libraries, records, render
    from generator.balance.cluster import ClusterError
    from generator.balance.summary import prices, summarize
    from generator.cli.authoring import build_variants
    from generator.cli.outputs import foreign_file_problem, study_kind
    from generator.cli.targets import find_variants, shipped_games, unknown_variant
    from generator.engine.harness import EngineError, find_engine
    from generator.paths import UnwritableFile, open_output, output_file_problem, output_folder_problem
    from generator.spec.resolve import Rules

    missing = missing_libraries()
    if missing:
        from generator.release.scaffold import extra_install_line

        raise click.ClickException(
            f"a balance study needs {', '.join(missing)} (the 'balance' extra), which this triplea-forge was "
            f"installed without; add it with: {extra_install_line('balance')}"
        )
    # Every seed played is a Java long, as the harness reads it: said before a game is built.
    check_seeds(seed, (max_games or 5 * games) if until else games)
    # A name is the rules folder's own variant, else one triplea-forge ships (cli.targets).
    specs = Rules(rules_dir, _display(rules_dir))
    found = find_variants(variants, specs)
    if found.neither:
        raise click.UsageError("; ".join(unknown_variant(name, specs) for name in found.neither))
    # What the study writes is checked before a game is played: hours of play are not lost to a
    # file in the way, and a FIFO named games.jsonl is refused rather than waited on.
    # A file of the user's there (a report.md of their own) is never replaced without --force.
    blocked = output_folder_problem(out)
    unwritable = [f"cannot write {out}: {blocked}"] if blocked else []  # as given: it may be a link
    for name in [] if blocked else ["games.jsonl", *render.report_files()]:
        problem = output_file_problem(out / name)
        unwritable += [f"cannot write {out / name}: {problem}"] if problem else []
        foreign = None if problem else foreign_file_problem(out / name, study_kind(name), force, "--out", "folder")
        unwritable += [foreign] if foreign else []
    if unwritable:
        raise ForgeError([Diagnostic(message) for message in unwritable])
    # Never play a stale game: the variants are built first, as `check` does; a shipped one into a
    # temporary folder that lives as long as the study (never into the mod's own output/).
    if found.own:
        build_variants(found.own, False, False, "portable", rules_dir, output_dir)
    shipped = click.get_current_context().with_resource(shipped_games(found.shipped, specs))
    policy = action_policy(actions, choice_rate)
    chosen: list[tuple[str, Path, str | None]] = [
        (v, shipped.get(v, output_dir / "games" / f"{v}.xml"), None) for v in dict.fromkeys(variants)
    ]
    rules_of: dict[str, RuleActions] = {}
    if forbidden or value_of_actions:
        rules_of = _restricted(chosen, forbidden, value_of_actions, bool(cluster), rules_dir)
        chosen += [(arm, chosen[0][1], f"{policy};without={','.join(r.actions)}") for arm, r in rules_of.items()]
        if value_of_actions:
            click.echo(f"value of actions: {len(rules_of)} rules of {chosen[0][0]}, each forbidden in turn", err=True)
    if until and len(chosen) != 2:
        raise click.UsageError("--until compares two variants: name exactly two (or one with --without)")
    # The cap is never overshot: a --max-games that is not a multiple of --games cuts the last batch.
    cap = (max_games or 5 * games) if until else games
    looks = -(-cap // games)
    settings = lab.Settings(rounds=rounds, ai=ai, actions=policy, reproducible=reproducible)
    try:
        stream = io.TextIOWrapper(open_output(out / "games.jsonl"), encoding="utf-8")
    except UnwritableFile as exc:
        raise ForgeError([Diagnostic(str(exc))]) from exc
    finished, planned = 0, 0

    def keep(record: records.Record) -> None:
        nonlocal finished
        finished += 1
        stream.write(records.dumps(record) + "\n")
        stream.flush()
        outcome = record["winningSide"] or f"round {record['roundsCompleted']}"
        problem = f", {len(record['errors'])} errors" if record["errors"] else ""
        click.echo(f"[{finished}/{planned}] {record['variant']} seed {record['seed']}: {outcome}{problem}", err=True)

    played: list[records.Record] = []
    wall, verdicts = 0.0, []
    fractions: list[float] = []  # the information fraction of each look of the stopping rule
    try:
        with stream:
            engine = None if cluster else find_engine()
            count = workers or lab.default_workers()
            where = f"on the Ray cluster {cluster}" if cluster else f"on {count} local worker{'s' if count > 1 else ''}"
            load_before = os.getloadavg()[0]
            for look in range(1, looks + 1):
                plan = lab.plan(chosen, min(games, cap - (look - 1) * games), seed + (look - 1) * games)
                planned += len(plan)
                batch, seconds, _ = lab.timed(partial(_play, plan, settings, keep, cluster, engine, count))
                load_after = os.getloadavg()[0]
                played, wall = played + batch, wall + seconds
                if until:
                    names = (chosen[0][0], chosen[1][0])
                    verdict, stop = _look(played, names, (look, looks, cap), until, margin, fractions)
                    verdicts = [verdict, UNADJUSTED] if stop else [verdict]
                    click.echo(verdict, err=True)
                    if stop:
                        break
    except (EngineError, ClusterError) as exc:
        raise EngineUnusable(str(exc)) from exc
    # Streamed in the order games finished (an interrupted study keeps what it played); kept in
    # the plan's order (variant by seed), so the same study gives the same file on one worker or many.
    # TUV at one price list for every variant: the baseline's (the first variant named).
    price_list = prices([r for r in played if r["variant"] == chosen[0][0]])
    summaries = [summarize(v, [r for r in played if r["variant"] == v], rounds, price_list) for v, _, _ in chosen]
    try:
        records.write(out / "games.jsonl", played)
        worths = _worths(played, chosen[0][0], rules_of)
        speed = [_speed(played, wall, where, (load_before, load_after))]
        render.terminal(summaries, Console(), verdicts, worths, speed)
        written = render.write_all(summaries, out, verdicts, worths, speed)
    except UnwritableFile as exc:
        raise ForgeError([Diagnostic(str(exc))]) from exc
    click.echo(
        f"{len(played)} games in {wall:.0f} s {where}; wrote {_display(out / 'games.jsonl')}, "
        + ", ".join(_display(p) for p in written)
    )


def _restricted(
    chosen: list[tuple[str, Path, str | None]],
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


def _worths(played: list[dict[str, Any]], base_name: str, rules_of: dict[str, RuleActions]) -> list[Any]:
    """What each restricted arm's rule is worth to the side that holds it, paired by seed, most first."""
    from generator.balance.summary import prices
    from generator.balance.worth import ranked, worth

    base = [r for r in played if r["variant"] == base_name]
    price_list = prices(base)
    return ranked(
        [
            worth(arm, rule, base, [r for r in played if r["variant"] == arm], price_list)
            for arm, rule in rules_of.items()
        ]
    )


def _speed(played: list[dict[str, Any]], wall: float, where: str, load: tuple[float, float]) -> str:
    """How fast this machine played the study: games and game-rounds an hour, with the load it had."""
    rounds = sum(r["roundsCompleted"] for r in played)
    per_hour = 3600 / wall if wall > 0 else 0.0
    return (
        f"speed: {len(played)} games ({rounds} game-rounds) in {wall:.0f} s {where}: "
        f"{len(played) * per_hour:.0f} games an hour ({rounds * per_hour:.0f} game-rounds); "
        f"load average {load[0]:.1f} before, {load[1]:.1f} after, on {os.cpu_count() or 1} cores"
    )


def _play(
    plan: list[Any], settings: Any, keep: Callable[[dict[str, Any]], None], cluster: str | None, engine: Any, count: int
) -> list[dict[str, Any]]:
    """One batch of games, on the Ray cluster or on local workers."""
    from generator.balance import lab
    from generator.balance.cluster import play_ray

    if cluster:
        return play_ray(cluster, plan, settings, keep)
    return lab.play_local(engine, plan, settings, count, keep)


# Said after every stop of the stopping rule: only its own interval allows for the looks.
UNADJUSTED = (
    "the table's intervals are not adjusted for the stopping rule's looks: a study that stops when a "
    "difference shows leans towards one, so read them as a description of the games played; the stopping "
    "rule's repeated interval above is the adjusted one"
)


def _look(
    played: list[dict[str, Any]],
    names: tuple[str, str],
    at: tuple[int, int, int],
    until: str,
    margin: float,
    fractions: list[float],
) -> tuple[str, bool]:
    """The sequential test after a batch: the sentence the study prints and reports, and whether it stops.

    ``at`` is (look, looks, cap); ``fractions`` the information fractions of the looks analysed
    before, to which this one's is added: its pairs over the cap's, so pairs dropped for a failed
    game are information the study does not have."""
    from generator.balance.sequential import look as sequential_look
    from generator.balance.summary import paired_scores, prices

    (base, other), (look, looks, cap) = names, at
    baseline = [r for r in played if r["variant"] == base]
    side = sorted({s for r in baseline for s in r["sides"].values()})[:1] or ["-"]
    differences = paired_scores(baseline, [r for r in played if r["variant"] == other], side[0], prices(baseline))
    fraction = len(differences) / cap
    # A look with no new pair (every game of the batch failed) is no look: it would spend for nothing.
    analysed = len(differences) >= 2 and (look >= looks or not fractions or fraction > fractions[-1])
    seen = [*fractions, fraction] if analysed else fractions
    state = sequential_look(differences if analysed else differences[:1], look, looks, until, margin, seen)
    if analysed:
        fractions.append(fraction)
    interval = state.interval
    verdict = f": stop, {state.decision}" if state.decision else ": go on"
    text = (
        f"stopping rule ({until}, O'Brien-Fleming spending, at most {looks} look{'s' if looks > 1 else ''}), "
        f"look {look}: {state.pairs} pairs (information {min(1.0, fraction):.2f}), "
        f"{side[0]} score {other} - {base} {interval.value:+.3f} "
        f"(repeated 95 % interval {interval.low:+.3f}..{interval.high:+.3f}){verdict}"
    )
    return text, bool(state.decision)
