"""Project hygiene that CI enforces: the README's commands, lint and types."""

from __future__ import annotations

import re
import subprocess
import sys

from tests.conftest import ROOT


def _readme_commands() -> list[str]:
    return re.findall(r"```sh\n(.+?)\n```", (ROOT / "README.md").read_text())


def test_readme_opens_with_two_commands() -> None:
    build, test = _readme_commands()[:2]
    assert build.endswith("triplea-forge build") and "apt-get install -y triplea" in build
    assert test.endswith("python3 -m pytest") and "'.[test]'" in test


def test_ci_runs_the_readme_test_command_exactly() -> None:
    test_command = _readme_commands()[1]
    ci_lines = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test_command in ci_lines


def test_ruff_clean() -> None:
    for check in (["check"], ["format", "--check"]):
        result = subprocess.run([sys.executable, "-m", "ruff", *check, "."], cwd=ROOT, capture_output=True, text=True)
        assert result.returncode == 0, result.stdout


def test_mypy_clean() -> None:
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout
