"""Project hygiene that CI enforces: the README's commands (lint and types are CI's steps), a standalone repository."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
import yaml

from tests.helpers import DEFAULT_MARKEXPR, ROOT, SLOW_MODULES, TESTS


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


LINT_STEPS = [".venv/bin/ruff check .", ".venv/bin/ruff format --check .", ".venv/bin/mypy"]


def test_the_test_command_checks_lint_and_types_then_runs_the_suite_on_every_core() -> None:
    """ruff and mypy (strict) are CI's steps, before the suite, not tests inside it; then the
    mutation sweep of the stale variants, whose records the suite checks; then every test, the
    slow ones too (plain `pytest` is the fast lane, tests/conftest.py)."""
    steps = _readme_commands()[1].split(" && ")
    assert steps[-5:] == [*LINT_STEPS, "bash scripts/sweep-stale", ".venv/bin/python -m pytest -n auto --with-slow"]


def test_ci_runs_the_readme_test_command_exactly() -> None:
    """The command is written once, in the README: .ci/run reads it there, the contributing page
    points at it without a copy."""
    test_command = _readme_commands()[1]
    shown = subprocess.run(["bash", ".ci/run", "--print"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert shown.stdout == test_command + "\n"
    assert test_command not in (ROOT / ".ci" / "run").read_text()
    contributing = (ROOT / "docs" / "contributing.md").read_text()
    assert test_command not in contributing and "bash .ci/run --print" in contributing


def test_pre_commit_runs_cis_lint_and_type_checks() -> None:
    """Each hook is one of the test command's lint steps, with the project's own tools."""
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text(encoding="utf-8"))
    hooks = [hook for repo in config["repos"] for hook in repo["hooks"]]
    assert [hook["entry"] for hook in hooks] == LINT_STEPS
    assert all(hook["language"] == "system" and hook["pass_filenames"] is False for hook in hooks)
    assert "docs/contributing.md" in (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")


def test_the_fast_lanes_default_is_pyprojects() -> None:
    """A run without a `-m` of its own is the fast lane (tests/conftest.py): the default it
    compares with is the `-m` of pyproject.toml's addopts."""
    addopts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert f"-m '{DEFAULT_MARKEXPR}'" in addopts["addopts"]


BUILD_TESTS = "tests/emit/test_build.py"


def _collected(*args: str, module: str = BUILD_TESTS) -> set[str]:
    """The test names `pytest ARGS MODULE` would run (by default a module with engine and slow tests)."""
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args, module],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return {line.split("::", 1)[1] for line in proc.stdout.splitlines() if "::" in line}


def test_the_fast_lane_leaves_out_the_engine_and_slow_tests_and_with_slow_runs_them() -> None:
    fast, everything, engine = _collected(), _collected("--with-slow"), _collected("-m", "engine")
    assert "test_committed_output_is_current" in fast
    assert "test_jobs_change_nothing_but_the_time" not in fast  # slow
    assert "test_generated_xml_is_dtd_clean" not in fast  # engine
    left_out = {"test_jobs_change_nothing_but_the_time", "test_generated_xml_is_dtd_clean"}
    assert fast < everything and left_out <= everything
    assert engine == {"test_generated_xml_is_dtd_clean", "test_dtd_messages_are_errors"}  # a -m of one's own


def test_the_fast_lane_reads_marks_not_the_folder_a_test_is_in() -> None:
    """tests/engine/ holds tests that need no engine: the package's name is one of their keywords,
    never a mark, and the fast lane runs them."""
    operators = "tests/engine/test_mutation_operators.py"
    assert _collected(module=operators) == _collected("--with-slow", module=operators) != set()


def test_no_test_module_imports_conftest() -> None:
    """Helpers come from tests/helpers.py, in every sub-package of tests/: conftest.py is pytest's
    (fixtures and hooks), and the module name pytest gives it depends on its import mode."""
    importing = [
        path.relative_to(ROOT).as_posix()
        for path in sorted((ROOT / "tests").rglob("*.py"))
        if re.search(r"^from tests\.conftest import|^import tests\.conftest", path.read_text(encoding="utf-8"), re.M)
    ]
    assert importing == []


def test_the_slow_modules_run_first_are_test_modules() -> None:
    """conftest.py orders the run by SLOW_MODULES' paths: a module moved or renamed without it would
    quietly lose its place at the front of the queue."""
    assert [name for name in SLOW_MODULES if not (TESTS / name).is_file()] == []
    assert all(name.rsplit("/", 1)[-1].startswith("test_") for name in SLOW_MODULES)


def test_every_test_module_is_in_a_package() -> None:
    """tests/ is grouped as the package is (docs/contributing.md): every folder holding test modules
    is a package, so a module's name is its path (`tests.cli.test_fuzz`) and it is loaded once."""
    folders = {path.parent for path in TESTS.rglob("test_*.py")}
    assert [str(folder.relative_to(ROOT)) for folder in sorted(folders) if not (folder / "__init__.py").is_file()] == []


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
