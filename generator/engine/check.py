"""The ``check`` stage: prove game XMLs in the real TripleA engine by all-AI play.

Each game is parsed and played for N rounds by the harness (``Engine.play``); its report is
validated as it arrives (``harness_report``) and judged (``judge``); ``check_output`` shows the
progress, the table and writes the report file.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console

from generator.engine.batches import play_through
from generator.engine.check_output import GameProgress, render_table, write_report
from generator.engine.check_record import game_digests, save_records
from generator.engine.harness import Engine, JsonDict, PlayEvent, find_engine, processors_per_jvm
from generator.engine.harness_report import UnreadableReport, game_report
from generator.engine.judge import Target, Verdict, action_notes, evaluate
from generator.engine.rule_activity import RuleLine, tally
from generator.engine.sandbox import foreign_doctype
from generator.errors import UsageProblem

__all__ = [
    "CheckPlan",
    "CheckUsageError",
    "Target",
    "Verdict",
    "resolve_targets",
    "run",
    "run_games",
]

# Generous per-round limits (measured: FastAI 3-8 s, ProAI 15-30 s per Revised round on 2 cores);
# they only exist so a hung AI cannot stall a CI job forever. (The Easy AI, "weak", is left out:
# it probes moves by trial and error, and every refused move would count as an error.)
ROUND_TIMEOUT = {"fast": 120.0, "pro": 600.0}
STARTUP_TIMEOUT = 60.0


class CheckUsageError(UsageProblem):
    """A target that names neither a built variant nor an existing file."""


def resolve_targets(names: Sequence[str], games_dir: Path) -> list[Target]:
    """Variant names (``output/games/<name>.xml``) or paths; no names means every built variant."""
    if not names:
        found = sorted(games_dir.glob("*.xml"))
        if not found:
            raise CheckUsageError(f"no built variants in {games_dir}/ (run `triplea-forge build` first)")
        return [Target(p.stem, p) for p in found]
    targets = []
    for name in names:
        as_path = Path(name)
        if name.endswith(".xml") or "/" in name or as_path.is_file():
            if not as_path.is_file():
                raise CheckUsageError(f"no such file: {name}")
            targets.append(Target(as_path.stem, as_path))
        elif (games_dir / f"{name}.xml").is_file():
            targets.append(Target(name, games_dir / f"{name}.xml"))
        else:
            known = ", ".join(sorted(p.stem for p in games_dir.glob("*.xml"))) or "none built"
            raise CheckUsageError(f"unknown variant '{name}': no {games_dir}/{name}.xml (variants: {known})")
    return targets


# ---------------------------------------------------------------------------- running


def run_games(
    engine: Engine,
    targets: Sequence[Target],
    *,
    rounds: int,
    ai: str,
    seed: int,
    actions: str = "none",
    games: int = 1,
    jobs: int = 1,
    jvm_per_game: bool = False,
    timeout: float | None = None,
    on_event: Callable[[Target, PlayEvent], None] | None = None,
    reproducible: bool = False,
) -> list[Verdict]:
    """Play every target ``games`` times (seeds seed..seed+games-1); ``jobs`` JVMs side by side,
    each playing its share one after the other; the outcomes by target, then seed.

    A warm JVM plays a game with about 30 % less CPU than a fresh one (JIT and class loading,
    measured by bench/check_bench.py), and the harness clears the engine's statics between
    games; ``jvm_per_game`` starts a fresh JVM for every game instead. A target's games stay in
    one JVM, where the ``cover`` policy remembers what earlier games took. When a JVM dies or a
    game times out, that game fails and the rest go on in a new JVM.
    """
    engine.harness_dir()  # a harness that does not compile is an engine problem, not a game's
    limit = timeout or STARTUP_TIMEOUT + rounds * ROUND_TIMEOUT.get(ai, 600.0)
    by_resolved = {str(t.path.resolve()): t for t in targets}  # events name files so

    def relay(event: PlayEvent) -> None:
        if on_event is not None and event["path"] in by_resolved:
            on_event(by_resolved[event["path"]], event)

    def play(group: list[tuple[Target, int]]) -> list[Verdict]:
        outcomes: dict[int, Verdict] = {}

        def arrived(index: int, raw: JsonDict) -> None:
            t, game_seed = group[index]
            seconds = raw.get("timings", {}).get("totalMs", 0) / 1000
            try:
                report = game_report(raw)  # validated once, here; judged from typed fields
            except UnreadableReport as exc:
                outcomes[index] = Verdict(t, None, [str(exc)], seconds, [], game_seed)
                return
            failures = evaluate(report, rounds, t.path, engine.jar)
            outcomes[index] = Verdict(t, report, failures, seconds, action_notes(report), game_seed)

        def failed(index: int, problem: str, seconds: float) -> None:
            t, game_seed = group[index]
            outcomes[index] = Verdict(t, None, [problem], seconds, [], game_seed)

        play_through(
            engine,
            [(t.path, s) for t, s in group],
            rounds=rounds,
            ai=ai,
            actions=actions,
            timeout=limit,
            processors=processors_per_jvm(jobs),
            reproducible=reproducible,
            on_report=arrived,
            on_failure=failed,
            on_event=relay,
        )
        return [outcomes[i] for i in range(len(group))]

    plays = [(t, seed + i) for t in targets for i in range(max(1, games))]
    if rounds <= 0:  # a parse costs less than a JVM start
        groups = [plays]
    elif jvm_per_game:
        groups = [[p] for p in plays]
    else:
        shares = [list(targets[i :: max(1, jobs)]) for i in range(max(1, jobs))]
        groups = [g for g in ([p for p in plays if p[0] in share] for share in shares) if g]
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        done = {(o.target, o.seed): o for outcomes in pool.map(play, groups) for o in outcomes}
    return [done[p] for p in plays]


@dataclass(frozen=True)
class CheckPlan:
    """How `check` plays its games: the command's options, as the stage reads them."""

    rounds: int = 2
    ai: str = "fast"
    seed: int = 1
    actions: str = "rules"
    games: int = 1
    jobs: int = 1
    timeout: float | None = None
    report_path: Path | None = None
    reproducible: bool = False
    expect_fire: bool = False


