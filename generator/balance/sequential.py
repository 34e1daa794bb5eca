"""When a balance study has played enough: a group-sequential test on paired games.

A study that stops "when the interval looks good" and reports that interval is wrong: looking
after every batch and stopping on the first good look makes a 95 % interval cover far less than
95 %. The group-sequential design fixes how many looks there can be (K, the cap divided by the
batch) and widens the interval at each look so that over all K looks together the error stays at
5 %: O'Brien and Fleming's boundary, c·sqrt(K/k) at look k, which spends almost nothing early (a
study stops early only on a large effect) and is close to the fixed-sample 1.96 at the last look.
The constant c is computed for K by the Armitage-McPherson-Rowe recursion (below), matching
Jennison & Turnbull's table 2.3 (K=5: 2.040).

Each look uses the paired differences d_i = score(B, seed i) - score(A, seed i), so the interval
is the repeated confidence interval mean(d) ± b_k·se with the boundary b_k turned into a t
quantile of the same two-sided level (n - 1 degrees of freedom; the normal boundary would be too
narrow with a handful of pairs). ``significant`` stops when the interval leaves out zero;
``bounded`` stops when it lies inside ±margin (the variants are equal within the margin) or
leaves out zero; both stop at the cap, undecided.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from generator.balance.stats import Interval, mean, t_quantile, variance

ALPHA = 0.05


@lru_cache(maxsize=64)
def obrien_fleming(looks: int, alpha: float = ALPHA) -> float:
    """The constant c of the two-sided O'Brien-Fleming boundary c·sqrt(K/k) for K looks."""
    # scipy and numpy are imported where they are used, as in stats.t_quantile: scipy.stats
    # takes a second to import, which only a study that looks pays.
    from scipy.optimize import brentq  # type: ignore[import-untyped]  # scipy ships no type hints
    from scipy.stats import norm  # type: ignore[import-untyped]

    if looks <= 1:
        return float(norm.ppf(1 - alpha / 2))
    return float(brentq(lambda c: _crossing(c, looks) - alpha, 1.5, 4.0, xtol=1e-5))


def _crossing(c: float, looks: int, step: float = 0.01) -> float:
    """P(some look crosses) under no difference, by Armitage, McPherson and Rowe's recursion.

    On the sum scale S_k (k unit-variance increments) the boundary c·sqrt(K/k)·sqrt(k) is the
    constant c·sqrt(K): the density of S_k among the paths that have not crossed is the previous
    one convolved with the normal density, cut at ±c·sqrt(K); what is left at the end is the
    chance of never crossing. Trapezoid rule on a fixed grid (error well under 1e-4 at this step).
    """
    import numpy as np
    from scipy.stats import norm

    bound = c * math.sqrt(looks)
    points = 2 * math.ceil(bound / step) + 1
    grid = np.linspace(-bound, bound, points)
    width = grid[1] - grid[0]
    weights = np.full(points, width)
    weights[[0, -1]] = width / 2
    # The normal density at every lag between two grid points: the convolution's kernel.
    lags = norm.pdf(np.arange(-(points - 1), points) * width)
    density = norm.pdf(grid)
    for _ in range(looks - 1):
        density = np.convolve(density * weights, lags, mode="valid")
    return float(1 - density @ weights)


@dataclass(frozen=True)
class Look:
    """The state of a sequential study after look `look` of `looks`."""

    look: int
    looks: int
    pairs: int
    interval: Interval  # the repeated confidence interval of the mean paired difference
    decision: str  # "" to go on, else the sentence that ends the study


def look(differences: Sequence[float], look: int, looks: int, until: str, margin: float) -> Look:
    """The repeated confidence interval after `look` of `looks` and whether the study stops."""
    n = len(differences)
    if n < 2:
        return Look(look, looks, n, Interval(mean(differences), -math.inf, math.inf), "")
    from scipy.stats import norm

    boundary = obrien_fleming(looks) * math.sqrt(looks / look)
    level = 1 - 2 * (1 - float(norm.cdf(boundary)))  # the boundary's two-sided nominal confidence
    spread = t_quantile(n - 1, level) * math.sqrt(variance(differences) / n)
    m = mean(differences)
    interval = Interval(m, m - spread, m + spread)
    decision = ""
    if interval.significant:
        decision = "the difference is not zero"
    elif until == "bounded" and -margin < interval.low and interval.high < margin:
        decision = f"the difference is within ±{margin:g}"
    elif look >= looks:
        decision = "undecided at the cap"
    return Look(look, looks, n, interval, decision)
