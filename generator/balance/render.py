"""A study's report as a terminal table, Markdown, PNG charts and one self-contained HTML page."""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

from generator.balance.records import DELIVERY_COUNTS
from generator.balance.render_worth import WORTH_NOTE, worth_chart, worth_lines
from generator.balance.summary import VariantSummary
from generator.balance.table import Row, difference, pairing, ratio_text, rows, tested
from generator.balance.worth import Worth
from generator.paths import open_output

CHARTS = (("income", "Income (PUs per turn)"), ("tuv", "Total unit value (PUs)"))
NOTE = (
    "Every figure is defined for every game played to its end or to its last round: a game won early counts "
    "with its final state (the board does not change once the game is over), a player knocked out with 0 "
    "income and 0 TUV; failed games and games cut short by an engine error are in no figure (both counted "
    "above). Rates: share and 95 % interval (Wilson); a leader is the side with more victory cities or unit "
    "value after the last round (ties counted apart). Income and TUV after the last round: mean (± half-width "
    "of its Student t interval); TUV is priced with the baseline's unit costs for every variant. Differences "
    "are taken on the games played with the same seed in both variants: Newcombe's paired interval for a "
    "rate, the paired t interval for income and TUV (his method 10, and Welch's t, where fewer than two seeds "
    "pair up); * marks a 95 % interval that leaves out zero. p (Holm): the difference's own p-value (a rate's "
    "by inverting its interval), then in brackets after Holm's adjustment over the table's rows, so that the "
    "chance of marking any row that truly does not differ stays 5 %; † marks a row that still does. var ratio: "
    "the variance of the per-seed differences over the sum of the two variants' variances: 1 for independent "
    "games, lower where a seed pulls both games the same way (the dice and the AIs' random choices are common: "
    "a roll is keyed by what it is for, an AI's choice by its step and the place in its plan that asks, so a "
    "battle or a choice that is the same in both games draws the same numbers). The first variant is the "
    "baseline. Failed games, games with errors and the harness's re-plans are listed below the table."
)


def headline(summary: VariantSummary, workers_note: str = "") -> str:
    return (
        f"{summary.variant}: {summary.games} games, {summary.rounds} rounds, {summary.finished} won, "
        f"{summary.unfinished} unfinished, "
        + (f"{summary.cut_short} cut short, " if summary.cut_short else "")
        + f"{summary.failed} failed, {summary.with_errors} with errors; "
        f"{summary.seconds:.0f} s of play{workers_note}"
        + (f", {summary.cpu_per_round:.1f} CPU s per game-round" if summary.cpu_per_round is not None else "")
    )


def problems(summaries: Sequence[VariantSummary]) -> list[str]:
    """One line per error of a game: 'aare seed 9: delegate purchase refused ...' (repeats counted)."""
    out = []
    for summary in summaries:
        counted: dict[tuple[int, str], int] = {}
        for seed, error in summary.problems:
            counted[(seed, error)] = counted.get((seed, error), 0) + 1
        for (seed, error), n in counted.items():
            out.append(f"{summary.variant} seed {seed}: {error}" + (f" ({n} times)" if n > 1 else ""))
    return out


def replan_lines(summaries: Sequence[VariantSummary]) -> list[str]:
    """'aare seed 4: round 1, Americans: purchase refused (...) and re-planned': what the harness
    did for the AI (ActionLog), as check notes it: the turn was played, so not an error."""
    return [f"{s.variant} seed {seed}: {what}" for s in summaries for seed, what in s.replans]


def action_rows(summaries: Sequence[VariantSummary]) -> list[tuple[str, str, int, int]]:
    """(variant, action, turns open, turns taken) for every action open or taken in a game."""
    return [
        (s.variant, short(name), s.actions_open[name], s.actions_taken[name])
        for s in summaries
        for name in sorted(set(s.actions_open) | set(s.actions_taken))
    ]


def take_rate(opened: int, taken: int) -> str:
    """'50%' of the turns it was open; '-' for an action taken but never seen open (no share to give)."""
    return f"{taken / opened:.0%}" if opened else "-"


