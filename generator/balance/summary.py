"""What a study's records say: win rates, leaders at the last round, per-nation curves, differences.

The first variant named is the baseline; every other one is compared with it figure by figure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from generator.balance.records import Record
from generator.balance.stats import Interval, newcombe, quartiles, welch, wilson

TIE = "tie"


@dataclass
class VariantSummary:
    variant: str
    games: int
    rounds: int
    sides: list[str]
    nations: list[str]
    finished: int = 0
    failed: int = 0
    wins: Counter[str] = field(default_factory=Counter)
    vc_leader: Counter[str] = field(default_factory=Counter)  # unfinished games, at the last round
    tuv_leader: Counter[str] = field(default_factory=Counter)
    # nation -> figure -> per round (index = round) -> values over the games that reached it
    curves: dict[str, dict[str, list[list[float]]]] = field(default_factory=dict)
    actions: Counter[str] = field(default_factory=Counter)  # action -> games it was taken in
    seconds: float = 0.0

    @property
    def unfinished(self) -> int:
        return self.games - self.failed - self.finished

    def win_rate(self, side: str) -> Interval:
        return wilson(self.wins[side], self.games - self.failed)

    def at_last_round(self, nation: str, figure: str) -> list[float]:
        series = self.curves.get(nation, {}).get(figure, [])
        return series[self.rounds] if len(series) > self.rounds else []

    def band(self, nation: str, figure: str) -> list[tuple[float, float, float]]:
        """(q1, median, q3) per round."""
        return [quartiles(values) for values in self.curves.get(nation, {}).get(figure, []) if values]


@dataclass(frozen=True)
class Row:
    """One figure of the comparison table: a value per variant, the differences with the baseline."""

    label: str
    values: tuple[str, ...]
    differences: tuple[Interval | None, ...]  # one per variant after the baseline
    percent: bool


def _leader(totals: dict[str, int]) -> str:
    best = max(totals.values(), default=0)
    leaders = [side for side, total in totals.items() if total == best]
    return leaders[0] if len(leaders) == 1 else TIE


def summarize(variant: str, records: Sequence[Record], rounds: int) -> VariantSummary:
    sides = sorted({s for r in records for s in r["sides"].values()})
    nations = sorted({n for r in records for n in r["sides"]})
    summary = VariantSummary(variant, len(records), rounds, sides, nations)
    for record in records:
        summary.seconds += record["seconds"]
        if not record["perRound"]:
            summary.failed += 1
            continue
        if record["gameOver"] and record["winningSide"]:
            summary.finished += 1
            summary.wins[record["winningSide"]] += 1
        else:
            last = record["perRound"][-1]["players"]
            for figure, counter in (("victoryCities", summary.vc_leader), ("tuv", summary.tuv_leader)):
                totals = dict.fromkeys(sides, 0)
                for nation, figures in last.items():
                    totals[record["sides"].get(nation, nation)] = (
                        totals.get(record["sides"].get(nation, nation), 0) + figures[figure]
                    )
                counter[_leader(totals)] += 1
        for entry in record["perRound"]:
            for nation, figures in entry["players"].items():
                per_figure = summary.curves.setdefault(nation, {})
                for figure, value in figures.items():
                    series = per_figure.setdefault(figure, [])
                    while len(series) <= entry["round"]:
                        series.append([])
                    series[entry["round"]].append(float(value))
        summary.actions.update({a["action"] for a in record["actionsTaken"] if not a.get("error")})
    return summary


def _rate(summary: VariantSummary, count: int, out_of: int) -> str:
    interval = wilson(count, out_of)
    return f"{interval.value:.0%} ({interval.low:.0%}..{interval.high:.0%})" if out_of else "-"


def rows(summaries: Sequence[VariantSummary]) -> list[Row]:
    """The comparison table: win rates, leaders of unfinished games, per-nation income and TUV."""
    base = summaries[0]
    sides = sorted({s for v in summaries for s in v.sides})
    out: list[Row] = []
    for side in sides:
        out.append(
            Row(
                f"{side} win rate",
                tuple(_rate(v, v.wins[side], v.games - v.failed) for v in summaries),
                tuple(
                    newcombe(base.wins[side], base.games - base.failed, v.wins[side], v.games - v.failed)
                    for v in summaries[1:]
                ),
                True,
            )
        )
    for label, attribute in (("leads in VCs", "vc_leader"), ("leads in TUV", "tuv_leader")):
        for side in sides:
            counts = [getattr(v, attribute)[side] for v in summaries]
            out.append(
                Row(
                    f"{side} {label} (unfinished games)",
                    tuple(_rate(v, c, v.unfinished) for v, c in zip(summaries, counts, strict=True)),
                    tuple(
                        newcombe(counts[0], base.unfinished, c, v.unfinished)
                        if base.unfinished and v.unfinished
                        else None
                        for v, c in zip(summaries[1:], counts[1:], strict=True)
                    ),
                    True,
                )
            )
    nations = [n for n in base.nations if all(n in v.nations for v in summaries)]
    for figure, name in (("income", "income"), ("tuv", "TUV")):
        for nation in nations:
            values = [v.at_last_round(nation, figure) for v in summaries]
            out.append(
                Row(
                    f"{nation} {name}, round {base.rounds}",
                    tuple(_median(v) for v in values),
                    tuple(welch(values[0], v) if values[0] and v else None for v in values[1:]),
                    False,
                )
            )
    return out


def _median(values: list[float]) -> str:
    if not values:
        return "-"
    q1, median, q3 = quartiles(values)
    return f"{median:g} ({q1:g}..{q3:g})"


def difference(interval: Interval | None, percent: bool) -> str:
    """'+9 % (+3..+15 %)' with a '*' where the interval leaves out zero; '+1.5 (±0.8)' for numbers.

    A rate difference shows its bounds: Newcombe's interval is not symmetric about the estimate
    (it stays inside -100..+100 %), so a '±' would hide on which side zero falls.
    """
    if interval is None:
        return "-"
    mark = " *" if interval.significant else ""
    if percent:
        low, high = _points(interval.low * 100), _points(interval.high * 100)
        return f"{interval.value * 100:+.0f} % ({low}..{high} %){mark}"
    return f"{interval.value:+.1f} (±{interval.half_width:.1f}){mark}"


def _points(value: float) -> str:
    """Whole percentage points, but a bound just off zero keeps a decimal: on which side of zero
    it falls is the point of showing it."""
    return f"{value:+.1f}" if round(value) == 0 and abs(value) >= 0.05 else f"{value:+.0f}"
