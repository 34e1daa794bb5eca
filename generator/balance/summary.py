"""What a study's records say: win rates, leaders at the last round, per-nation curves, differences.

The first variant named is the baseline; every other one is compared with it figure by figure.
Total unit value is priced with one price list for every variant, the baseline's (each player's
unit costs at the start of the baseline's games): a variant that only makes a unit cheaper does
not show a smaller army. A unit type the baseline does not have keeps its own variant's price.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from generator.balance.records import Record
from generator.balance.stats import Interval, mean_interval, newcombe, paired, paired_rates, quartiles, welch, wilson

Prices = dict[str, dict[str, int]]  # player -> unit type -> PUs

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
    # nation -> figure -> seed -> value after the last round (games that reached it)
    last: dict[str, dict[str, dict[int, float]]] = field(default_factory=dict)
    actions: Counter[str] = field(default_factory=Counter)  # action -> games it was taken in
    actions_open: Counter[str] = field(default_factory=Counter)  # action -> turns it was open
    actions_taken: Counter[str] = field(default_factory=Counter)  # action -> turns it was taken
    problems: list[tuple[int, str]] = field(default_factory=list)  # (seed, error) of every game with errors
    # seed -> the side that won it ("" for a game played but not won): the games that pair up by seed
    outcomes: dict[int, str] = field(default_factory=dict)
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # the JVMs' CPU over the games that report it
    cpu_rounds: int = 0  # the rounds those games played

    @property
    def cpu_per_round(self) -> float | None:
        """CPU seconds per game-round (JIT, collector and the JVM's start included), if measured."""
        return self.cpu_seconds / self.cpu_rounds if self.cpu_rounds else None

    @property
    def with_errors(self) -> int:
        return len({seed for seed, _ in self.problems})

    @property
    def unfinished(self) -> int:
        return self.games - self.failed - self.finished

    def win_rate(self, side: str) -> Interval:
        return wilson(self.wins[side], self.games - self.failed)

    def at_last_round(self, nation: str, figure: str) -> dict[int, float]:
        """seed -> value after the last round, for the games that reached it."""
        return self.last.get(nation, {}).get(figure, {})

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


def prices(records: Sequence[Record]) -> Prices:
    """The unit costs the games of `records` started with (the first record that has them)."""
    return next((r["unitCosts"] for r in records if r.get("unitCosts")), {})


def priced(player: str, figures: dict[str, Any], price_list: Prices, own: Prices) -> float:
    """The player's TUV at `price_list`, a type it lacks at its own variant's price."""
    types: dict[str, int] | None = figures.get("unitTypes")
    if not price_list or types is None:
        return float(figures["tuv"])
    ours, theirs = price_list.get(player, {}), own.get(player, {})
    return float(sum(n * ours.get(unit, theirs.get(unit, 0)) for unit, n in types.items()))


def summarize(variant: str, records: Sequence[Record], rounds: int, price_list: Prices | None = None) -> VariantSummary:
    """The summary of one variant's games; TUV at `price_list` (the baseline's), else at each game's own."""
    sides = sorted({s for r in records for s in r["sides"].values()})
    nations = sorted({n for r in records for n in r["sides"]})
    summary = VariantSummary(variant, len(records), rounds, sides, nations)
    for record in records:
        summary.seconds += record["seconds"]
        if record.get("cpuSeconds") is not None and record["roundsCompleted"]:
            summary.cpu_seconds += record["cpuSeconds"]
            summary.cpu_rounds += record["roundsCompleted"]
        summary.problems += [(record["seed"], error) for error in record["errors"]]
        summary.actions_open.update(a["action"] for a in record.get("actionsOpen", []))
        summary.actions_taken.update(a["action"] for a in record["actionsTaken"] if not a.get("error"))
        if not record["perRound"]:
            summary.failed += 1
            continue
        summary.outcomes[record["seed"]] = record["winningSide"] if record["gameOver"] else ""
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
        own = record.get("unitCosts", {})
        for entry in record["perRound"]:
            for nation, figures in entry["players"].items():
                per_figure = summary.curves.setdefault(nation, {})
                numbers = {f: float(v) for f, v in figures.items() if f != "unitTypes"}
                numbers["tuv"] = priced(nation, figures, price_list or own, own)
                for figure, value in numbers.items():
                    series = per_figure.setdefault(figure, [])
                    while len(series) <= entry["round"]:
                        series.append([])
                    series[entry["round"]].append(value)
                    if entry["round"] == rounds:
                        summary.last.setdefault(nation, {}).setdefault(figure, {})[record["seed"]] = value
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
                tuple(win_difference(base, v, side) for v in summaries[1:]),
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
                    tuple(_mean(v) for v in values),
                    tuple(compare(values[0], v) if values[0] and v else None for v in values[1:]),
                    False,
                )
            )
    return out


