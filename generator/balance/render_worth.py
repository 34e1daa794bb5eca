"""What each rule is worth (`--without`, `--value-of-actions`), in words and as a ranked chart."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from generator.balance.multiple import LEVEL, p_text
from generator.balance.table import difference
from generator.balance.worth import Worth


def worth_lines(worths: Sequence[Worth]) -> list[str]:
    """'aare without RuWinter: to Allies, 10 pairs: score +0.012 (-0.031..+0.055), p 0.41 (BH 0.62),
    win rate ..., VCs ..., TUV ...'."""
    return [
        f"{w.arm}: to {w.side}, {w.pairs} pairs: score "
        + (
            f"{w.score.value:+.3f} ({w.score.low:+.3f}..{w.score.high:+.3f}){' *' if w.score.significant else ''}"
            + f", p {p_text(w.score.p)} (BH {p_text(w.q)}){' †' if w.q is not None and w.q < LEVEL else ''}"
            if math.isfinite(w.score.half_width)
            else "(too few games)"
        )
        + f", win rate {difference(w.win, True)}, VCs {difference(w.vcs, False)}, TUV {difference(w.tuv, False)}"
        + f" (forbids {w.rule.shown_actions()})"
        for w in worths
    ]


WORTH_NOTE = (
    "What a rule is worth to the side that holds it: the side's figures as is minus without the rule's actions, "
    "on the games played with the same seed both ways. Score: 1 for a win, 0 for a loss, else the side's share "
    "of all unit value on the board after the last round (mean with its 95 % t interval); win rate: Newcombe's "
    "paired interval; victory cities and TUV (at the baseline's prices) after the last round: paired t "
    "intervals. Ranked by the score; * marks an interval that leaves out zero. p: the score's t-test; BH: "
    "that p-value after Benjamini and Hochberg's adjustment over the ranking's rules, so that of the rules "
    "marked † at most 5 % are expected to be worth nothing (the false discovery rate)."
)


def worth_chart(worths: Sequence[Worth]) -> bytes:
    """A ranked chart: one bar per restricted arm, its paired score difference and interval."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    shown = [w for w in worths if math.isfinite(w.score.half_width)]
    canvas, axis = pyplot.subplots(figsize=(8, 0.5 * len(shown) + 1.5))
    ys = list(range(len(shown)))[::-1]
    axis.barh(ys, [w.score.value for w in shown], color="#7fa7d9")
    axis.errorbar(
        [w.score.value for w in shown], ys, xerr=[w.score.half_width for w in shown], fmt="none", ecolor="#222"
    )
    axis.set_yticks(ys, [f"{w.arm.split(' without ', 1)[-1]} ({w.side})" for w in shown])
    axis.axvline(0, color="#888", linewidth=1)
    axis.set_xlabel("the holder's score: as is - without (95 % interval)")
    axis.set_title("What each rule is worth")
    canvas.tight_layout()
    buffer = io.BytesIO()
    canvas.savefig(buffer, format="png", dpi=90, metadata={"Software": None})
    pyplot.close(canvas)
    return buffer.getvalue()
