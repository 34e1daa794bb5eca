"""What goes wrong running the real engine: not installed, or the harness failed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from generator.errors import ToolUnusable

JsonDict = dict[str, Any]


class EngineError(ToolUnusable):
    """Anything that prevents running the TripleA engine harness."""


class EngineNotFound(EngineError):
    """The TripleA jar (or a JDK to compile and run the harness) is not installed."""


class HarnessError(EngineError):
    """The harness failed to compile, crashed, or produced output we cannot read."""

    def __init__(
        self, message: str, *, games: Sequence[JsonDict | None] = (), reports: Mapping[str, JsonDict] | None = None
    ) -> None:
        super().__init__(message)
        # play_games(): the reports of the games that finished before the failure, by position
        # (None where a game did not finish); play(): the same by file.
        self.games: list[JsonDict | None] = list(games)
        self.reports: dict[str, JsonDict] = dict(reports or {})
