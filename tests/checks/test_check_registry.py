"""The checks' registry: every check takes one CheckContext, and the sifting of their findings is
the registry's alone (checks.registry.run_checks), the same for a check added to it as for the
shipped ones. The messages themselves are held by test_messages, test_one_mistake and the rest."""

from __future__ import annotations

import inspect
from collections.abc import Iterable

import pytest

from generator.checks.context import CheckContext, Locator
from generator.checks.registry import CHECKS, SIFTS, Check, Sift, run_checks
from generator.checks.variant import check_variant
from generator.diagnostics import Diagnostic, Mark, Severity
from generator.spec.resolve import Rules
from tests.helpers import TINY

WARNING = Severity.WARNING


@pytest.fixture(scope="module")
def ctx() -> CheckContext:
    checked, problems = check_variant(Rules(TINY.parent), TINY.name)
    assert checked is not None, problems
    return CheckContext(checked.spec, checked.resolved.tree, name=TINY.name)


def _at(line: int, message: str, path: str = "", severity: Severity = Severity.ERROR) -> Diagnostic:
    return Diagnostic(message, Mark("game.yaml", line, 1), path or f"units.u{line}", severity)


def _finds(*found: Diagnostic) -> Check:
    def check(ctx: CheckContext) -> Iterable[Diagnostic]:
        return list(found)

    return check


def test_every_registered_check_takes_the_context_alone() -> None:
    for check in CHECKS:
        parameters = list(inspect.signature(check).parameters.values())
        assert [p.annotation for p in parameters] == ["CheckContext"], check.__module__
    assert set(SIFTS) <= set(CHECKS)


def test_a_check_added_to_the_registry_is_run_in_its_order(ctx: CheckContext) -> None:
    first, added = _at(1, "one"), _at(2, "two")
    assert run_checks(ctx, [], checks=(_finds(first), _finds(added)), sifts={}) == [first, added]
    # A place already said (by the loader, the model) says nothing more.
    assert run_checks(ctx, [_at(2, "loader")], checks=(_finds(first), _finds(added)), sifts={}) == [first]


def test_a_first_check_is_said_first_and_silences_its_place(ctx: CheckContext) -> None:
    name, echo, other = _at(3, "bad name"), _at(3, "unknown unit"), _at(4, "elsewhere")
    plain, first = _finds(echo, other), _finds(name)
    assert run_checks(ctx, [], checks=(plain, first), sifts={first: Sift.FIRST}) == [name, other]


def test_a_whole_spec_check_runs_only_while_nothing_is_an_error(ctx: CheckContext) -> None:
    ran: list[str] = []

    def whole(ctx: CheckContext) -> Iterable[Diagnostic]:
        ran.append("whole")
        return [_at(5, "unused trigger", severity=WARNING)]

    warning = _at(6, "odd", severity=WARNING)
    assert len(run_checks(ctx, [], checks=(_finds(warning), whole), sifts={whole: Sift.WHOLE})) == 2
    assert run_checks(ctx, [], checks=(_finds(_at(7, "wrong")), whole), sifts={whole: Sift.WHOLE}) == [_at(7, "wrong")]
    assert run_checks(ctx, [_at(8, "loader")], checks=(whole,), sifts={whole: Sift.WHOLE}) == []
    assert ran == ["whole"]


def test_echoes_and_overrides(ctx: CheckContext) -> None:
    error, again, refused = _at(9, "value out of range"), _at(9, "the engine refuses it"), _at(10, "refused")
    echoes = _finds(again, refused)
    assert run_checks(ctx, [], checks=(_finds(error), echoes), sifts={echoes: Sift.ECHOES}) == [error, refused]
    isolated = _at(11, "borders nothing", "territories.X", WARNING)
    missing = _at(12, "not on the map", "territories.X")
    board = _finds(missing)
    assert run_checks(ctx, [], checks=(_finds(isolated), board), sifts={board: Sift.OVERRIDES}) == [missing]


def test_a_repaired_place_says_nothing_more(ctx: CheckContext) -> None:
    under = _at(13, "x", "units.tank.attack")
    holder = _at(14, "y", "units")
    elsewhere = _at(15, "z", "players.Reds")
    found = run_checks(ctx, [], repaired=[("units", "tank")], checks=(_finds(under, holder, elsewhere),), sifts={})
    assert found == [elsewhere]


def test_the_locator_places_a_key_path_at_its_line(ctx: CheckContext) -> None:
    unit = next(iter(ctx.spec.units))
    at = ctx.at
    assert isinstance(at, Locator)
    value, key = at.mark(("units", unit)), at.mark(("units", unit), key=True)
    assert value is not None and key is not None
    assert value.file.endswith("tiny/game.yaml") and key.line <= value.line
    said = at.problem(("units", unit, "nothing here"), "m", WARNING)
    assert (said.mark, said.key_path, said.severity) == (value, f"units.{unit}.'nothing here'", WARNING)
