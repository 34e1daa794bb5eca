"""Shared test helpers: repo paths, running the real CLI, building fixture rule folders inline.

Test modules, in whichever sub-package of tests/, import these from here (`from tests.helpers
import ROOT, run_cli`), never from conftest.py: conftest.py holds only the fixtures and hooks pytest
finds by itself, and which module name pytest gives it depends on its import mode (before tests/
was a package, `conftest`, so that an import of `tests.conftest` loaded it a second time).
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import traceback
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from click.testing import CliRunner
from hypothesis import settings

from generator.checks.variant import check_variant
from generator.paths import engine_jar
from generator.spec.model import Spec
from generator.spec.resolve import Rules, resolve

ROOT = Path(__file__).resolve().parents[1]
TESTS = ROOT / "tests"
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
ENGINE_JAR = engine_jar()  # as every command finds it: $TRIPLEA_JAR, else Debian's

# The `-m` of pyproject.toml's addopts: a run given no `-m` of its own is the fast lane (conftest.py).
DEFAULT_MARKEXPR = "not mutation"

# The modules whose tests take longest (engine games, the GUI client, the fuzz test, fresh venvs),
# slowest first, as paths under tests/: conftest.py runs them first, so that the workers' queues
# end with short tests and neither waits alone on a long one at the end. A module stays whole (its
# module-scoped fixtures are made once). tests/project/test_project.py holds that each one exists.
SLOW_MODULES = (
    "engine/test_rules_policy.py",
    "cli/test_fuzz.py",
    "release/test_gui.py",
    "engine/test_check.py",
    "release/test_mod_repository.py",
    "balance/test_balance.py",
    "release/test_mod_ci.py",
    "release/test_mod_pin.py",
    "release/test_site_ci.py",
    "importer/test_roundtrip.py",
    "project/test_bench.py",
    "checks/test_engine_checks.py",
    "release/test_package.py",
    "cli/test_hardening_inputs.py",
    "checks/test_validate.py",
)

# Hypothesis profiles: "ci" (`--with-slow`, what CI runs) tries each property as many times as the
# test asks; "dev" (the default `pytest`, the edit loop) a tenth of that. A test states its full
# count through `examples`.
settings.register_profile("ci", max_examples=100)
settings.register_profile("dev", max_examples=10)
DEV_SHARE = 10


def examples(full: int) -> int:
    """How many examples a property test tries: `full` in CI, a tenth (at least 10) otherwise."""
    return full if settings.get_current_profile_name() == "ci" else max(10, full // DEV_SHARE)


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


# Two seeded games of each variant: what every test of the `every_variant_checked` fixture reads.
CHECK_SEEDS = (11, 12)
# The tests of several modules that read that one run are marked `xdist_group(CHECK_GROUP)`, so
# one worker plays it (see conftest.py).
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
