"""`triplea-forge balance`: many seeded all-AI games per variant, compared with intervals."""

from __future__ import annotations

import io
from pathlib import Path

import click

from generator.cli.group import (
    ACTION_POLICIES,
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


@cli.command()
@click.argument("variants", nargs=-1, required=True)
@click.option("--games", "-n", default=10, show_default=True, type=click.IntRange(min=1), help="Games per variant.")
@click.option("--rounds", "-r", default=6, show_default=True, type=click.IntRange(min=1), help="Rounds per game.")
@click.option(
    "--ai",
    type=click.Choice(["fast", "pro"]),
    default="fast",
    show_default=True,
    help="Who plays every side: TripleA's Fast AI or its Hard (Pro) AI.",
)
@click.option(
    "--actions",
    type=click.Choice(ACTION_POLICIES),
    default="rules",
    show_default=True,
    help="How the AIs take the variant's user and political actions (the 1.9 AIs take none themselves): "
    "rules plays them as their rules make sense (see README, balance); random flips a coin per open action.",
)
@CHOICE_RATE_OPTION
@click.option("--seed", default=1, show_default=True, type=int, help="Seed of the first game (seeds S..S+N-1).")
@click.option(
    "--workers", "-w", default=None, type=click.IntRange(min=1), help="Local JVMs side by side (default: cores)."
)
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
    workers: int | None,
    cluster: str | None,
    out: Path,
    rules_dir: Path,
    output_dir: Path,
) -> None:
    """Play GAMES seeded all-AI games of each VARIANT and compare them.

    Every variant plays the same seeds. Writes the raw records (OUT/games.jsonl, one game a line),
    a Markdown and a self-contained HTML report and PNG charts; prints the table. The first
    variant is the baseline: differences are marked where their 95 % interval leaves out zero.
    """
    from rich.console import Console

    from generator.balance import lab, records, render
    from generator.balance.cluster import ClusterError, play_ray
    from generator.balance.summary import prices, summarize
    from generator.cli.authoring import build_variants
    from generator.engine.harness import EngineError, find_engine
    from generator.paths import UnwritableFile, open_output, output_file_problem, output_folder_problem, variant_folders

    known = {folder.name for folder in variant_folders(rules_dir)}
    unknown = [v for v in variants if v not in known]
    if unknown:
        names = ", ".join(sorted(known))
        raise click.UsageError(f"no variant {', '.join(unknown)} in {_display(rules_dir)} (known: {names})")
    # What the study writes is checked before a game is played: hours of play are not lost to a
    # file in the way, and a FIFO named games.jsonl is refused rather than waited on.
    blocked = output_folder_problem(out)
    unwritable = [f"cannot write {out}: {blocked}"] if blocked else []  # as given: it may be a link
    for name in [] if blocked else ["games.jsonl", *render.report_files()]:
        problem = output_file_problem(out / name)
        unwritable += [f"cannot write {out / name}: {problem}"] if problem else []
    if unwritable:
        raise ForgeError([Diagnostic(message) for message in unwritable])
    # Never play a stale game: the variants are built first, as `check` does.
    build_variants(tuple(dict.fromkeys(variants)), False, False, "portable", rules_dir, output_dir)
    chosen = [(v, output_dir / "games" / f"{v}.xml") for v in dict.fromkeys(variants)]
    plan = lab.plan(chosen, games, seed)
    policy = action_policy(actions, choice_rate)
    settings = lab.Settings(rounds=rounds, ai=ai, actions=policy, reproducible=reproducible)
    try:
        stream = io.TextIOWrapper(open_output(out / "games.jsonl"), encoding="utf-8")
    except UnwritableFile as exc:
        raise ForgeError([Diagnostic(str(exc))]) from exc
    finished = 0

    def keep(record: records.Record) -> None:
        nonlocal finished
        finished += 1
        stream.write(records.dumps(record) + "\n")
        stream.flush()
        outcome = record["winningSide"] or f"round {record['roundsCompleted']}"
        problem = f", {len(record['errors'])} errors" if record["errors"] else ""
        click.echo(f"[{finished}/{len(plan)}] {record['variant']} seed {record['seed']}: {outcome}{problem}", err=True)

    try:
        with stream:
            if cluster:
                played, wall, _ = lab.timed(lambda: play_ray(cluster, plan, settings, keep))
                where = f"on the Ray cluster {cluster}"
            else:
                engine = find_engine()
                count = workers or lab.default_workers()
                played, wall, _ = lab.timed(lambda: lab.play_local(engine, plan, settings, count, keep))
                where = f"on {count} local worker{'s' if count > 1 else ''}"
    except (EngineError, ClusterError) as exc:
        raise EngineUnusable(str(exc)) from exc
    # Streamed in the order games finished (an interrupted study keeps what it played); kept in
    # the plan's order (variant by seed), so the same study gives the same file on one worker or many.
    # TUV at one price list for every variant: the baseline's (the first variant named).
    price_list = prices([r for r in played if r["variant"] == chosen[0][0]])
    summaries = [summarize(v, [r for r in played if r["variant"] == v], rounds, price_list) for v, _ in chosen]
    try:
        records.write(out / "games.jsonl", played)
        render.terminal(summaries, Console())
        written = render.write_all(summaries, out)
    except UnwritableFile as exc:
        raise ForgeError([Diagnostic(str(exc))]) from exc
    click.echo(
        f"{len(played)} games in {wall:.0f} s {where}; wrote {_display(out / 'games.jsonl')}, "
        + ", ".join(_display(p) for p in written)
    )
