"""Balance studies: many seeded all-AI games per variant, compared with confidence intervals.

Reads built game XMLs and plays them through the engine harness (local warm JVMs or Ray tasks);
gives JSON Lines records per game and a report (table, Markdown, charts, one HTML page).
"""

from __future__ import annotations

import importlib.util

# What a study's report needs beyond triplea-forge's own dependencies: the optional 'balance' extra.
REPORT_LIBRARIES = ("numpy", "scipy", "matplotlib")


def missing_libraries() -> list[str]:
    """The libraries of the 'balance' extra this Python cannot import (a study needs all of them).

    Asked before a study plays a game: the report that needs them comes after hours of play.
    """
    return [name for name in REPORT_LIBRARIES if importlib.util.find_spec(name) is None]
