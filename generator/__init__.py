"""triplea-forge: a compiler for TripleA mods (YAML specs -> game XML, notes, map files)."""

__version__ = "0.1.0"
