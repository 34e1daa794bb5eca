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

Every interval of a difference carries the p-value of its own test of "no difference" (``p``): a t
interval's from its t statistic; a Wilson or Newcombe interval's by inverting it, the smallest
two-sided level at which it still leaves out zero (found by bisection on z), so that p < 0.05
exactly where the 95 % interval is marked. A table's many rows are then adjusted together (multiple.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

CONFIDENCE = 0.95
Z95 = 1.959963984540054  # two-sided 95 % normal quantile


@dataclass(frozen=True)
class Interval:
    """An estimate with its 95 % interval."""

    value: float
    low: float
    high: float
    p: float = math.nan  # the two-sided p-value of "zero", where the interval has a test; nan otherwise

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


@lru_cache(maxsize=4096)
def t_beyond(freedom: float, tail: float) -> float:
    """The t quantile with `tail` above it: t.isf, exact for a tail far below what 1 - tail can hold
    (a look of a sequential test far from its last asks for tails of 1e-40). Cached: every look of
    a study with the same pairs asks the same one."""
    from scipy.stats import t as student_t

    return float(student_t.isf(tail, freedom))


def wilson(successes: int, trials: int, z: float = Z95) -> Interval:
    """Proportion successes/trials with its Wilson score interval (0..1 for no trials)."""
    if trials <= 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return Interval(p, max(0.0, centre - spread), min(1.0, centre + spread))


def normal_tail(z: float) -> float:
    """P(Z > z) for a standard normal Z, without the cancellation of 1 - cdf (exact far out)."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def inverted_p(at: Callable[[float], Interval]) -> float:
    """The p-value of an interval family at(z) about zero: 2·P(Z > z*), z* the widest z at which
    the interval still leaves out zero (bisection; the intervals widen with z)."""
    point = at(0.0)
    if point.low <= 0 <= point.high:
        return 1.0
    low, high = 0.0, 40.0
    if at(high).significant:
        return 2 * normal_tail(high)
    for _ in range(60):
        middle = (low + high) / 2
        low, high = (middle, high) if at(middle).significant else (low, middle)
    return min(1.0, 2 * normal_tail(low))


def newcombe(successes_a: int, trials_a: int, successes_b: int, trials_b: int, z: float = Z95) -> Interval:
    """Difference of proportions b - a with Newcombe's hybrid score interval (method 10)."""
    interval = _newcombe(successes_a, trials_a, successes_b, trials_b, z)
    return replace(interval, p=inverted_p(lambda at: _newcombe(successes_a, trials_a, successes_b, trials_b, at)))


def _newcombe(successes_a: int, trials_a: int, successes_b: int, trials_b: int, z: float) -> Interval:
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
    interval = _newcombe_paired(both, only_a, only_b, neither, z)
    return replace(interval, p=inverted_p(lambda at: _newcombe_paired(both, only_a, only_b, neither, at)))


def _newcombe_paired(both: int, only_a: int, only_b: int, neither: int, z: float) -> Interval:
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
    error = math.sqrt(variance(values) / len(values))
    spread = t_quantile(len(values) - 1) * error
    return Interval(m, m - spread, m + spread, t_p(m, error, len(values) - 1))


def t_p(estimate: float, error: float, freedom: float) -> float:
    """Two-sided p-value of a t statistic estimate/error; with no spread, 0 unless the estimate is 0."""
    if error == 0:
        return 1.0 if estimate == 0 else 0.0
    from scipy.stats import t as student_t

    return float(2 * student_t.sf(abs(estimate) / error, freedom))


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
        return Interval(difference, difference, difference, t_p(difference, 0.0, 1))
    freedom = (share_a + share_b) ** 2 / (share_a**2 / (len(a) - 1) + share_b**2 / (len(b) - 1))
    spread = t_quantile(freedom) * error
    return Interval(difference, difference - spread, difference + spread, t_p(difference, error, freedom))


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