def _header(summaries: Sequence[VariantSummary]) -> list[str]:
    head = ["figure", *[s.variant for s in summaries]]
    for s in summaries[1:]:
        # One comparison: short names; several: each column says whose it is.
        which = "" if len(summaries) == 2 else f" {s.variant}"
        head += [f"{s.variant} - {summaries[0].variant}", f"p (Holm){which}", f"var ratio{which}"]
    return head


def _cells(row: Row) -> list[str]:
    cells = [row.label, *row.values]
    for j, interval in enumerate(row.differences):
        adjusted = row.adjusted[j] if j < len(row.adjusted) else None
        ratio = row.ratios[j] if j < len(row.ratios) else None
        cells += [difference(interval, row.percent), tested(interval, adjusted), ratio_text(ratio)]
    return cells


def comparisons(summaries: Sequence[VariantSummary]) -> list[str]:
    """'aare - lhtr' per variant after the baseline."""
    return [f"{s.variant} - {summaries[0].variant}" for s in summaries[1:]]


def header_lines(summaries: Sequence[VariantSummary], speed: Sequence[str], verdicts: Sequence[str]) -> list[str]:
    """The report's header lines: each variant, the study's speed, what pairing bought, the verdicts."""
    return [
        *map(headline, summaries),
        *speed,
        *pairing(rows(summaries), comparisons(summaries)),
        *deliveries(summaries),
        *verdicts,
    ]


def deliveries(summaries: Sequence[VariantSummary]) -> list[str]:
    """'aare lendLease per game: 4.0 granted, 2.5 paid, 0.5 lost, 1.0 waiting (0.8 at sea); 40 games'."""
    out = []
    for summary in summaries:
        for unit, games in sorted(summary.deliveries.items()):
            mean = {k: sum(c.get(k, 0) for _, c in games) / len(games) for k in DELIVERY_COUNTS}
            out.append(
                f"{summary.variant} {unit} per game: {mean['granted']:.1f} granted, {mean['delivered']:.1f} paid, "
                f"{mean['lost']:.1f} lost, {mean['waiting']:.1f} waiting ({mean['atSea']:.1f} at sea); "
                f"{len(games)} games"
            )
    return out


def terminal(
    summaries: Sequence[VariantSummary],
    console: Console,
    verdicts: Sequence[str] = (),
    worths: Sequence[Worth] = (),
    speed: Sequence[str] = (),
) -> None:
    """The comparison as a table, or, where the table would not fit the terminal (80 columns),
    one block per figure with a line per variant: no value is wrapped inside a cell."""
    table = Table(title="Balance", show_lines=False)
    header = _header(summaries)
    for name in header:
        table.add_column(name, no_wrap=True)
    for row in rows(summaries):
        table.add_row(*_cells(row))
    for line in header_lines(summaries, speed, ()):  # prose: wrapped at the terminal's width
        console.print(line, markup=False, highlight=False)
    for verdict in verdicts:  # one line each, to be found and copied whole
        console.print(verdict, markup=False, highlight=False, soft_wrap=True)
    if console.measure(table, options=console.options.update_width(10_000)).maximum <= console.width:
        console.print(table)
    else:
        console.print("Balance", markup=False, highlight=False)
        width = max(len(name) for name in header[1:])
        for row in rows(summaries):
            console.print(row.label, markup=False, highlight=False, style="bold")
            for name, value in zip(header[1:], _cells(row)[1:], strict=True):
                console.print(f"  {name:<{width}}  {value}", markup=False, highlight=False)
    for line in worth_lines(worths):
        console.print(line, markup=False, highlight=False, soft_wrap=True)
    console.print(NOTE, markup=False, highlight=False)
    for title, found in (("Errors:", problems(summaries)), ("Re-plans:", replan_lines(summaries))):
        if found:
            console.print(title, markup=False)
        for line in found:
            console.print(f"  {line}", markup=False, highlight=False, soft_wrap=True)
    taken = action_rows(summaries)
    if taken:
        actions = Table(title="Actions (turns open, turns taken)")
        for name in ("variant", "action", "open", "taken", "take rate"):
            actions.add_column(name)
        for variant, action, opened, chosen in taken:
            actions.add_row(variant, action, str(opened), str(chosen), take_rate(opened, chosen))
        console.print(actions)


