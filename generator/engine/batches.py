"""Play a batch of games through JVM deaths: a game whose JVM dies or runs out of time fails alone.

`Engine.play_games` plays its games one after the other in one warm JVM and stops at the first
game that does not finish. `check` and the balance lab want every game tried: the first game
without a report is the one the JVM died in (or timed out in); it fails, and the games after it
go on in a new JVM.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from generator.engine.harness import Engine, HarnessError, JsonDict, PlayedGame, PlayEvent


def play_through(
    engine: Engine,
    games: Sequence[PlayedGame],
    *,
    rounds: int,
    ai: str,
    actions: str,
    timeout: float,
    processors: int | None,
    reproducible: bool,
    on_report: Callable[[int, JsonDict], None],
    on_failure: Callable[[int, str, float], None],
    on_event: Callable[[PlayEvent], None] | None = None,
) -> None:
    """Play every (file, seed) of `games`; each game's index comes back exactly once, to
    `on_report` with its report as the game ends, or to `on_failure` with the problem and the
    seconds the game ran before its JVM died or ran out of time."""
    start = 0
    while start < len(games):
        reported = 0
        last_end = time.monotonic()

        def arrived(position: int, report: JsonDict, first: int = start) -> None:
            nonlocal reported, last_end
            on_report(first + position, report)
            reported, last_end = position + 1, time.monotonic()

        try:
            engine.play_games(
                games[start:],
                rounds=rounds,
                ai=ai,
                actions=actions,
                timeout=timeout,
                processors=processors,
                reproducible=reproducible,
                on_report=arrived,
                on_event=on_event,
            )
            problem = ""
        except HarnessError as exc:
            problem = str(exc)
        start += reported
        if start < len(games):
            on_failure(start, problem or "no report", time.monotonic() - last_end)
            start += 1
