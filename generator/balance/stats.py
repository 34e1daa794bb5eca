"""The few statistics a balance study needs, written out so their assumptions are on the page.

Win rates are binomial proportions: the Wilson score interval (it stays inside 0..1 and keeps
its coverage for small samples and rates near 0 or 1, where the textbook p ± z·se does not), and
for the difference of two rates Newcombe's method 10, which combines the two Wilson intervals.
When game i of both variants used the same seed the two rates are paired: Newcombe's paired
method 10 (Newcombe 1998, Statistics in Medicine 17:2635) combines the same Wilson intervals with
the correlation of the pairs (phi, from the 2x2 table of outcomes), so a seed that decides both
games alike narrows the interval; with no games won it stays as wide as the Wilson bounds (a t
interval on the paired 0/1 differences would collapse to a point there).

Numbers per nation (income, total unit value) are shown as means with Student t intervals, and
compared by the difference of the same means: Welch's t interval (no equal-variance assumption,
Welch-Satterthwaite degrees of freedom) for independent games, a paired t interval on the
per-seed differences when game i of both variants used the same seed. A study plays a handful of
games, so the t quantile (t(3) = 3.18 at 95 %, against z = 1.96) is what keeps the interval honest.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

CONFIDENCE = 0.95
Z95 = 1.959963984540054  # two-sided 95 % normal quantile


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95 % interval."""

    value: float
    low: float
    high: float

    @property
    def significant(self) -> bool:
        """For a difference: the interval leaves out zero."""
        return self.low > 0 or self.high < 0

    @property
    def half_width(self) -> float:
        return (self.high - self.low) / 2


UNKNOWN = Interval(math.nan, -math.inf, math.inf)


def t_quantile(freedom: float, confidence: float = CONFIDENCE) -> float:
    """The two-sided Student t quantile: t(0.975, df) for 95 %."""
    # Imported here: scipy takes most of a second to import, which a study's first interval pays
    # and a command that computes none (a usage error, a report read back) does not.
    from scipy.stats import t as student_t  # type: ignore[import-untyped]  # scipy ships no type hints

    return float(student_t.ppf(0.5 + confidence / 2, freedom))


def wilson(successes: int, trials: int, z: float = Z95) -> Interval:
    """Proportion successes/trials with its Wilson score interval (0..1 for no trials)."""
    if trials <= 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return Interval(p, max(0.0, centre - spread), min(1.0, centre + spread))


def newcombe(successes_a: int, trials_a: int, successes_b: int, trials_b: int, z: float = Z95) -> Interval:
    """Difference of proportions b - a with Newcombe's hybrid score interval (method 10)."""
    a = wilson(successes_a, trials_a, z)
    b = wilson(successes_b, trials_b, z)
    difference = b.value - a.value
    below = math.sqrt((b.value - b.low) ** 2 + (a.high - a.value) ** 2)
    above = math.sqrt((b.high - b.value) ** 2 + (a.value - a.low) ** 2)
    return Interval(difference, max(-1.0, difference - below), min(1.0, difference + above))


def newcombe_paired(both: int, only_a: int, only_b: int, neither: int, z: float = Z95) -> Interval:
    """Difference of paired proportions b - a with Newcombe's paired method 10 (square and add).

    The counts are the pairs' 2x2 table: both won, only a won, only b won, neither won. phi
    estimates the correlation of the pairs' outcomes from the table (no correction between 0 and
    n/2 of the cross-product, as Newcombe's method prescribes; 0 when a margin is empty).
    """
    pairs = both + only_a + only_b + neither
    if pairs <= 0:
        return Interval(0.0, -1.0, 1.0)
    a = wilson(both + only_a, pairs, z)
    b = wilson(both + only_b, pairs, z)
    margins = (both + only_a) * (only_b + neither) * (both + only_b) * (only_a + neither)
    cross = both * neither - only_a * only_b
    phi = 0.0
    if margins > 0:
        corrected = cross - pairs / 2 if cross > pairs / 2 else (cross if cross < 0 else 0.0)
        phi = corrected / math.sqrt(margins)
    difference = b.value - a.value
    b_down, b_up, a_down, a_up = b.value - b.low, b.high - b.value, a.value - a.low, a.high - a.value
    below = math.sqrt(max(0.0, b_down**2 + a_up**2 - 2 * phi * b_down * a_up))
    above = math.sqrt(max(0.0, b_up**2 + a_down**2 - 2 * phi * b_up * a_down))
    return Interval(difference, max(-1.0, difference - below), min(1.0, difference + above))


def paired_rates(a: Sequence[bool], b: Sequence[bool]) -> Interval:
    """Rate of b minus rate of a over pairs (a[i], b[i]) of outcomes: Newcombe's paired method."""
    if len(a) != len(b):
        raise ValueError("paired samples of different lengths")
    pairs = list(zip(a, b, strict=True))
    return newcombe_paired(
        sum(x and y for x, y in pairs),
        sum(x and not y for x, y in pairs),
        sum(y and not x for x, y in pairs),
        sum(not x and not y for x, y in pairs),
    )


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def variance(values: Sequence[float]) -> float:
    """Sample variance (n - 1); 0 for fewer than two values."""
    if len(values) < 2:
        return 0.0
    m = mean(values)
    return sum((v - m) ** 2 for v in values) / (len(values) - 1)


def mean_interval(values: Sequence[float]) -> Interval:
    """The mean with its t interval (n - 1 degrees of freedom); unbounded below two values."""
    if not values:
        return UNKNOWN
    m = mean(values)
    if len(values) < 2:
        return Interval(m, -math.inf, math.inf)
    spread = t_quantile(len(values) - 1) * math.sqrt(variance(values) / len(values))
    return Interval(m, m - spread, m + spread)


def welch(a: Sequence[float], b: Sequence[float]) -> Interval:
    """Difference of means mean(b) - mean(a) with Welch's t interval (Welch-Satterthwaite df).

    Unbounded when a side has fewer than two values (no spread to measure); when both sides have
    no spread at all the difference is exact.
    """
    difference = mean(b) - mean(a)
    if len(a) < 2 or len(b) < 2:
        return Interval(difference, -math.inf, math.inf)
    share_a, share_b = variance(a) / len(a), variance(b) / len(b)
    error = math.sqrt(share_a + share_b)
    if error == 0:
        return Interval(difference, difference, difference)
    freedom = (share_a + share_b) ** 2 / (share_a**2 / (len(a) - 1) + share_b**2 / (len(b) - 1))
    spread = t_quantile(freedom) * error
    return Interval(difference, difference - spread, difference + spread)


def paired(a: Sequence[float], b: Sequence[float]) -> Interval:
    """Mean of the differences b[i] - a[i] of paired games with its t interval (n - 1 df)."""
    if len(a) != len(b):
        raise ValueError("paired samples of different lengths")
    return mean_interval([y - x for x, y in zip(a, b, strict=True)])


def quantile(values: Sequence[float], q: float) -> float:
    """The q-quantile with linear interpolation between order statistics (numpy's default)."""
    if not values:
        return math.nan
    ordered = sorted(values)
    position = (len(ordered) - 1) * q
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def quartiles(values: Sequence[float]) -> tuple[float, float, float]:
    """(first quartile, median, third quartile)."""
    return quantile(values, 0.25), quantile(values, 0.5), quantile(values, 0.75)
