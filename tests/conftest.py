"""Shared test helpers: repo paths, running the real CLI, building fixture rule folders inline."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from generator.emit.build import load_spec
from generator.spec.model import Spec
from generator.spec.resolve import Rules

ROOT = Path(__file__).resolve().parents[1]
# Reference material the tests read, kept in the repository (see tests/data/README.md).
DATA = ROOT / "tests" / "data"
BASE_MAP = DATA / "world_war_ii_revised"
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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if ENGINE_JAR.is_file():
        return
    skip = pytest.mark.skip(reason=f"TripleA engine not installed ({ENGINE_JAR}); apt-get install triplea")
    for item in items:
        if "engine" in item.keywords:
            item.add_marker(skip)


@dataclass
class Result:
    code: int
    out: str
    err: str


def run_cli(*args: str, cwd: Path, env: dict[str, str] | None = None) -> Result:
    """Run `triplea-forge` as a user does: a separate process, real files (`env`: variables to set)."""
    env = env or {}
    if "HOME" not in env and "TRIPLEA_MAPS" not in env:
        # As a player who has the tiny fixture's map installed: the tiny variants are checked
        # against its board (a test that wants no map installed gives a HOME of its own).
        env = {**env, "TRIPLEA_MAPS": str(FIXTURE_MAPS)}
    proc = subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **env},
    )
    return Result(proc.returncode, proc.stdout, proc.stderr)


@pytest.fixture
def cli() -> Callable[..., Result]:
    return run_cli


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
    loaded, problems = load_spec(Rules(ROOT / "rules", "rules"), name)
    assert loaded is not None, problems
    return loaded.spec


def attachment_options(root: ET.Element, attach_to: str, java_class_end: str) -> dict[str, str]:
    """name -> value of every option of the built attachments of one class on one owner."""
    found: dict[str, str] = {}
    for att in root.iter("attachment"):
        if att.get("attachTo") == attach_to and (att.get("javaClass") or "").endswith(java_class_end):
            found.update({str(o.get("name")): str(o.get("value")) for o in att.iter("option")})
    return found
