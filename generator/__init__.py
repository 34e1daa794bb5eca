"""triplea-forge: a compiler for TripleA mods (YAML specs -> game XML, notes, map files)."""

from __future__ import annotations


def __getattr__(name: str) -> str:
    """`__version__`: the installed package's version, whose one source is pyproject.toml.

    Read from the package's metadata when asked, as the CLI's --version reads it, not at import:
    importlib.metadata (and the email and zip modules it imports) would slow every command's start.
    """
    if name == "__version__":
        from importlib import metadata

        return metadata.version("triplea-forge")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
