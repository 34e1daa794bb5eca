"""When a balance study has played enough: a group-sequential test on paired games.

A study that stops "when the interval looks good" and reports that interval is wrong: looking
after every batch and stopping on the first good look makes a 95 % interval cover far less than
95 %. The group-sequential design widens the interval at each look so that over all looks together
the error stays at 5 %. How much of the 5 % a look may use is set by how much of the study's
information it has seen, its information fraction t (the pairs analysed over the pairs the cap
allows): Lan and DeMets' spending function of O'Brien-Fleming type, on each side
alpha/2 · (2 - 2·Phi(z/sqrt(t))) / (alpha/2) with z = z(alpha/4) = 2.241 (the form gsDesign and
ldbounds use for a two-sided test), which spends almost nothing early (a study stops early only on
a large effect) and keeps the last look close to the fixed-sample 1.96. Spending by information, rather than O'Brien and
Fleming's boundary for K equally spaced looks, keeps the error at 5 % when the looks are not equally
spaced: a last batch cut to the cap (--max-games not a multiple of --games), or pairs dropped because
a game failed. The last look (the cap) spends what is left, whatever its fraction.

Each look's boundary b_k solves P(no earlier crossing, |Z_k| >= b_k) = alpha(t_k) - alpha(t_{k-1})
under no difference: Armitage, McPherson and Rowe's recursion on the Brownian motion W(t) = Z·sqrt(t),
the density of the paths that have not crossed carried from look to look by a normal convolution
(trapezoid rule on a fixed grid, each tail summed from its far end so that small masses keep their
digits). With five equal looks it gives the published boundaries (DeMets and Lan 1994: 4.877,
3.357, 2.680, 2.290, 2.031). A look whose share is below 1e-9 (the first of fifty) takes the
boundary of its share alone, ignoring the paths that crossed before: conservative, by less than
the share itself.

Each look uses the paired differences d_i = score(B, seed i) - score(A, seed i), so the interval
is the repeated confidence interval mean(d) ± q·se, q the t quantile (n - 1 degrees of freedom) with
the same tail as b_k (the normal boundary would be too narrow with a handful of pairs); the tail is
taken as such (P(Z > 14) is 1e-44, which 1 - P(Z < 14) rounds to 0). ``significant`` stops when the
interval leaves out zero; ``bounded`` stops when it lies inside ±margin (the variants are equal
within the margin) or leaves out zero; both stop at the cap, undecided.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from generator.balance.stats import Interval, mean, normal_tail, t_beyond, variance

ALPHA = 0.05
GRID_STEP = 0.005  # on the W scale (sd at most 1): the boundaries to about 1e-3
GRID_REACH = 7.0  # W beyond ±7 at t <= 1 is below 1e-11
TINY = 1e-9  # a share of the error too small for the grid's tails: its own boundary


def spent(fraction: float, alpha: float = ALPHA) -> float:
    """The error (both sides) the looks up to information fraction t may use together:
    4·(1 - Phi(z(alpha/4)/sqrt(t))), which is alpha at t = 1."""
    from scipy.stats import norm  # type: ignore[import-untyped]  # scipy ships no type hints

    if fraction <= 0:
        return 0.0
    return min(alpha, 4 * normal_tail(float(norm.isf(alpha / 4)) / math.sqrt(min(1.0, fraction))))


def boundaries(fractions: tuple[float, ...], alpha: float = ALPHA) -> tuple[float, ...]:
    """The z boundaries b_1..b_k of looks at information fractions t_1 < ... < t_k (each in 0..1)."""
    if not fractions or any(b <= a for a, b in itertools.pairwise(fractions)) or fractions[0] <= 0:
        raise ValueError(f"information fractions must increase from above 0: {fractions}")
    return _after(tuple(fractions), alpha)[0]


@lru_cache(maxsize=256)
def _after(fractions: tuple[float, ...], alpha: float) -> tuple[tuple[float, ...], Any]:
    """The boundaries of the looks and the density of W over the paths alive after the last one.
    Each look is built on the looks before it (cached), so a study's next look costs one
    convolution (by FFT: its error, 1e-16 of the density's peak, is far below any share spent)."""
    import numpy as np
    from scipy.signal import fftconvolve  # type: ignore[import-untyped]
    from scipy.stats import norm

    points = 2 * round(GRID_REACH / GRID_STEP) + 1
    grid = np.linspace(-GRID_REACH, GRID_REACH, points)
    width = grid[1] - grid[0]
    fraction = fractions[-1]
    if len(fractions) == 1:
        bounds: tuple[float, ...] = ()
        before = 0.0
        density = norm.pdf(grid, scale=math.sqrt(fraction))
    else:
        bounds, alive = _after(fractions[:-1], alpha)
        before = fractions[-2]
        weights = np.full(points, width)
        weights[[0, -1]] = width / 2
        kernel = norm.pdf(np.arange(-(points - 1), points) * width, scale=math.sqrt(fraction - before))
        density = np.clip(fftconvolve(alive * weights, kernel, mode="valid"), 0.0, None)
    c = _edge(grid, density, spent(fraction, alpha) - spent(before, alpha), fraction)
    return (*bounds, c / math.sqrt(fraction)), np.where(np.abs(grid) < c, density, 0.0)


def _edge(grid: Any, density: Any, target: float, fraction: float) -> float:
    """The boundary c on the W scale at which the paths still alive cross with probability `target`."""
    import numpy as np
    from scipy.optimize import brentq  # type: ignore[import-untyped]
    from scipy.stats import norm

    if target < TINY:
        return min(GRID_REACH, float(norm.isf(target / 2)) * math.sqrt(fraction))
    width = grid[1] - grid[0]
    steps = (density[1:] + density[:-1]) / 2 * width
    below = np.concatenate(([0.0], np.cumsum(steps)))  # P(W < x), summed from -reach
    above = np.concatenate((np.cumsum(steps[::-1])[::-1], [0.0]))  # P(W > x), summed from +reach

    def crossing(c: float) -> float:
        return float(np.interp(c, grid, above) + np.interp(-c, grid, below)) - target

    return float(brentq(crossing, 1e-9, GRID_REACH, xtol=1e-10))


@dataclass(frozen=True)
class Look:
    """The state of a sequential study after look `look` of at most `looks`."""

    look: int
    looks: int
    pairs: int
    interval: Interval  # the repeated confidence interval of the mean paired difference
    decision: str  # "" to go on, else the sentence that ends the study
    boundary: float = math.nan  # this look's z boundary


def look(
    differences: Sequence[float],
    look: int,
    looks: int,
    until: str,
    margin: float,
    fractions: Sequence[float] | None = None,
) -> Look:
    """The repeated confidence interval after `look` of `looks` and whether the study stops.

    ``fractions``: the information fraction of every look analysed so far, this one last (pairs
    analysed over the pairs the cap allows); by default look/looks, equally spaced looks. The last
    look (look >= looks) spends what is left of the error, whatever its fraction."""
    n = len(differences)
    if n < 2:  # no spread to measure: no look spends anything
        unknown = Interval(mean(differences), -math.inf, math.inf)
        return Look(look, looks, n, unknown, "undecided at the cap" if look >= looks else "")
    seen = list(fractions) if fractions is not None else [k / looks for k in range(1, look + 1)]
    if look >= looks:
        seen[-1] = 1.0
    boundary = boundaries(tuple(seen))[-1]
    spread = t_beyond(n - 1, normal_tail(boundary)) * math.sqrt(variance(differences) / n)
    m = mean(differences)
    interval = Interval(m, m - spread, m + spread)
    decision = ""
    if interval.significant:
        decision = "the difference is not zero"
    elif until == "bounded" and -margin < interval.low and interval.high < margin:
        decision = f"the difference is within ±{margin:g}"
    elif look >= looks:
        decision = "undecided at the cap"
    return Look(look, looks, n, interval, decision, boundary)