def markdown(
    summaries: Sequence[VariantSummary],
    charts: Sequence[str] = (),
    verdicts: Sequence[str] = (),
    worths: Sequence[Worth] = (),
    speed: Sequence[str] = (),
) -> str:
    lines = ["# Balance study", ""]
    lines += [f"- {line}" for line in header_lines(summaries, speed, verdicts)]
    if worths:
        lines += ["", "## What each rule is worth", "", *[f"{i}. {w}" for i, w in enumerate(worth_lines(worths), 1)]]
        lines += ["", WORTH_NOTE]
    lines += ["", "| " + " | ".join(_header(summaries)) + " |", "|" + "---|" * len(_header(summaries))]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in _cells(row)) + " |" for row in rows(summaries)]
    lines += ["", NOTE, ""]
    lines += _actions_markdown(summaries)
    lines += [f"![{name}]({name})" for name in charts]
    return "\n".join(lines).rstrip() + "\n"


def _actions_markdown(summaries: Sequence[VariantSummary]) -> list[str]:
    out = []
    errors = problems(summaries)
    if errors:
        out += ["## Errors", "", *[f"- {line}" for line in errors], ""]
    replanned = replan_lines(summaries)
    if replanned:
        out += ["## Re-plans", "", *[f"- {line}" for line in replanned], ""]
    taken = action_rows(summaries)
    if taken:
        out += ["## Actions: turns open, turns taken", ""]
        out += ["| variant | action | open | taken | take rate |", "|---|---|---|---|---|"]
        out += [f"| {v} | {a} | {o} | {t} | {take_rate(o, t)} |" for v, a, o, t in taken]
        out += [""]
    return out


def short(action: str) -> str:
    """An action's name without the attachment prefix the engine requires ('RuLendLease')."""
    for prefix in ("userActionAttachment", "politicalActionAttachment"):
        if action.startswith(prefix) and len(action) > len(prefix):
            return action[len(prefix) :]
    return action


