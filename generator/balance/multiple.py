"""Many tests at once: a table of sixteen starred rows, a ranking of thirty rules.

At 5 % each, a table of 16 rows that differ in nothing marks one of them in every second study
(1 - 0.95^16 = 0.56). Two adjustments, each for what its page claims:

- Holm (1979) across a table's rows: the chance of marking any row whose difference is truly zero
  stays at 5 % (the family-wise error), whatever the rows' dependence; uniformly more powerful than
  Bonferroni. Adjusted p_(i) = max over j <= i of min(1, (m - j + 1)·p_(j)), p sorted upwards.
- Benjamini and Hochberg (1995) across `--value-of-actions`' ranking: a ranking is read for the
  rules that matter, so the share of false marks among the marked rules (the false discovery rate)
  is held at 5 % instead, which keeps the power to find the few rules that matter among thirty.
  Adjusted q_(i) = min over j >= i of min(1, m/j·p_(j)). (Valid for independent or positively
  dependent tests; the arms share the baseline's games, which makes them positively dependent.)

Only tests with a p-value are in the family (a row with too few games for an interval is not).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

LEVEL = 0.05


def _tested(p_values: Sequence[float | None]) -> list[int]:
    """The indices of the p-values that are numbers, smallest p first (ties in their order)."""
    present = [i for i, p in enumerate(p_values) if p is not None and not math.isnan(p)]
    return sorted(present, key=lambda i: (p_values[i], i))


def holm(p_values: Sequence[float | None]) -> list[float | None]:
    """Holm's step-down adjusted p-values, in the order given (None where there was no test)."""
    order = _tested(p_values)
    adjusted: list[float | None] = [None] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        p = p_values[index]
        assert p is not None
        running = max(running, min(1.0, (len(order) - rank) * p))
        adjusted[index] = running
    return adjusted


def benjamini_hochberg(p_values: Sequence[float | None]) -> list[float | None]:
    """Benjamini-Hochberg's step-up adjusted p-values (q-values), in the order given."""
    order = _tested(p_values)
    adjusted: list[float | None] = [None] * len(p_values)
    running = 1.0
    for rank in range(len(order) - 1, -1, -1):
        p = p_values[order[rank]]
        assert p is not None
        running = min(running, len(order) / (rank + 1) * p)
        adjusted[order[rank]] = min(1.0, running)
    return adjusted


def p_text(p: float | None) -> str:
    """'0.003', '<0.0001'; '-' for no test."""
    if p is None or math.isnan(p):
        return "-"
    if p < 0.0001:
        return "<0.0001"
    return f"{p:.4f}" if p < 0.01 else f"{p:.3f}"
