"""A study from its plan to its report: the batches of paired games, the stopping rule's looks
between them, the records streamed as games finish, then the report in every form.

The `balance` command wires these stages (cli/balance.py); the loop lives here so that it can be
run, and read, without the command's options.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from generator.balance import lab, records

if TYPE_CHECKING:
    from rich.console import Console

    from generator.balance.worth import RuleActions

# (name the report gives it, built game file, its own action policy or None): one arm of a study
Arm = tuple[str, Path, str | None]

# Said after every stop of the stopping rule: only its own interval allows for the looks.
UNADJUSTED = (
    "the table's intervals are not adjusted for the stopping rule's looks: a study that stops when a "
    "difference shows leans towards one, so read them as a description of the games played; the stopping "
    "rule's repeated interval above is the adjusted one"
)


@dataclass(frozen=True)
class Study:
    """What a study plays: its arms (the first is the baseline), seeds and batches, and where."""

    arms: list[Arm]
    games: int  # per batch (per study without --until)
    seed: int
    settings: lab.Settings
    until: str | None = None
    margin: float = 0.05
    max_games: int | None = None
    workers: int | None = None
    cluster: str | None = None

    @property
    def cap(self) -> int:
        """Games per arm at most: never overshot (a cap that is not a multiple of games cuts the last batch)."""
        return (self.max_games or 5 * self.games) if self.until else self.games

    @property
    def looks(self) -> int:
        return -(-self.cap // self.games)


@dataclass
class Played:
    """What a study played: the records in the plan's order, the wall time, the stopping rule's sentences."""

    games: list[records.Record] = field(default_factory=list)
    wall: float = 0.0
    verdicts: list[str] = field(default_factory=list)
    where: str = ""
    load: tuple[float, float] = (0.0, 0.0)


def run_study(study: Study, stream: TextIO, echo: Callable[[str], None], engine: Any) -> Played:
    """Play the study's batches (one, or with --until until the stopping rule decides or the cap is
    reached), writing each record to ``stream`` as its game finishes and a progress line to ``echo``.

    ``engine`` is the local engine (None on a Ray cluster)."""
    finished, planned = 0, 0

    def keep(record: records.Record) -> None:
        nonlocal finished
        finished += 1
        stream.write(records.dumps(record) + "\n")
        stream.flush()
        outcome = record["winningSide"] or f"round {record['roundsCompleted']}"
        problem = f", {len(record['errors'])} errors" if record["errors"] else ""
        echo(f"[{finished}/{planned}] {record['variant']} seed {record['seed']}: {outcome}{problem}")

    played = Played()
    count = study.workers or lab.default_workers()
    cluster = study.cluster
    played.where = f"on the Ray cluster {cluster}" if cluster else f"on {count} local worker{'s' if count > 1 else ''}"
    load_before = os.getloadavg()[0]
    fractions: list[float] = []  # the information fraction of each look of the stopping rule
    for look in range(1, study.looks + 1):
        plan = lab.plan(
            study.arms, min(study.games, study.cap - (look - 1) * study.games), study.seed + (look - 1) * study.games
        )
        planned += len(plan)
        batch, seconds, _ = lab.timed(partial(_play, plan, study.settings, keep, cluster, engine, count))
        played.load = (load_before, os.getloadavg()[0])
        played.games, played.wall = played.games + batch, played.wall + seconds
        if study.until:
            names = (study.arms[0][0], study.arms[1][0])
            verdict, stop = _look(
                played.games, names, (look, study.looks, study.cap), study.until, study.margin, fractions
            )
            played.verdicts = [verdict, UNADJUSTED] if stop else [verdict]
            echo(verdict)
            if stop:
                break
    return played


def write_report(
    study: Study, played: Played, rules_of: dict[str, RuleActions], out: Path, console: Console
) -> list[Path]:
    """The records in the plan's order (variant by seed: one worker or many give the same file), the
    table in the terminal, and report.md, report.html and the charts in ``out``; the files written."""
    from generator.balance import render
    from generator.balance.summary import prices, summarize

    base = study.arms[0][0]
    # TUV at one price list for every variant: the baseline's (the first variant named).
    price_list = prices([r for r in played.games if r["variant"] == base])
    rounds = study.settings.rounds
    summaries = [
        summarize(v, [r for r in played.games if r["variant"] == v], rounds, price_list) for v, _, _ in study.arms
    ]
    records.write(out / "games.jsonl", played.games)
    worths = _worths(played.games, base, rules_of)
    speed = [_speed(played.games, played.wall, played.where, played.load)]
    render.terminal(summaries, console, played.verdicts, worths, speed)
    return render.write_all(summaries, out, played.verdicts, worths, speed)


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
    from generator.balance.cluster import play_ray

    if cluster:
        return play_ray(cluster, plan, settings, keep)
    return lab.play_local(engine, plan, settings, count, keep)


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
