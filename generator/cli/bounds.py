"""Numbers given on the command line, checked at the edge against what takes them.

The Java harness reads a seed as a Java long and rounds as a Java int: past them it stopped with
its usage text, which `check` reported as the game FAILED. Click's ranges let NaN through (every
comparison with it is false), and a count of games or workers no machine could hold was turned
into a list before anything said no. Every such option takes one of these types: a value out of
range is a usage error naming the option (exit 2), before a game is built or played.
"""

from __future__ import annotations

import math
from typing import Any

import click

JAVA_INT_MAX = (1 << 31) - 1  # as spec.numbers, whose pydantic the command line does not load at start
JAVA_LONG_MIN = -(1 << 63)
JAVA_LONG_MAX = (1 << 63) - 1
MAX_GAMES = 1_000_000  # games of one run: at a few seconds each, days of play on every core
MAX_WORKERS = 1024  # JVMs side by side on one machine
MAX_SECONDS = 7 * 24 * 3600.0  # a timeout: a week

# Rounds of one game, as the harness reads them (Integer.parseInt): 0 only parses.
ROUNDS = click.IntRange(0, JAVA_INT_MAX)
GAMES = click.IntRange(1, MAX_GAMES)
WORKERS = click.IntRange(1, MAX_WORKERS)


# A seed, as the harness reads it (Long.parseLong).
SEED = click.IntRange(JAVA_LONG_MIN, JAVA_LONG_MAX)


class FiniteFloat(click.FloatRange):
    """click.FloatRange without NaN, which passes every bound (each comparison with it is false)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        number: float = super().convert(value, param, ctx)
        if math.isnan(number) or math.isinf(number):
            self.fail(f"{number} is not a number in the range {self._describe_range()}", param, ctx)
        return number


def check_seeds(seed: int, games: int, option: str = "--seed") -> None:
    """Every seed a run plays (seed .. seed+games-1) must be a Java long too."""
    last = seed + games - 1
    if last > JAVA_LONG_MAX:
        raise click.BadParameter(
            f"{seed} with {games} games plays seeds up to {last}, past the largest the engine takes "
            f"({JAVA_LONG_MAX}); give a smaller seed",
            param_hint=option,
        )
