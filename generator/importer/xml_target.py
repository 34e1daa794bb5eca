"""Which engine a game XML is for, read from the file itself, when `validate` is given no --target.

A map made for current TripleA often lacks what only 1.9 needs (a `<loader>`) or carries what only
2.x reads (`minimumVersion` 2.x, `<variableList>`, `foreach`, options only 2.x has): 2.x loads it,
1.9 would not, so it is judged for 2.x alone. A file with no such sign is judged for both engines,
but what only 1.9 refuses is then a note, not an error: the game may well be a 2.x map (2.7 loads
crazygs_ww1 with transportCapacity on a land unit, which 1.9 refuses). Each verdict says which
engine it judged for and why, on the file's first line.
"""

from __future__ import annotations

import re
from typing import Any

from generator.checks.options import engine_meant
from generator.diagnostics import Diagnostic, Severity
from generator.spec.model import Spec
from generator.targets import Target

_LOADER = re.compile(rb"<loader\b")
_TWO_X_ELEMENTS = ((re.compile(rb"<variableList\b"), "<variableList>"), (re.compile(rb"\bforeach\s*="), "foreach"))
# The words of a finding only engine 1.9 makes (its DTD, one of its own refusals, an option it lacks).
_ONLY_19 = ("DTD:", "TripleA 1.9 refuses the game", "not in 1.9 (the portable target needs both")


def infer_target(spec: Spec | None, tree: Any, data: bytes) -> tuple[Target, str]:
    """The target a game XML is judged for, and why (said to the user)."""
    if spec is not None and spec.game.target in ("1.9", "2.x"):
        return spec.game.target, f"checked for TripleA {spec.game.target} alone: the game says it is for it"
    if spec is not None and spec.game.minimum_version and spec.game.minimum_version.split(".")[0] not in ("0", "1"):
        return "2.x", f"checked for TripleA 2.x alone: its minimumVersion is {spec.game.minimum_version}"
    if not _LOADER.search(data):
        return "2.x", "checked for TripleA 2.x alone: it has no <loader>, which 1.9 needs and 2.x does without"
    for pattern, what in _TWO_X_ELEMENTS:
        if pattern.search(data):
            return "2.x", f"checked for TripleA 2.x alone: it uses {what}, which only 2.x reads"
    meant = engine_meant(spec, tree) if spec is not None else None
    if meant:
        return meant, f"checked for TripleA {meant} alone: the game uses options only that engine takes"
    return "portable", "checked for TripleA 1.9 and 2.x: nothing in it says which; what only 1.9 refuses is a note"


def only_19_as_notes(problems: list[Diagnostic], judged: Diagnostic) -> list[Diagnostic]:
    """The findings only engine 1.9 makes, as notes (warnings): judged for both engines without a sign
    of which, the game may be a 2.x map that 2.x loads. `judged` (what it was judged for) is said
    first when there is such a note."""
    kept = []
    for problem in problems:
        if problem.severity is Severity.ERROR and any(words in problem.message for words in _ONLY_19):
            note = f"{problem.message} (a note: only 1.9 says this; give --target 1.9 or portable to make it an error)"
            problem = Diagnostic(note, problem.mark, problem.key_path, Severity.WARNING)
        kept.append(problem)
    return [judged, *kept] if any("(a note: only 1.9" in p.message for p in kept) else kept
