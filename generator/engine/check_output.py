"""What `triplea-forge check` shows and writes: a progress bar per game, the table, every failure in
words, the actions no game took, and the `--report` file.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from generator.diagnostics import Diagnostic, ForgeError
from generator.engine.harness import PlayEvent
from generator.engine.judge import Target, Verdict, actions_never_taken, delivery_line, summary
from generator.engine.rule_activity import LISTED, RuleTally, activity, idle_words, played
from generator.paths import UnwritableFile, open_output

# Names of actions never taken that the table's summary line lists (the report lists them all).
NEVER_TAKEN_SHOWN = 8
# Rules never at work listed in full per game (a rule that fails its expectation is always said).
IDLE_SHOWN = 12
GROUP_SHOWN = 4  # of the rules one line stands for (a template's)


class GameProgress:
    """A progress bar per game (round and step), on the standard error; transient."""

    def __init__(self, targets: Sequence[Target], rounds: int) -> None:
        self.progress = Progress(
            TextColumn("{task.description}"), BarColumn(), TextColumn("{task.fields[status]}"), TimeElapsedColumn(),
            console=Console(stderr=True), transient=True,
        )  # fmt: skip
        status = "parsing" if rounds <= 0 else "waiting"
        self.tasks: dict[Target, TaskID] = {
            t: self.progress.add_task(t.name, total=None, status=status) for t in targets
        }

    def on_event(self, target: Target, event: PlayEvent) -> None:
        total = event["rounds"] * event["steps"]
        done = (event["round"] - 1) * event["steps"] + event["index"]
        status = f"round {event['round']}/{event['rounds']} {event['step']}"
        self.progress.update(self.tasks[target], total=total, completed=done, status=status)


def write_report(
    path: Path,
    outcomes: Sequence[Verdict],
    rounds: int,
    options: dict[str, Any],
    rules: Mapping[Target, Sequence[RuleTally]] | None = None,
) -> None:
    """The `--report` file: the options, the actions never taken, each target's rules at work, and
    per game its verdict, numbers and the whole harness report."""
    rules = rules or {}
    document = {
        "ok": all(o.ok for o in outcomes) and not rule_problems(rules),
        "options": options,
        "actionsNeverTaken": {name: never for name, (_, never) in actions_never_taken(outcomes).items()},
        "rules": {t.name: [r.as_json() for r in tallies] for t, tallies in rules.items()},
        "variants": [
            {"name": o.target.name, "seed": o.seed, "file": str(o.target.path), "ok": o.ok, "failures": o.failures,
             "notes": o.notes, "seconds": round(o.seconds, 2), "summary": summary(o.report, rounds),
             "report": o.report}
            for o in outcomes
        ],
    }  # fmt: skip
    try:
        with open_output(path) as stream:  # never a FIFO or a device
            stream.write((json.dumps(document, indent=1, sort_keys=True) + "\n").encode("utf-8"))
    except UnwritableFile as exc:
        raise ForgeError([Diagnostic(str(exc))]) from exc


def render_table(
    out: Console,
    outcomes: Sequence[Verdict],
    rounds: int,
    games: int = 1,
    rules: Mapping[Target, Sequence[RuleTally]] | None = None,
    actions: str = "none",
) -> None:
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
    never_taken = actions_never_taken(outcomes) if rounds > 0 else {}
    for name, (count, never) in never_taken.items():
        played_games = f"{games} games" if games > 1 else "1 game"
        line = f"{name}: actions taken in {played_games}: {count - len(never)} of {count}"
        if never:  # the whole list is in the report (--report); more games with 'cover' take them
            line += f"; never: {_names(never)}"
        out.print(line, soft_wrap=True, markup=False, highlight=False)
    for target, tallies in (rules or {}).items():
        for line in rule_lines(target, tallies):
            out.print(line, soft_wrap=True, markup=False, highlight=False)
    out.print(verdict(outcomes, rules or {}, never_taken, actions), markup=False, highlight=False)


def verdict(
    outcomes: Sequence[Verdict],
    rules: Mapping[Target, Sequence[RuleTally]],
    never_taken: Mapping[str, tuple[int, list[str]]],
    actions: str,
) -> str:
    """The closing line: how many games failed, and how many rules did not do what they must.

    With `--actions cover`, the actions no game took are said here too, yet do not fail the check:
    cover takes every action the moment it is open, so one never taken was never open in the
    rounds played (its conditions depend on how the AIs' games went), and neither the variant nor
    the policy is at fault; more --games or --rounds open it, and `--expect-fire` (or `expect:
    offered` at the rule) is the way to require that an action is offered.
    """
    failed = sum(not o.ok for o in outcomes)
    problems = rule_problems(rules)
    if failed:
        text = f"{failed} of {len(outcomes)} failed"
    else:
        text = f"{len(outcomes)} checked, " + ("the games passed" if problems else "all passed")
    if problems:
        text += f"; {problems} rule{'s' if problems != 1 else ''} not at work as expected (said above)"
    never = [a for _, names in never_taken.values() for a in names]
    if actions.startswith("cover") and never:
        count = sum(n for n, _ in never_taken.values())
        opened = {a["action"] for o in outcomes if o.report for a in o.report.get("actionsOpen", [])}
        closed = sum(1 for a in never if a not in opened)
        text += (
            f"; {len(never)} of {count} actions never taken ({closed} never open in the rounds played: more --games "
            f"or --rounds may open them): {_names(never)}"
        )
    return text


def rule_problems(rules: Mapping[Target, Sequence[RuleTally]]) -> int:
    return sum(1 for tallies in rules.values() for t in tallies if t.problem)


def rule_lines(target: Target, tallies: Sequence[RuleTally]) -> list[str]:
    """A target's rules at work: a line of counts, the rules that acted (when few), the rules never
    at work at their lines (the first IDLE_SHOWN places), then every rule that fails its expectation."""
    if not tallies:
        return []
    acted = [t for t in tallies if t.acted]
    idle = [t for t in tallies if not t.acted and t.rule.attachments and not t.problem]
    head = f"{target.name}: rules at work in {played(tallies[0])}: {len(acted)} of {len(tallies)}"
    lines = [head + ("; not at work:" if idle else "")]
    # Rules a template makes share its line: one line says them all.
    at: dict[str, list[RuleTally]] = {}
    for t in idle:
        at.setdefault(t.rule.where or f"\0{t.rule.label}", []).append(t)  # a game's rule: a place of its own
    groups = [(same[0].rule.where, same) for same in at.values()]
    for where, same in groups[:IDLE_SHOWN]:
        said = f"{where}: " if where else ""
        if len(same) == 1:
            t = same[0]
            lines.append(f"  {said}{t.rule.label} {idle_words(t.rule)}" + (f" ({t.idle})" if t.idle else ""))
            continue
        labels = [t.rule.label for t in same]
        more = f" and {len(labels) - GROUP_SHOWN} more" if len(labels) > GROUP_SHOWN else ""
        reasons = {t.idle for t in same}
        reason = f" ({next(iter(reasons))})" if len(reasons) == 1 and None not in reasons else ""
        lines.append(f"  {said}{len(same)} rules {idle_words(same[0].rule)}{reason}: "
                     f"{', '.join(labels[:GROUP_SHOWN])}{more}")  # fmt: skip
    if len(groups) > IDLE_SHOWN:
        hidden = sum(len(same) for _, same in groups[IDLE_SHOWN:])
        lines.append(f"  and {hidden} more (--report lists every rule)")
    if len(tallies) <= LISTED:
        lines += [f"  {t.rule.label}: {activity(t)}" for t in acted]
    # Said at the rule's line first, as every located message is (an XML's rule has none: its game's name).
    lines += [t.problem if t.rule.where else f"{target.name}: {t.problem}" for t in tallies if t.problem]
    return lines


def _names(never: Sequence[str]) -> str:
    shown = ", ".join(never[:NEVER_TAKEN_SHOWN])
    more = f" and {len(never) - NEVER_TAKEN_SHOWN} more" if len(never) > NEVER_TAKEN_SHOWN else ""
    return shown + more


def _label(outcome: Verdict, games: int) -> str:
    return f"{outcome.target.name} (seed {outcome.seed})" if games > 1 else outcome.target.name
