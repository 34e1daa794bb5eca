"""Scenario tests as ledger proofs: `@proves(SCENARIO, *VARIANTS)` ties a test to the rules it shows.

A ledger entry's `proof: {scenario: NAME}` is only as good as a test that runs NAME on the variant's
built game and asserts the rule's outcome. A test decorated with `@proves` runs once per variant,
gets the facts the engine reported (`generator.engine.scenario.run_scenario` on
`output/games/<variant>.xml`; for a variant made for 2.x only, the same game as engine 1.9 reads it,
see generator/engine/proof.py), and is recorded in `PROVEN`, which `tests/engine/test_proofs.py` holds
against every ledger's scenario proofs. A scenario runs once per variant and test session, and the
scenarios a session's tests prove on one variant are played together in one JVM of each test
process that runs one of them (its start and the engine's class loading cost more than most
scenarios). The tests of a variant are marked as one xdist group for `--dist loadgroup`; the
xdist 3.8.0 measured here still spread a group over both workers (one batch on each).
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from generator.engine.proof import write_readable_by_19
from generator.engine.scenario import ScenarioError, run_scenario, run_scenarios
from generator.release.package.properties import encode, format_entry
from generator.spec.option_values import xml_value
from tests.helpers import ROOT, variant_spec, variant_target

Facts = dict[str, Any]
# (scenario, variant) -> the tests that run the scenario on the variant and assert on its facts.
PROVEN: dict[tuple[str, str], list[str]] = {}
# (scenario, variant) -> those tests' assertions, to run on other facts (tests/engine/test_mutation.py).
ASSERTIONS: dict[tuple[str, str], list[Callable[[Facts], None]]] = {}
# The (scenario, variant) pairs the session's selected tests prove (see `select`); None: not known.
_SELECTED: set[tuple[str, str]] | None = None
_TMP = Path(tempfile.mkdtemp(prefix="forge-proofs-"))


def game_for_engine(variant: str) -> Path:
    """The built game of VARIANT as engine 1.9 loads it (2.x-only variants without their 2.x parts)."""
    game = ROOT / "output" / "games" / f"{variant}.xml"
    if variant_target(variant) != "2.x":
        return game
    return write_readable_by_19(game, _TMP / f"{variant}.xml")


def map_files_for_engine(variant: str) -> Path:
    """The variant's map .properties files (notifications, actionstext...) as its package writes them."""
    folder = _TMP / f"{variant}-map"
    folder.mkdir(exist_ok=True)
    for name, entries in variant_spec(variant).map_files.items():
        lines = [format_entry(key, xml_value(value)) for key, value in entries.items()]
        (folder / f"{name}.properties").write_bytes(encode(lines))
    return folder


def select(items: Sequence[pytest.Item]) -> None:
    """Note which scenarios the session's tests (after -k, -m and node ids) prove on which variant."""
    global _SELECTED
    _SELECTED = set()
    for item in items:
        scenario = getattr(getattr(item, "function", None), "proved_scenario", None)
        callspec = getattr(item, "callspec", None)
        if scenario is not None and callspec is not None:
            _SELECTED.add((scenario, callspec.params["variant"]))


def scenario_facts(scenario: str, variant: str) -> Facts:
    """The facts of SCENARIO on VARIANT, played with the other scenarios the session proves on it."""
    if (scenario, variant) not in _variant_batch(variant):
        return _one_scenario(scenario, variant)
    facts = _batch_facts(variant)[scenario]
    if "error" in facts:  # what run_scenario raises for a failed run
        raise ScenarioError(f"scenario '{scenario}' failed: {facts['error']}")
    return facts


def _variant_batch(variant: str) -> list[tuple[str, str]]:
    proven = _SELECTED if _SELECTED is not None else set(PROVEN)
    return sorted(pair for pair in proven if pair[1] == variant)


@cache
def _batch_facts(variant: str) -> dict[str, Facts]:
    names = [scenario for scenario, _ in _variant_batch(variant)]
    game, map_files = game_for_engine(variant), map_files_for_engine(variant)
    played = run_scenarios([(name, game) for name in names], map_files=map_files)
    return dict(zip(names, played, strict=True))


@cache
def _one_scenario(scenario: str, variant: str) -> Facts:
    return run_scenario(scenario, game_for_engine(variant), map_files=map_files_for_engine(variant))


def proves(scenario: str, *variants: str) -> Callable[[Callable[[Facts], None]], Callable[..., None]]:
    """Run the decorated test on the facts of SCENARIO for each of VARIANTS (an engine test)."""

    def decorate(test: Callable[[Facts], None]) -> Callable[..., None]:
        for variant in variants:
            PROVEN.setdefault((scenario, variant), []).append(f"{test.__module__}.{test.__name__}")
            ASSERTIONS.setdefault((scenario, variant), []).append(test)

        def run(variant: str) -> None:
            test(scenario_facts(scenario, variant))

        run.__name__ = test.__name__
        run.__qualname__ = test.__qualname__
        run.__doc__ = test.__doc__
        run.__module__ = test.__module__
        run.proved_scenario = scenario  # type: ignore[attr-defined]  # read by `select`
        # One worker plays all of a variant's scenarios (in one JVM, see `scenario_facts`).
        grouped = [pytest.param(v, marks=pytest.mark.xdist_group(f"proofs-{v}")) for v in variants]
        marked = pytest.mark.parametrize("variant", grouped)(run)
        return pytest.mark.engine(marked)

    return decorate