def run(
    names: Sequence[str],
    games_dir: Path,
    plan: CheckPlan = CheckPlan(),
    *,
    console: Console | None = None,
    engine: Engine | None = None,
    rules: Mapping[Path, Sequence[RuleLine]] | None = None,
) -> bool:
    """The ``triplea-forge check`` command: play, show progress and a table; True when all pass.

    `rules`: the rules of the variants (by their game's resolved path), said at their lines; any
    other game's triggers, objectives and actions are said by name. A rule fails when it does not
    do what its `expect:` says, and with `plan.expect_fire` when it acts on its own and never did.
    """
    rounds, ai, seed, actions, games = plan.rounds, plan.ai, plan.seed, plan.actions, plan.games
    targets = resolve_targets(names, games_dir)
    engine = engine or find_engine()
    out = console or Console()
    for newer in [t for t in targets if engine.too_old_for(t.path)]:  # made for TripleA 2.x only
        out.print(
            f"{newer.name}: not checked, it needs TripleA {engine.too_old_for(newer.path)} (the engine here is 1.9)"
        )
        targets.remove(newer)
    for target in targets:
        doctype = foreign_doctype(target.path)
        if doctype is not None:
            out.print(
                f"{target.name}: warning: its DOCTYPE {doctype} was replaced by TripleA's own for the engine "
                "(external DTDs and entities are never loaded)",
                soft_wrap=True, markup=False, highlight=False,
            )  # fmt: skip
    if not out.is_terminal:  # logs and pipes: do not squeeze the table into 80 columns
        out.width = max(out.width, 120)
    played = game_digests(targets)  # the bytes the engine reads, whatever a build writes meanwhile
    shown = GameProgress(targets, rounds)
    with shown.progress:
        outcomes = run_games(
            engine,
            targets,
            rounds=rounds,
            ai=ai,
            seed=seed,
            actions=actions,
            games=games,
            jobs=plan.jobs,
            timeout=plan.timeout,
            on_event=shown.on_event,
            reproducible=plan.reproducible,
        )
    at_work = tally(outcomes, rules or {}, rounds=rounds, actions=actions, expect_fire=plan.expect_fire)
    # What each rule did, kept for `coverage` (engine/check_record.py), whether the games passed or not.
    save_records(outcomes, played, rounds=rounds, ai=ai, seed=seed, actions=actions)
    render_table(out, outcomes, rounds, games, at_work, actions)
    if plan.report_path is not None:
        options = {"rounds": rounds, "ai": ai, "seed": seed, "actions": actions, "games": games,
                   "reproducible": plan.reproducible, "engine": str(engine.jar)}  # fmt: skip
        write_report(plan.report_path, outcomes, rounds, options, at_work)
    return all(o.ok for o in outcomes) and not any(t.problem for tallies in at_work.values() for t in tallies)
