"""Every check of a variant, in order (`CHECKS`), and the one place their findings are sifted.

A check is a function `(ctx: CheckContext) -> Iterable[Diagnostic]` (checks.context): it reports
everything it finds and knows nothing of the others. Adding one is a module and a line in
`CHECKS`; the order of `CHECKS` is the order its problems are said in. What is said once, and
what an earlier problem makes an echo not worth saying, is decided here (`run_checks`,
`consequences_unsaid`), for every check alike; `SIFTS` names the few checks with a part of
their own in it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from enum import Enum

from generator.checks import board, engine_rules, gates, names, options, properties, references, sanity
from generator.checks.context import CheckContext, Path
from generator.diagnostics import Diagnostic, Mark, Severity, key_path

Check = Callable[[CheckContext], Iterable[Diagnostic]]

# Every check of a variant, in the order its problems are said.
CHECKS: tuple[Check, ...] = (
    names.check,  # every key and name is one line of text (checks.names)
    references.check,  # what the spec names exists; ids, file names, the ledger and its proofs
    options.check,  # every attachment option against the engines' catalogs
    engine_rules.check,  # what the engines refuse when the game loads, or fail on in play
    properties.check,  # game properties: names the engines read, values of their type
    sanity.check,  # mistakes the engine accepts silently
    gates.check,  # rules the engine never applies, units no one can have
    board.check,  # territories and unit pictures against the map (with a board to look at)
)


class Sift(Enum):
    """How a check's findings meet what was said before them, where it is not the plain way: a
    finding is said unless a problem found before the checks, or by a FIRST check, is at its
    place, or its place is one the model repaired (spec.salvage)."""

    # Its findings are each place's one problem: nothing later is said at their place. A name that
    # is not one line of text is one problem; what else is said of its place is noise.
    FIRST = "first"
    # It may find again what an earlier check said: not said where an earlier error is (a value
    # outside the option's own range is said by the option check, not again as the engine's rule).
    ECHOES = "echoes"
    # It reads the spec as a whole: it runs only while no error has been found (a spec with a
    # mistake is not whole: a use that made nothing leaves the triggers it would fire looking unused).
    WHOLE = "whole"
    # Its errors are the problem at their key path: the warnings said there before are their echo
    # (a territory the map lacks is one problem, not also a warning that it borders nothing).
    OVERRIDES = "overrides"


SIFTS: Mapping[Check, Sift] = {
    names.check: Sift.FIRST,
    engine_rules.check: Sift.ECHOES,
    gates.check: Sift.WHOLE,
    board.check: Sift.OVERRIDES,
}


def run_checks(
    ctx: CheckContext,
    said: Sequence[Diagnostic],
    repaired: Sequence[Path] = (),
    checks: Sequence[Check] = CHECKS,
    sifts: Mapping[Check, Sift] = SIFTS,
) -> list[Diagnostic]:
    """The problems `checks` find in `ctx`, in order, sifted as `sifts` says (see `Sift`): `said`
    are the problems found before the checks (loading, the model), `repaired` the key paths the
    model repaired."""
    marks: set[Mark | None] = {p.mark for p in said}
    first: list[Diagnostic] = []  # what FIRST checks said: said before every other finding
    later: list[Diagnostic] = []
    for check in checks:
        sift = sifts.get(check)
        if sift is Sift.WHOLE and _any_error([*said, *first, *later]):
            continue
        found = list(check(ctx))
        if sift is Sift.FIRST:
            found = [p for p in found if p.mark not in marks]
            marks |= {p.mark for p in found}
            first += found
            continue
        if sift is Sift.ECHOES:
            found = engine_rules.not_said(found, later)
        elif sift is Sift.OVERRIDES:
            gone = {p.key_path for p in found if p.severity is Severity.ERROR}
            later = [p for p in later if not (p.severity is Severity.WARNING and p.key_path in gone)]
        later += found
    # A repaired place, what lies under it, and the entry that holds it say nothing more.
    quiet = tuple(key_path(path) for path in repaired)
    holders = {key_path(path[:-1]) for path in repaired}
    return first + [
        p for p in later
        if p.mark not in marks and p.key_path not in holders and not (quiet and p.key_path.startswith(quiet))
    ]  # fmt: skip


def consequences_unsaid(problems: list[Diagnostic]) -> list[Diagnostic]:
    """Without the warnings said of a place that an error is said of: the error is the mistake, the
    warnings its echoes (a fighter made a sea unit is refused by the engine; that it is "a sea unit
    placed on land" in every territory it starts in says nothing more until it is fixed)."""
    wrong = {p.key_path for p in problems if p.severity is Severity.ERROR and p.key_path}
    return [p for p in problems if p.severity is not Severity.WARNING or p.key_path not in wrong]


def _any_error(problems: Iterable[Diagnostic]) -> bool:
    return any(p.severity is Severity.ERROR for p in problems)
