"""The ``check`` stage: prove game XMLs in the real TripleA engine by all-AI play.

Each game is parsed and played for N rounds by the harness (``Engine.play``); this module turns
the harness report into failures stated in words, shows progress while games run and a table
after. The judgement lives here, the facts in the harness: a check can be changed without
touching Java.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lxml import etree
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from generator.checks.dtd import engine_dtd
from generator.diagnostics import Diagnostic, ForgeError
from generator.engine.batches import play_through
from generator.engine.harness import (
    DEFAULT_JAR,
    Engine,
    JsonDict,
    PlayEvent,
    find_engine,
    processors_per_jvm,
)
from generator.engine.sandbox import foreign_doctype
from generator.paths import UnwritableFile, open_output
from generator.safe_xml import safe_parser

__all__ = [
    "CheckUsageError",
    "Outcome",
    "Target",
    "actions_never_taken",
    "evaluate",
    "resolve_targets",
    "run",
    "run_games",
]

# Generous per-round limits (measured: FastAI 3-8 s, ProAI 15-30 s per Revised round on 2 cores);
# they only exist so a hung AI cannot stall a CI job forever. (The Easy AI, "weak", is left out:
# it probes moves by trial and error, and every refused move would count as an error.)
ROUND_TIMEOUT = {"fast": 120.0, "pro": 600.0}
STARTUP_TIMEOUT = 60.0
# Names of actions never taken that the table's summary line lists (the report lists them all).
NEVER_TAKEN_SHOWN = 8
# Steps that are the harness's own phases rather than game steps.
HARNESS_PHASES = {"parse", "setup", "stop", "startPersistentDelegates"}


class CheckUsageError(Exception):
    """A target that names neither a built variant nor an existing file."""


@dataclass(frozen=True)
class Target:
    """One game to check: a display name and its XML file."""

    name: str
    path: Path


@dataclass
class Outcome:
    """What the check concluded about one target."""

    target: Target
    report: JsonDict | None
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)
    seed: int = 1

    @property
    def ok(self) -> bool:
        return not self.failures


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


# ---------------------------------------------------------------------------- judgement


def evaluate(report: JsonDict, rounds: int, xml: Path | None = None, jar: Path = DEFAULT_JAR) -> list[str]:
    """Every reason the game fails the check, in words; empty when it passes."""
    failures: list[str] = []
    parse = report["parse"]
    if parse.get("error"):
        failures.append(f"parse failed: {tidy(parse['error'])}")
    failures += [f"DTD: {explain_sax(m, xml, jar)}" for m in parse.get("saxErrors", [])]
    if parse.get("error"):
        return failures
    caused = action_consequences(report)
    # A refusal is a failure even when an action the harness took explains it: a purchase or a
    # placement the engine refuses is a turn the player did not play (the policy must not cause it).
    counted = Counter(_error_text(e) + _cause(e, caused) for e in report.get("errors", []))
    failures += [text if n == 1 else f"{text} ({n} times)" for text, n in counted.items()]
    if rounds <= 0:
        return failures
    done = report["roundsCompleted"]
    if done < rounds and not report.get("gameOver"):
        at = f", at step {report['stoppedAt']}" if report.get("stoppedAt") else ""
        failures.append(f"stopped in round {done + 1} of {rounds}{at}")
        # The checks below would only restate the cause reported above.
        return failures
    failures += _purchase_failures(report)
    if rounds >= 2 and done >= 2 and not any(b["round"] <= 2 for b in report.get("battles", [])):
        failures.append("no battle in the first 2 rounds")
    failures += _unplaced_failures(report)
    return failures


@dataclass
class Consequences:
    """What the actions the harness took changed, by (round, player) of the refusal they explain."""

    removed: dict[tuple[int, str], dict[str, str]] = field(default_factory=lambda: defaultdict(dict))
    frontier: dict[tuple[int, str], str] = field(default_factory=dict)


def action_consequences(report: JsonDict) -> Consequences:
    out = Consequences()
    for action in report.get("actionsTaken", []):
        at = (action.get("round", 0), action.get("player") or "")
        for territory in action.get("removed") or {}:
            out.removed[at][territory] = action["action"]
        for player in action.get("frontiers") or []:
            out.frontier.setdefault((at[0], player), action["action"])
    return out


def _caused_by(entry: JsonDict, caused: Consequences) -> str | None:
    """The action behind a refusal of the AI, when an action the harness took for the player this
    round explains it: it removed the units the refusal names (a complex scorched after the AI
    bought for it), or it changed the player's frontier before the AI bought (a price advantage
    declared: the AI prices what it plans with the rules it saw before)."""
    if entry.get("channel") != "rejected":
        return None
    at = (entry.get("round", 0), entry.get("player") or "")
    message = entry["message"]
    if " refused purchase" in message and at in caused.frontier:
        return caused.frontier[at]
    named = (action for territory, action in caused.removed.get(at, {}).items() if _names(message, territory))
    return next(named, None)


def _cause(entry: JsonDict, caused: Consequences) -> str:
    """' (after the action X changed its frontier)': the likely cause of a refusal, for its message."""
    action = _caused_by(entry, caused)
    if action is None:
        return ""
    what = "changed its frontier" if " refused purchase" in entry["message"] else "removed units there"
    return f" (after the action {action} {what})"


def _names(message: str, territory: str) -> bool:
    """Whether an engine message speaks of `territory` ("... in Russia)", not "... in West Russia")."""
    return re.search(rf"\bin {re.escape(territory)}(?:[):,.]|$)", message) is not None


def action_notes(report: JsonDict | None) -> list[str]:
    """Purchases the harness re-planned and placements it made elsewhere after the engine refused
    the AI's (ActionLog): the player bought and placed, so they are not failures, but what it asked
    for and got is shown."""
    if report is None:
        return []
    purchases = [
        f"round {r['round']}, {r['player']}: purchase refused ({r['refused']}) and re-planned: "
        f"asked {_units(r.get('asked') or {})}, bought {_units(r.get('bought') or {})}"
        for r in report.get("purchaseReplans", [])
    ]
    placements = [
        f"round {r['round']}, {r['player']}: placement of {_units(r['units'])} in {r['asked']} refused "
        f"({r['refused']}) and made in {r['placed']}"
        for r in report.get("placementReplans", [])
    ]
    return purchases + placements


def _purchase_failures(report: JsonDict) -> list[str]:
    bought: Counter[str] = Counter()
    for p in report.get("purchases", []):
        bought[p["player"]] += sum(p["units"].values())
    ran: dict[str, list[JsonDict]] = defaultdict(list)
    for s in report.get("purchaseSteps", []):
        ran[s["player"]].append(s)
    failures = []
    for player in report["game"]["players"]:
        name, frontier, steps = player["name"], player["productionFrontier"], player["purchaseSteps"]
        # A player without any step in the sequence (a bystander power) is not expected to buy.
        if bought[name] or (frontier is None and not steps) or player.get("steps") == 0:
            continue
        if frontier is None:
            reason = "no production frontier"
        elif player["frontierRules"] == 0:
            reason = f"production frontier {frontier} has no rules"
        elif not steps:
            reason = "no purchase step in the sequence"
        elif not any(s.endswith("Purchase") for s in steps):
            # AbstractAI.start picks what to do from the step name's suffix.
            reason = f"step {steps[0]} is not named *Purchase, and the AI only buys in steps named so"
        elif not ran[name]:
            reason = f"step {steps[0]} never ran"
        elif all(s["pusBefore"] <= 0 for s in ran[name]):
            reason = "0 PUs at every purchase step"
        else:
            reason = f"the AI bought nothing with {max(s['pusBefore'] for s in ran[name])} PUs"
        failures.append(f"{name} never purchased: {reason}")
    return failures


def _unplaced_failures(report: JsonDict) -> list[str]:
    failures = []
    seen = set()
    for u in report.get("unplaced", []):
        if u["player"] not in seen:
            seen.add(u["player"])
            failures.append(
                f"{u['player']} bought units but never placed {_units(u['units'])} "
                f"(round {u['round']}, step {u['step']})"
            )
    last = report["rounds"][-1]["players"] if report.get("rounds") else {}
    for player in report["game"]["players"]:
        name = player["name"]
        waiting = last.get(name, {}).get("unplaced", {})
        if name not in seen and waiting and not player["placeSteps"]:
            failures.append(f"{name} bought units but has no place step: {_units(waiting)} never placed")
    return failures


def _units(counts: dict[str, int]) -> str:
    return ", ".join(f"{n} {unit}" for unit, n in sorted(counts.items()))


def _error_text(entry: JsonDict) -> str:
    step = entry.get("step")
    where = step if step in HARNESS_PHASES else f"step {step}" if step else "engine"
    channel, message = entry["channel"], entry["message"]
    if channel in ("exception", "delegateException"):
        message = tidy(message)
    elif channel == "stackTrace":
        message = f"printed {tidy(message)}"
    elif channel == "log":
        message = f"logged {message}"
    return f"{where}: {message}"


_EXCEPTION = re.compile(r"^(?:[\w$]+\.)*([\w$]*(?:Exception|Error|Throwable))(?:: (.*))?$", re.S)


def tidy(message: str) -> str:
    """An engine exception chain as one readable sentence: the first message, names spelled plainly.

    The harness joins a chain as "class: message <- class: message"; links that are not
    exceptions are the harness's own words and are kept in front.
    """
    links = message.split(" <- ")
    words, engine = [], None
    for link in links:
        found = _EXCEPTION.match(link)
        if found is None:
            words.append(link)
        elif (found.group(2) or "").strip():
            engine = found.group(2)
            break
    if engine is None and (root := _EXCEPTION.match(links[-1])):
        engine = root.group(1)  # no message anywhere: the root cause's class says most
    text = ": ".join([*words, engine] if engine else words)
    # The parser prefixes its messages with the file name it was given, which we already show.
    text = re.sub(r"^(?:MapName|mapName): [^,]*, ?", "", text)
    text = re.sub(r"\s*for:\s*PlayerID named:(\S+)", r" for \1", text)
    text = re.sub(r"PlayerID named:(\S+)", r"\1", text)
    return text.strip()


_MISSING_ID = re.compile(r'An element with the identifier "([^"]+)" must appear in the document')


def explain_sax(message: str, xml: Path | None, jar: Path = DEFAULT_JAR) -> str:
    """A DTD message; for a dangling reference, name the elements that use the missing ID.

    The parser reports dangling IDREFs at the end of the document, so the line number it gives
    points nowhere useful; the referencing element is what the author needs.
    """
    found = _MISSING_ID.search(message)
    if not found or xml is None:
        return message
    missing = found.group(1)
    # Only attributes the DTD declares as references (territory names, for one, are plain text).
    dtd: Any = engine_dtd(jar)  # lxml-stubs lack DTD.iterelements
    refs = (
        {(e.name, a.name) for e in dtd.iterelements() for a in e.iterattributes() if "idref" in a.type} if dtd else None
    )
    try:
        root = etree.parse(str(xml), safe_parser()).getroot()
    except (OSError, etree.XMLSyntaxError):
        return message
    users = []
    for element in (e for e in root.iter() if isinstance(e.tag, str)):  # no comments
        for key, value in element.attrib.items():
            attr = key.decode() if isinstance(key, bytes) else key
            if missing in value.split() and (refs is None or (element.tag, attr) in refs):
                label = f" {element.get('name')!s}" if isinstance(element.get("name"), str) else ""
                users.append(f'{element.tag}{label} ({attr}="{missing}", line {element.sourceline})')
    if not users:
        return message
    return f'no element has the ID "{missing}", but it is used by ' + "; ".join(users[:5])


def summary(report: JsonDict | None, rounds: int) -> dict[str, Any]:
    """The numbers shown in the table and written to the report for one game."""
    if report is None:
        return {}
    parse = report["parse"]
    caused = action_consequences(report)
    played = sum(1 for e in report.get("errors", []) if not _caused_by(e, caused))
    errors = played + len(parse.get("saxErrors", [])) + (1 if parse.get("error") else 0)
    return {
        "roundsRequested": rounds,
        "roundsCompleted": report.get("roundsCompleted", 0),
        "gameOver": report.get("gameOver", False),
        "battles": len(report.get("battles", [])),
        "unitsPurchased": sum(sum(p["units"].values()) for p in report.get("purchases", [])),
        "moves": len(report.get("moves", [])),
        "unitsPlaced": sum(sum(p["units"].values()) for p in report.get("placements", [])),
        "territoriesChangedHands": len({c["territory"] for c in report.get("ownerChanges", [])}),
        # User and political actions the harness took for the AIs (the variant's own layer).
        "actionsTaken": sorted({a["action"] for a in report.get("actionsTaken", []) if not a.get("error")}),
        "deliveries": deliveries(report),
        "errors": errors,
        "warnings": len(report.get("warnings", [])),
        "secondsPerRound": [ms / 1000 for ms in report.get("timings", {}).get("rounds", [])],
    }


DELIVERY_FATES = ("delivered", "lost", "waiting")


def deliveries(report: JsonDict) -> dict[str, dict[str, int]]:
    """Per unit the rules pay for on delivery (lend-lease tokens, cargo): how many were granted
    (appeared on the board) and how many of them were delivered, lost (sunk) or still waiting."""
    out: dict[str, dict[str, int]] = {}
    for token in report.get("deliveries", []):
        counts = out.setdefault(token["unit"], {"granted": 0, **dict.fromkeys(DELIVERY_FATES, 0)})
        counts["granted"] += 1
        counts[token["fate"]] += 1
    return out


def delivery_line(report: JsonDict | None) -> str | None:
    """'lendLease: 6 granted, 2 delivered, 1 lost, 3 waiting' for a game with deliveries."""
    counts = deliveries(report) if report is not None else {}
    if not counts:
        return None
    parts = [f"{unit}: {c['granted']} granted, " + ", ".join(f"{c[f]} {f}" for f in DELIVERY_FATES)
             for unit, c in sorted(counts.items())]  # fmt: skip
    return "deliveries: " + "; ".join(parts)


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
) -> list[Outcome]:
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

    def play(group: list[tuple[Target, int]]) -> list[Outcome]:
        outcomes: dict[int, Outcome] = {}

        def arrived(index: int, report: JsonDict) -> None:
            t, game_seed = group[index]
            seconds = report.get("timings", {}).get("totalMs", 0) / 1000
            failures = evaluate(report, rounds, t.path, engine.jar)
            outcomes[index] = Outcome(t, report, failures, seconds, action_notes(report), game_seed)

        def failed(index: int, problem: str, seconds: float) -> None:
            t, game_seed = group[index]
            outcomes[index] = Outcome(t, None, [problem], seconds, [], game_seed)

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


def actions_never_taken(outcomes: Sequence[Outcome]) -> dict[str, tuple[int, list[str]]]:
    """Per target with user or political actions: how many it has, and those no game took."""
    found: dict[str, tuple[int, list[str]]] = {}
    for target in dict.fromkeys(o.target for o in outcomes):
        reports = [o.report for o in outcomes if o.target == target and o.report is not None]
        every = {a for r in reports for names in r["game"].get("actions", {}).values() for a in names}
        taken = {a["action"] for r in reports for a in r.get("actionsTaken", []) if not a.get("error")}
        if every:
            found[target.name] = (len(every), sorted(every - taken))
    return found


def run(
    names: Sequence[str],
    games_dir: Path,
    *,
    rounds: int = 2,
    ai: str = "fast",
    seed: int = 1,
    actions: str = "rules",
    games: int = 1,
    jobs: int = 1,
    timeout: float | None = None,
    report_path: Path | None = None,
    console: Console | None = None,
    engine: Engine | None = None,
    reproducible: bool = False,
) -> bool:
    """The ``triplea-forge check`` command: play, show progress and a table; True when all pass."""
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
    progress = Progress(
        TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[status]}"), TimeElapsedColumn(),
        console=Console(stderr=True), transient=True,
    )  # fmt: skip
    status = "parsing" if rounds <= 0 else "waiting"
    tasks: dict[Target, TaskID] = {t: progress.add_task(t.name, total=None, status=status) for t in targets}

    def on_event(target: Target, event: PlayEvent) -> None:
        total = event["rounds"] * event["steps"]
        done = (event["round"] - 1) * event["steps"] + event["index"]
        status = f"round {event['round']}/{event['rounds']} {event['step']}"
        progress.update(tasks[target], total=total, completed=done, status=status)

    with progress:
        outcomes = run_games(
            engine,
            targets,
            rounds=rounds,
            ai=ai,
            seed=seed,
            actions=actions,
            games=games,
            jobs=jobs,
            timeout=timeout,
            on_event=on_event,
            reproducible=reproducible,
        )
    _render(out, outcomes, rounds, games)
    if report_path is not None:
        document = {
            "ok": all(o.ok for o in outcomes),
            "options": {"rounds": rounds, "ai": ai, "seed": seed, "actions": actions, "games": games,
                        "reproducible": reproducible, "engine": str(engine.jar)},
            "actionsNeverTaken": {name: never for name, (_, never) in actions_never_taken(outcomes).items()},
            "variants": [
                {"name": o.target.name, "seed": o.seed, "file": str(o.target.path), "ok": o.ok, "failures": o.failures,
                 "notes": o.notes, "seconds": round(o.seconds, 2), "summary": summary(o.report, rounds),
                 "report": o.report}
                for o in outcomes
            ],
        }  # fmt: skip
        try:
            with open_output(report_path) as stream:  # never a FIFO or a device
                stream.write((json.dumps(document, indent=1, sort_keys=True) + "\n").encode("utf-8"))
        except UnwritableFile as exc:
            raise ForgeError([Diagnostic(str(exc))]) from exc
    return all(o.ok for o in outcomes)


def _render(out: Console, outcomes: Sequence[Outcome], rounds: int, games: int = 1) -> None:
    table = Table(title=f"triplea-forge check ({'parse only' if rounds <= 0 else f'{rounds} rounds'})")
    for column in ("variant", "rounds", "battles", "purchases", "changed hands", "actions", "errors", "result"):
        table.add_column(column, justify="left" if column in ("variant", "result") else "right", no_wrap=True)
    for o in outcomes:
        s = summary(o.report, rounds)
        reached = f"{s['roundsCompleted']}/{rounds}" + (" (won)" if s["gameOver"] else "") if s else "-"
        if rounds <= 0:  # nothing was played: only the error count means something
            s, reached = ({"errors": s["errors"]} if s else {}), "-"
        numbers = [str(s.get(k, "-")) for k in ("battles", "unitsPurchased", "territoriesChangedHands", "errors")]
        numbers.insert(3, str(len(s["actionsTaken"])) if "actionsTaken" in s else "-")
        table.add_row(_label(o, games), reached, *numbers, "ok" if o.ok else "[bold red]FAILED[/]")
    out.print(table)
    for o in outcomes:
        for failure in o.failures:
            out.print(f"{_label(o, games)}: {failure}", soft_wrap=True, markup=False, highlight=False)
        for note in o.notes:
            out.print(f"{_label(o, games)}: note: {note}", soft_wrap=True, markup=False, highlight=False)
        if rounds > 0 and (line := delivery_line(o.report)):
            out.print(f"{_label(o, games)}: {line}", soft_wrap=True, markup=False, highlight=False)
    if rounds > 0:
        for name, (count, never) in actions_never_taken(outcomes).items():
            played = f"{games} games" if games > 1 else "1 game"
            line = f"{name}: actions taken in {played}: {count - len(never)} of {count}"
            if never:  # the whole list is in the report (--report); more games with 'cover' take them
                shown = ", ".join(never[:NEVER_TAKEN_SHOWN])
                more = f" and {len(never) - NEVER_TAKEN_SHOWN} more" if len(never) > NEVER_TAKEN_SHOWN else ""
                line += f"; never: {shown}{more}"
            out.print(line, soft_wrap=True, markup=False, highlight=False)
    failed = sum(not o.ok for o in outcomes)
    verdict = f"{len(outcomes)} checked, all passed" if not failed else f"{failed} of {len(outcomes)} failed"
    out.print(verdict, markup=False, highlight=False)


def _label(outcome: Outcome, games: int) -> str:
    return f"{outcome.target.name} (seed {outcome.seed})" if games > 1 else outcome.target.name
