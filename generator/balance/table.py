"""The comparison table: each figure per variant, and each variant's difference from the baseline.

The first variant named is the baseline; every other one is compared with it figure by figure, on
the games played with the same seed (pairs). Every figure is defined for every game played to its
end or to its last round (summary.py), so each row pairs all the games both variants have:

- rates (a side's win rate, the side that leads in victory cities or in unit value after the last
  round): Wilson per variant; the difference by Newcombe's paired method, his unpaired method 10
  where fewer than two seeds pair up;
- per-nation income and TUV after the last round: mean with its t interval; the difference by the
  paired t interval, Welch's where fewer than two seeds pair up.

Each difference also says what pairing bought: the variance of the per-seed differences over the
sum of the two variants' variances (``ratio``: 1 for independent games, below 1 where a seed pulls
both games the same way; an unpaired study needs 1/ratio times the games for the same width), and
its p-value with Holm's adjustment over the table's rows (multiple.py).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace

from generator.balance.multiple import LEVEL, holm, p_text
from generator.balance.stats import Interval, mean_interval, newcombe, paired, paired_rates, variance, welch, wilson
from generator.balance.summary import VariantSummary

Samples = dict[int, float]  # seed -> the game's value


@dataclass(frozen=True)
class Row:
    """One figure of the comparison table: a value per variant, the differences with the baseline."""

    label: str
    values: tuple[str, ...]
    differences: tuple[Interval | None, ...]  # one per variant after the baseline
    percent: bool
    ratios: tuple[float | None, ...] = ()  # per difference: paired / unpaired variance
    adjusted: tuple[float | None, ...] = ()  # per difference: its p-value after Holm's adjustment


def rows(summaries: Sequence[VariantSummary]) -> list[Row]:
    """The comparison table: win rates, leaders after the last round, per-nation income and TUV."""
    base = summaries[0]
    sides = sorted({s for v in summaries for s in v.sides})
    out = [
        _row(f"{side} win rate", [{s: float(w == side) for s, w in v.outcomes.items()} for v in summaries], True)
        for side in sides
    ]
    for label, attribute in (("leads in VCs", "vc_leader"), ("leads in TUV", "tuv_leader")):
        for side in sides:
            samples = [{s: float(lead == side) for s, lead in getattr(v, attribute).items()} for v in summaries]
            out.append(_row(f"{side} {label}, round {base.rounds}", samples, True))
    nations = [n for n in base.nations if all(n in v.nations for v in summaries)]
    for figure, name in (("income", "income"), ("tuv", "TUV")):
        for nation in nations:
            samples = [v.at_last_round(nation, figure) for v in summaries]
            out.append(_row(f"{nation} {name}, round {base.rounds}", samples, False))
    return _holm(out)


def _row(label: str, samples: Sequence[Samples], percent: bool) -> Row:
    base, others = samples[0], samples[1:]
    measure = rate_difference if percent else compare
    return Row(
        label,
        tuple(_rate(s) if percent else _mean(s) for s in samples),
        tuple(measure(base, s) if base and s else None for s in others),
        percent,
        tuple(variance_ratio(base, s) for s in others),
    )


def _holm(table: list[Row]) -> list[Row]:
    """Each comparison's p-values adjusted together over the table's rows (Holm)."""
    columns = len(table[0].differences) if table else 0
    adjusted = [holm([_p(row.differences[j]) for row in table]) for j in range(columns)]
    return [replace(row, adjusted=tuple(adjusted[j][i] for j in range(columns))) for i, row in enumerate(table)]


def _p(interval: Interval | None) -> float | None:
    """The difference's p-value, when it has a finite interval (a row with too few games has none)."""
    if interval is None or math.isinf(interval.half_width) or math.isnan(interval.p):
        return None
    return interval.p


def rate_difference(base: Samples, other: Samples) -> Interval:
    """Rate of other - rate of base (values 0 or 1): Newcombe's paired method on the seeds both have
    when at least two pair up, else his method 10 between the two groups."""
    seeds = sorted(base.keys() & other.keys())
    if len(seeds) >= 2:
        return paired_rates([base[s] == 1 for s in seeds], [other[s] == 1 for s in seeds])
    return newcombe(round(sum(base.values())), len(base), round(sum(other.values())), len(other))


def compare(base: Samples, other: Samples) -> Interval:
    """mean(other) - mean(base): on the pairs of games played with the same seed when there are at
    least two (the paired t interval, narrower when the seed pulls both games the same way),
    else between the two groups (Welch)."""
    seeds = sorted(base.keys() & other.keys())
    if len(seeds) >= 2:
        return paired([base[s] for s in seeds], [other[s] for s in seeds])
    return welch(list(base.values()), list(other.values()))


def variance_ratio(base: Samples, other: Samples) -> float | None:
    """var(other - base) / (var(base) + var(other)) over the seeds both have: what pairing leaves of
    the variance an unpaired comparison has; None below two pairs or without any spread."""
    seeds = sorted(base.keys() & other.keys())
    a, b = [base[s] for s in seeds], [other[s] for s in seeds]
    total = variance(a) + variance(b)
    if len(seeds) < 2 or total == 0:
        return None
    return variance([y - x for x, y in zip(a, b, strict=True)]) / total


def pairing(table: Sequence[Row], names: Sequence[str]) -> list[str]:
    """Per comparison: 'pairing, aare - lhtr: paired/unpaired variance median 0.41 over the 10
    income and TUV figures (0.12..0.95); 0.52 over all 14 figures with one'."""
    out = []
    for j, name in enumerate(names):
        found = [(row.percent, r) for row in table if len(row.ratios) > j and (r := row.ratios[j]) is not None]
        numbers = [r for percent, r in found if not percent]
        if not found:
            continue
        text = f"pairing, {name}: paired/unpaired variance median "
        if numbers:
            text += (
                f"{statistics.median(numbers):.2f} over the {len(numbers)} income and TUV figures "
                f"({min(numbers):.2f}..{max(numbers):.2f}); "
            )
        out.append(text + f"{statistics.median(r for _, r in found):.2f} over all {len(found)} figures with one")
    return out


def _rate(samples: Samples) -> str:
    interval = wilson(round(sum(samples.values())), len(samples))
    return f"{interval.value:.0%} ({interval.low:.0%}..{interval.high:.0%})" if samples else "-"


def _mean(values: Samples) -> str:
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


def tested(interval: Interval | None, adjusted: float | None) -> str:
    """'0.0021 (0.034) †': the raw p-value, Holm's in brackets, † where Holm's is below 5 %."""
    raw = _p(interval)
    if raw is None or adjusted is None:
        return "-"
    return f"{p_text(raw)} ({p_text(adjusted)})" + (" †" if adjusted < LEVEL else "")


def ratio_text(ratio: float | None) -> str:
    return "-" if ratio is None else f"{ratio:.2f}"


def _points(value: float) -> str:
    """Whole percentage points, but a bound just off zero keeps a decimal: on which side of zero
    it falls is the point of showing it."""
    return f"{value:+.1f}" if round(value) == 0 and abs(value) >= 0.05 else f"{value:+.0f}"
