"""Where the package's own files are, in a source checkout and in an installed wheel."""

from __future__ import annotations

import os
from pathlib import Path


def template_dir() -> Path:
    """`templates/` of a source checkout, or its copy inside an installed wheel."""
    packaged = Path(__file__).parent / "_templates"
    return packaged if packaged.is_dir() else Path(__file__).parents[1] / "templates"


def cache_dir(*parts: str) -> Path:
    """`${XDG_CACHE_HOME:-~/.cache}/triplea-forge/<parts>`: every cache of the tool lives here."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache", "triplea-forge", *parts)