def win_difference(base: VariantSummary, other: VariantSummary, side: str) -> Interval:
    """other's win rate - base's: on the games played with the same seed when at least two pair up
    (Newcombe's paired method), else between the two groups (Newcombe's method 10)."""
    seeds = sorted(base.outcomes.keys() & other.outcomes.keys())
    if len(seeds) >= 2:
        return paired_rates([base.outcomes[s] == side for s in seeds], [other.outcomes[s] == side for s in seeds])
    return newcombe(base.wins[side], base.games - base.failed, other.wins[side], other.games - other.failed)


def compare(base: dict[int, float], other: dict[int, float]) -> Interval:
    """mean(other) - mean(base): on the pairs of games played with the same seed when there are at
    least two (the paired t interval, narrower when the seed's dice pull both games the same way),
    else between the two groups (Welch)."""
    seeds = sorted(base.keys() & other.keys())
    if len(seeds) >= 2:
        return paired([base[s] for s in seeds], [other[s] for s in seeds])
    return welch(list(base.values()), list(other.values()))


def _mean(values: dict[int, float]) -> str:
    """'37.0 (±9.5)': the mean and the half-width of its t interval."""
    if not values:
        return "-"
    interval = mean_interval(list(values.values()))
    if len(values) < 2:
        return f"{interval.value:.1f} (1 game)"
    return f"{interval.value:.1f} (±{interval.half_width:.1f})"


def difference(interval: Interval | None, percent: bool) -> str:
    """'+9 % (+3..+15 %)' with a '*' where the interval leaves out zero; '+1.5 (±0.8)' for numbers.

    A rate difference shows its bounds: Newcombe's interval is not symmetric about the estimate
    (it stays inside -100..+100 %), so a '±' would hide on which side zero falls.
    """
    if interval is None:
        return "-"
    if math.isinf(interval.half_width):
        return f"{interval.value:+.1f} (too few games)"
    mark = " *" if interval.significant else ""
    if percent:
        low, high = _points(interval.low * 100), _points(interval.high * 100)
        return f"{interval.value * 100:+.0f} % ({low}..{high} %){mark}"
    return f"{interval.value:+.1f} (±{interval.half_width:.1f}){mark}"


def _points(value: float) -> str:
    """Whole percentage points, but a bound just off zero keeps a decimal: on which side of zero
    it falls is the point of showing it."""
    return f"{value:+.1f}" if round(value) == 0 and abs(value) >= 0.05 else f"{value:+.0f}"


def side_score(record: Record, side: str, price_list: Prices) -> float | None:
    """How well `side` did in one game, 0..1: 1 or 0 for a game won, else its share of all unit value
    on the board after the last round played (at `price_list`); None for a game that never started."""
    if not record["perRound"]:
        return None
    if record["gameOver"] and record["winningSide"]:
        return 1.0 if record["winningSide"] == side else 0.0
    own = record.get("unitCosts", {})
    totals: dict[str, float] = {}
    for nation, figures in record["perRound"][-1]["players"].items():
        key = record["sides"].get(nation, nation)
        totals[key] = totals.get(key, 0.0) + priced(nation, figures, price_list or own, own)
    everything = sum(totals.values())
    return totals.get(side, 0.0) / everything if everything else None


def paired_scores(base: Sequence[Record], other: Sequence[Record], side: str, price_list: Prices) -> list[float]:
    """score(other) - score(base) for every seed both variants played to a score, in seed order."""
    first = {r["seed"]: side_score(r, side, price_list) for r in base}
    second = {r["seed"]: side_score(r, side, price_list) for r in other}
    return [
        b - a
        for seed in sorted(first.keys() & second.keys())
        if (a := first[seed]) is not None and (b := second[seed]) is not None
    ]
