"""Shared test helpers: repo paths, running the real CLI, building fixture rule folders inline."""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import traceback
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from generator.checks.variant import check_variant
from generator.spec.model import Spec
from generator.spec.resolve import Rules, resolve

ROOT = Path(__file__).resolve().parents[1]
# Reference material the tests read, kept in the repository (see tests/data/README.md).
DATA = ROOT / "tests" / "data"
BASE_MAP = DATA / "world_war_ii_revised"
# The user's pip cache (read before any test points HOME elsewhere): a test that installs this
# checkout in a new venv, as a mod maker or a mod's CI job does (its workflow restores pip's cache
# first), builds the wheel and fetches the libraries once a session, not once a test.
USER_PIP_CACHE = os.environ.get("PIP_CACHE_DIR") or str(Path.home() / ".cache" / "pip")
TINY = ROOT / "tests" / "fixtures" / "tiny"
TINY_MAP = ROOT / "tests" / "fixtures" / "tiny_map"  # the tiny fixture's board and unit pictures
FIXTURE_MAPS = TINY_MAP.parent  # a maps folder holding it
OFFICIAL_GAMES = BASE_MAP / "map" / "games"
REFERENCE_XMLS = sorted((DATA / "xml").glob("*.xml"))
ENGINE_JAR = Path(os.environ.get("TRIPLEA_JAR", "/usr/share/games/triplea/bin/triplea.jar"))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-goldens", action="store_true", help="Rewrite golden files from the current output.")