def charts(summaries: Sequence[VariantSummary]) -> dict[str, bytes]:
    """One PNG per figure: a panel per nation, a median line and quartile band per variant."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot
    from matplotlib.ticker import MaxNLocator

    out: dict[str, bytes] = {}
    nations = sorted({n for s in summaries for n in s.nations})
    columns = min(3, max(1, len(nations)))
    lines = max(1, math.ceil(len(nations) / columns))
    for figure, title in CHARTS:
        canvas, axes = pyplot.subplots(lines, columns, figsize=(4.2 * columns, 3.0 * lines), squeeze=False)
        for index, nation in enumerate(nations):
            axis = axes[index // columns][index % columns]
            for summary in summaries:
                band = summary.band(nation, figure)
                if not band:
                    continue
                xs = list(range(len(band)))
                axis.plot(xs, [b[1] for b in band], label=summary.variant, linewidth=2)
                axis.fill_between(xs, [b[0] for b in band], [b[2] for b in band], alpha=0.25)
            axis.set_title(nation)
            axis.set_xlabel("round (0 = start)")
            axis.xaxis.set_major_locator(MaxNLocator(integer=True))
            axis.grid(True, alpha=0.3)
        for index in range(len(nations), lines * columns):
            axes[index // columns][index % columns].axis("off")
        axes[0][0].legend(loc="best", fontsize="small")
        canvas.suptitle(f"{title}: median and interquartile band by round")
        canvas.tight_layout()
        buffer = io.BytesIO()
        canvas.savefig(buffer, format="png", dpi=90, metadata={"Software": None})
        pyplot.close(canvas)
        out[f"{figure}.png"] = buffer.getvalue()
    return out


def page(
    summaries: Sequence[VariantSummary],
    pictures: dict[str, bytes],
    verdicts: Sequence[str] = (),
    worths: Sequence[Worth] = (),
    speed: Sequence[str] = (),
) -> str:
    """One HTML file with everything inside (charts as data: URLs), to open or attach anywhere."""
    header = "".join(f"<th>{html.escape(h)}</th>" for h in _header(summaries))
    body = []
    for row in rows(summaries):
        cells = _cells(row)
        marked = [
            f'<td class="sig">{html.escape(c)}</td>' if c.endswith(("*", "†")) else f"<td>{html.escape(c)}</td>"
            for c in cells
        ]
        body.append("<tr>" + "".join(marked) + "</tr>")
    images = "".join(
        f'<figure><img alt="{html.escape(name)}" src="data:image/png;base64,{base64.b64encode(data).decode()}">'
        f"</figure>"
        for name, data in pictures.items()
    )
    errors = "".join(f"<li>{html.escape(line)}</li>" for line in problems(summaries))
    errors_part = f'<h2>Errors</h2><ul id="errors">{errors}</ul>' if errors else ""
    replanned = "".join(f"<li>{html.escape(line)}</li>" for line in replan_lines(summaries))
    errors_part += f'<h2>Re-plans</h2><ul id="replans">{replanned}</ul>' if replanned else ""
    action_cells = "".join(
        f"<tr><td>{html.escape(v)}</td><td>{html.escape(a)}</td><td>{o}</td><td>{t}</td><td>{take_rate(o, t)}</td></tr>"
        for v, a, o, t in action_rows(summaries)
    )
    actions = (
        '<h2>Actions</h2><table id="actions"><thead><tr><th>variant</th><th>action</th><th>turns open</th>'
        f"<th>turns taken</th><th>take rate</th></tr></thead><tbody>{action_cells}</tbody></table>"
        if action_cells
        else ""
    )
    heads = "".join(f"<li>{html.escape(line)}</li>" for line in header_lines(summaries, speed, verdicts))
    ranked = "".join(f"<li>{html.escape(line)}</li>" for line in worth_lines(worths))
    worth_part = (
        f'<h2>What each rule is worth</h2><ol id="worth">{ranked}</ol><p>{html.escape(WORTH_NOTE)}</p>'
        if ranked
        else ""
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Balance study</title>
<style>
body {{ font-family: sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
th, td {{ border: 1px solid #bbb; padding: 0.3em 0.6em; text-align: left; }}
th {{ background: #eee; }}
td.sig {{ background: #fde8b0; font-weight: bold; }}
img {{ max-width: 100%; }}
</style></head>
<body>
<h1>Balance study</h1>
<ul id="variants">{heads}</ul>
{worth_part}
<table id="figures"><thead><tr>{header}</tr></thead><tbody>{"".join(body)}</tbody></table>
<p>{html.escape(NOTE)}</p>
{errors_part}
{actions}
{images}
</body></html>
"""


def report_files() -> list[str]:
    """The names `write_all` writes into its folder (a study checks them before it plays)."""
    return [f"{figure}.png" for figure, _ in CHARTS] + ["worth.png", "report.md", "report.html"]


def write_all(
    summaries: Sequence[VariantSummary],
    folder: Path,
    verdicts: Sequence[str] = (),
    worths: Sequence[Worth] = (),
    speed: Sequence[str] = (),
) -> list[Path]:
    """report.md, report.html and the charts in ``folder``; the paths written.

    Each is a regular file or nothing before (paths.open_output): UnwritableFile otherwise.
    """
    pictures = charts(summaries)
    if worths:
        pictures["worth.png"] = worth_chart(worths)
    contents = {
        **pictures,
        "report.md": markdown(summaries, list(pictures), verdicts, worths, speed).encode("utf-8"),
        "report.html": page(summaries, pictures, verdicts, worths, speed).encode("utf-8"),
    }
    for name, data in contents.items():
        with open_output(folder / name) as out:
            out.write(data)
    return [folder / name for name in contents]
