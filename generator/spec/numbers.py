"""Whole numbers as the engine reads them: Java ints, and counts that are never negative.

TripleA reads every number of a game XML with `Integer.parseInt`: a value outside
-2147483648..2147483647 stops it with a NumberFormatException. Counts, costs and amounts of a
resource are also never negative in a game that plays (negative starting PUs, a negative unit
count). Every whole number of the spec model is one of the two types below, so the model refuses
what the engine cannot read, at the spec line (spec.validation words the messages).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field

JAVA_INT_MIN = -(2**31)
JAVA_INT_MAX = 2**31 - 1

EngineInt = Annotated[int, Field(ge=JAVA_INT_MIN, le=JAVA_INT_MAX)]  # any whole number the engine reads
Count = Annotated[int, Field(ge=0, le=JAVA_INT_MAX)]  # a count, cost or amount: never negative


def out_of_range(value: Any, bounds: dict[str, Any]) -> str:
    """What is wrong with `value`, outside the pydantic bounds `bounds` (`ge` and/or `le`), and the fix."""
    low, high = bounds.get("ge"), bounds.get("le")
    if high == JAVA_INT_MAX:
        return f"{value} is more than TripleA can read (its whole numbers go up to {JAVA_INT_MAX}); write a smaller one"
    if low == JAVA_INT_MIN:
        return (
            f"{value} is less than TripleA can read (its whole numbers go down to {JAVA_INT_MIN}); write a larger one"
        )
    if low == 0:
        return f"{value} is negative; a count, cost or amount is 0 or more"
    if low is not None:
        return f"expected {low} or more, got {value}"
    return f"expected {high} or less, got {value}"