@pytest.fixture
def update_goldens(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-goldens"))


# The modules whose tests take longest (engine games, the GUI client, the fuzz test, fresh venvs),
# slowest first: run first, so that the workers' queues end with short tests and neither waits
# alone on a long one at the end. A module stays whole (its module-scoped fixtures are made once).
SLOW_MODULES = (
    "test_rules_policy.py",
    "test_fuzz.py",
    "test_gui.py",
    "test_check.py",
    "test_mod_repository.py",
    "test_balance.py",
    "test_mod_ci.py",
    "test_mod_pin.py",
    "test_site_ci.py",
    "test_roundtrip.py",
    "test_bench.py",
    "test_engine_checks.py",
    "test_package.py",
    "test_hardening_inputs.py",
    "test_validate.py",
)


def _slowness_rank(item: pytest.Item) -> int:
    name = item.path.name
    return SLOW_MODULES.index(name) if name in SLOW_MODULES else len(SLOW_MODULES)


def _module_fixture_group(item: pytest.Item) -> str | None:
    """A group for the tests of a module that use one of its module-scoped fixtures."""
    info = getattr(item, "_fixtureinfo", None)
    for name in getattr(item, "fixturenames", ()):
        definitions = info.name2fixturedefs.get(name) if info is not None else None
        if definitions and definitions[-1].scope == "module":
            return f"module-fixtures-{item.path.name}"
    return None


# First, so the groups are given before xdist reads them (in the same hook, on each worker).
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
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
        if "engine" in item.keywords:
            item.add_marker(skip)


def pytest_collection_finish(session: pytest.Session) -> None:
    proofs = sys.modules.get("tests.proofs")
    if proofs is not None:  # a module of `@proves` tests was collected: batch the scenarios it runs
        proofs.select(session.items)


@dataclass
class Result:
    code: int
    out: str
    err: str


def _with_installed_maps(env: dict[str, str] | None) -> dict[str, str]:
    env = env or {}
    if "HOME" not in env and "TRIPLEA_MAPS" not in env:
        # As a player who has the tiny fixture's map installed: the tiny variants are checked
        # against its board (a test that wants no map installed gives a HOME of its own).
        env = {**env, "TRIPLEA_MAPS": str(FIXTURE_MAPS)}
    return env


# How `python -m generator` names itself in usage messages (click reads it from the process).
PROG_NAME = "python -m generator"


def _help_width(env: dict[str, str]) -> int:
    """The width click lays help out in when stdout is a pipe: COLUMNS, else 80, less 2 (max 78)."""
    columns = int(env["COLUMNS"]) if env.get("COLUMNS", "").isdigit() and int(env["COLUMNS"]) > 0 else 80
    return max(min(columns, 80) - 2, 50)


def run_cli(*args: str, cwd: Path, env: dict[str, str] | None = None) -> Result:
    """Run `triplea-forge` as a user does, on real files, in this process (`env`: variables to set).

    The command's own code runs as in a process of its own (click's command line, the working
    folder, the environment, stdout and stderr kept apart, the exit code); what only a process of
    its own has (its exit status as the shell sees it, signals, a terminal or pipe as stdout, the
    interpreter's start-up) is tested with `run_process`. Nothing the command changes outlives
    the call: the working folder, the environment, logging handlers and signal handlers are put
    back as they were, and a thread it leaves running fails the test.
    """
    from generator.cli import cli as command  # imported on first use, as `python -m generator` does

    saved_cwd, saved_env, saved_tempdir = os.getcwd(), dict(os.environ), tempfile.tempdir
    saved_handlers = logging.root.handlers[:]
    saved_signals = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    threads = set(threading.enumerate())
    try:
        os.chdir(cwd)
        tempfile.tempdir = None  # read TMPDIR again, as a new process does
        env = _with_installed_maps(env)
        result = _RUNNER.invoke(
            command, list(args), env=env, prog_name=PROG_NAME, terminal_width=_help_width({**os.environ, **env})
        )
    finally:
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        tempfile.tempdir = saved_tempdir
        logging.root.handlers[:] = saved_handlers
        for number, handler in saved_signals.items():
            signal.signal(number, handler)
    for thread in set(threading.enumerate()) - threads:
        thread.join(timeout=10)
        assert not thread.is_alive(), f"{' '.join(args)} left a thread running: {thread.name}"
    err = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        # What the interpreter would print for an exception that escapes the command.
        err += "".join(traceback.format_exception(result.exception))
    return Result(result.exit_code, result.stdout, err)


_RUNNER = CliRunner()


def run_process(*args: str, cwd: Path, env: dict[str, str] | None = None) -> Result:
    """Run `python -m generator` in a process of its own, for what only a process shows (see run_cli)."""
    proc = subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **_with_installed_maps(env)},
    )
    return Result(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def cli() -> Callable[..., Result]:
    return run_cli


# Two seeded games of each variant: what every test of `every_variant_checked` reads.
CHECK_SEEDS = (11, 12)


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


CHECK_GROUP = "every-variant-checked"


def write_tree(base: Path, files: dict[str, str]) -> Path:
    """Create files from {relative path: dedented text}; returns `base`."""
    for rel, text in files.items():
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return base


@cache
def variant_spec(name: str) -> Spec:
    """A variant of rules/, loaded and checked as `build` does (the test fails with its problems)."""
    loaded, problems = check_variant(Rules(ROOT / "rules", "rules"), name)
    assert loaded is not None, problems
    return loaded.spec


@cache
def variant_target(name: str) -> str | None:
    """A variant's `game.target` (None: both engines), read from its resolved files without checking
    them: what a test module needs to choose its tests at collection, for a tenth of variant_spec."""
    resolved, problems = resolve(Rules(ROOT / "rules", "rules"), name)
    assert resolved is not None, problems
    game = resolved.tree.get("game")
    target = game.get("target") if isinstance(game, dict) else None
    return str(target) if target is not None else None


def built_game(name: str) -> ET.Element:
    """The root of a variant's committed game XML (output/games/NAME.xml), parsed afresh."""
    return ET.parse(ROOT / "output" / "games" / f"{name}.xml").getroot()


def attachment_options(root: ET.Element, attach_to: str, java_class_end: str) -> dict[str, str]:
    """name -> value of every option of the built attachments of one class on one owner."""
    found: dict[str, str] = {}
    for att in root.iter("attachment"):
        if att.get("attachTo") == attach_to and (att.get("javaClass") or "").endswith(java_class_end):
            found.update({str(o.get("name")): str(o.get("value")) for o in att.iter("option")})
    return found
