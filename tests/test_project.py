"""Project hygiene that CI enforces: the README's commands (lint and types are CI's steps), a standalone repository."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from tests.conftest import ROOT


def _readme_commands() -> list[str]:
    return re.findall(r"```sh\n(.+?)\n```", (ROOT / "README.md").read_text())


def test_readme_opens_with_two_commands() -> None:
    """Both work with Debian's own Python (a virtual environment) and bring javac for `check`."""
    build, test = _readme_commands()[:2]
    assert build.endswith(".venv/bin/triplea-forge build") and "apt-get install -y triplea " in build
    assert "'.[test,cluster,docs]'" in test and " chromium " in test
    for command in (build, test):
        assert "python3 -m venv .venv" in command and "default-jdk-headless" in command
        assert "python3 -m pip" not in command  # refused by Debian's Python (externally managed)


def test_the_test_command_checks_lint_and_types_then_runs_the_suite_on_every_core() -> None:
    """ruff and mypy (strict) are CI's steps, before the suite, not tests inside it; then the
    mutation sweep of the stale variants, whose records the suite checks."""
    steps = _readme_commands()[1].split(" && ")
    assert steps[-5:] == [
        ".venv/bin/ruff check .",
        ".venv/bin/ruff format --check .",
        ".venv/bin/mypy",
        "bash scripts/sweep-stale",
        ".venv/bin/python -m pytest -n auto",
    ]


def test_ci_runs_the_readme_test_command_exactly() -> None:
    test_command = _readme_commands()[1]
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test_command in ci_lines
    # The docs' contributing page gives the same command.
    contributing = re.findall(r"```sh\n(.+?)\n```", (ROOT / "docs" / "contributing.md").read_text())
    assert test_command in contributing


def test_the_repository_stands_alone() -> None:
    """No code, test, bench or script reads anything beside the repository (such as ../shared)."""
    outside = re.compile(r"""(?i)\b(?:root|ROOT|HERE)\.parent\b|\.\./shared|["']shared["']""")
    offenders = []
    for folder in ("generator", "tests", "bench", "scripts"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            if path == Path(__file__).resolve():
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                if outside.search(line):
                    offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert offenders == []
    for needed in ("tests/data/world_war_ii_revised/map/polygons.txt", "tests/data/xml/ww2v2.xml", "LICENSE"):
        assert (ROOT / needed).is_file(), needed


def test_every_module_reads_in_the_system_python() -> None:
    """A mod's CI installs triplea-forge into Debian's own Python (3.11): syntax newer than that
    (an f-string nested in quotes of its own kind, 3.12) fails there on import."""
    system = Path("/usr/bin/python3")
    if not system.is_file():
        pytest.skip("no system Python at /usr/bin/python3")
    files = [str(p) for folder in ("generator", "bench", "scripts") for p in sorted((ROOT / folder).rglob("*.py"))]
    script = "import ast, sys\nfor f in sys.argv[1:]:\n    ast.parse(open(f, encoding='utf-8').read(), f)\n"
    done = subprocess.run([str(system), "-c", script, *files], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
