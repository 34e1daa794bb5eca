"""Fixtures and hooks of the whole suite: the fast default lane, the order and grouping of the tests.

Plain `pytest -n auto` is the edit loop: it leaves out the tests marked `engine` (they play the
real TripleA engine) or `slow` (a browser, a fresh venv, the benchmark, a simulation, a sweep over
every reference game or variant), and runs the property tests with a tenth of their examples
(tests.helpers.examples). `--with-slow` (what CI runs) runs everything at full count; so does any
`-m` that names what to run. The helpers test modules use are in tests/helpers.py (importing this
module would load it a second time).
"""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import settings

from tests.helpers import CHECK_SEEDS, DEFAULT_MARKEXPR, ENGINE_JAR, ROOT, SLOW_MODULES, TESTS, Result, run_cli

# What the fast lane leaves out.
SLOW_MARKERS = ("engine", "slow")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", help="Rewrite golden files from the current output.")
    parser.addoption(
        "--with-slow",
        action="store_true",
        help="Also run the tests marked engine or slow, and every property test at its full count (what CI runs).",
    )


def _fast_lane(config: pytest.Config) -> bool:
    """Neither --with-slow nor a `-m` of the run's own (such as `-m mutation` or `-m engine`)."""
    return not config.getoption("--with-slow") and config.option.markexpr == DEFAULT_MARKEXPR


def pytest_configure(config: pytest.Config) -> None:
    # The profile whose share of each property test's examples runs (tests.helpers.examples);
    # a --hypothesis-profile given on the command line is Hypothesis' own to load.
    if config.getoption("--hypothesis-profile", None) is None:
        settings.load_profile("dev" if _fast_lane(config) else "ci")


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


def _slow(item: pytest.Item) -> bool:
    # Its marks, not its keywords: a test's keywords also hold the names of its package and module
    # (every test under tests/engine/ has the keyword `engine`).
    return any(item.get_closest_marker(marker) is not None for marker in SLOW_MARKERS)


def _slowness_rank(item: pytest.Item) -> int:
    name = _module_path(item)
    return SLOW_MODULES.index(name) if name in SLOW_MODULES else len(SLOW_MODULES)


def _module_path(item: pytest.Item) -> str:
    """The test's module as a path under tests/ (`cli/test_fuzz.py`): base names alone may repeat."""
    return item.path.relative_to(TESTS).as_posix() if item.path.is_relative_to(TESTS) else str(item.path)


def _module_fixture_group(item: pytest.Item) -> str | None:
    """A group for the tests of a module that use one of its module-scoped fixtures."""
    info = getattr(item, "_fixtureinfo", None)
    for name in getattr(item, "fixturenames", ()):
        definitions = info.name2fixturedefs.get(name) if info is not None else None
        if definitions and definitions[-1].scope == "module":
            return f"module-fixtures-{_module_path(item)}"
    return None


# First, so the groups are given before xdist reads them (in the same hook, on each worker).
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _fast_lane(config):
        slow = [item for item in items if _slow(item)]
        if slow:
            config.hook.pytest_deselected(items=slow)
            items[:] = [item for item in items if not _slow(item)]
    items.sort(key=_slowness_rank)  # stable: each module's own order is kept
    # The tests sharing a module's fixture (a packaged map, an X server, a study's games, a check
    # of broken games) run on one worker (--dist loadgroup), which makes the fixture once.
    for item in items:
        group = _module_fixture_group(item)
        if group is not None and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(group))
    if ENGINE_JAR.is_file() and shutil.which("java"):
        return
    # The one place a test is skipped for want of the engine: mark it `engine`, never skip by hand.
    skip = pytest.mark.skip(reason=f"TripleA engine or java not installed ({ENGINE_JAR}); apt-get install triplea")
    for item in items:
        if item.get_closest_marker("engine") is not None:
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    if _fast_lane(config):
        terminalreporter.write_line(
            "fast lane: tests marked engine or slow were left out, property tests ran a tenth of their "
            "examples; `pytest -n auto --with-slow` runs everything, as CI does"
        )


def pytest_collection_finish(session: pytest.Session) -> None:
    proofs = sys.modules.get("tests.proofs")
    if proofs is not None:  # a module of `@proves` tests was collected: batch the scenarios it runs
        proofs.select(session.items)


@pytest.fixture
def cli() -> Callable[..., Result]:
    return run_cli


@pytest.fixture(scope="session")
def every_variant_checked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Result, dict[str, Any]]:
    """`check` of every variant the 1.9 engine plays: two seeded 2-round games each, in one warm JVM.

    Several modules assert on this one run; their tests are marked `xdist_group(CHECK_GROUP)`, so
    one worker plays it.
    """
    report = tmp_path_factory.mktemp("check") / "check.json"
    args = ("--rounds", "2", "--seed", str(CHECK_SEEDS[0]), "-n", str(len(CHECK_SEEDS)), "--report", str(report))
    result = run_cli("check", *args, cwd=ROOT)
    assert report.is_file(), result.out + result.err
    return result, json.loads(report.read_text(encoding="utf-8"))
