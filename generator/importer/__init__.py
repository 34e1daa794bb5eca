"""Any TripleA game XML → a spec: read safely, typed, written as `rules/<name>/*.yaml`.

Reads game XMLs of both engines (2.x variables and `foreach` expanded); gives spec trees the
spec stage loads like hand-written ones, and validates foreign XMLs with the checks' rules.
"""
