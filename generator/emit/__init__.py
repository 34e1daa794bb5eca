"""Turn checked specs into files: the game XML, the game notes, `map.yml`, coverage tables.

Reads a `Spec`; `build` runs spec → checks → render for each variant, and `write` puts the files
in place atomically, touching only what changed. Templates (`templates/`) only fill in values.
"""
