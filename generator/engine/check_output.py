"""What `triplea-forge check` shows and writes: a progress bar per game, the table, every failure in
words, the actions no game took, and the `--report` file.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from generator.diagnostics import Diagnostic, ForgeError
from generator.engine.harness import PlayEvent
from generator.engine.judge import Target, Verdict, actions_never_taken, delivery_line, summary
from generator.paths import UnwritableFile, open_output

# Names of actions never taken that the table's summary line lists (the report lists them all).
NEVER_TAKEN_SHOWN = 8


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


def write_report(path: Path, outcomes: Sequence[Verdict], rounds: int, options: dict[str, Any]) -> None:
    """The `--report` file: the options, the actions never taken, and per game its verdict, numbers
    and the whole harness report."""
    document = {
        "ok": all(o.ok for o in outcomes),
        "options": options,
        "actionsNeverTaken": {name: never for name, (_, never) in actions_never_taken(outcomes).items()},
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


def render_table(out: Console, outcomes: Sequence[Verdict], rounds: int, games: int = 1) -> None:
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


def _label(outcome: Verdict, games: int) -> str:
    return f"{outcome.target.name} (seed {outcome.seed})" if games > 1 else outcome.target.name
