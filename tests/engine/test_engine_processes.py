"""The engine's JVMs do not outlive what started them, nor hang a batch: a process that goes quiet
is stopped with what it printed kept, and a JVM whose parent is killed stops by itself."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.engine import scenario
from generator.engine.harness import find_engine
from generator.engine.sandbox import WentQuiet, run_group
from generator.engine.scenario import run_scenarios
from tests.helpers import ROOT


def test_a_process_that_goes_quiet_is_stopped_with_its_output_kept() -> None:
    script = "import sys, time; print('first result', flush=True); time.sleep(60); print('never')"
    started = time.monotonic()
    with pytest.raises(WentQuiet) as stopped:
        run_group([sys.executable, "-c", script], 120, idle_timeout=2)
    assert time.monotonic() - started < 30
    assert stopped.value.output == "first result\n"


def test_a_process_that_keeps_reporting_runs_to_its_end() -> None:
    script = "import time\nfor i in range(4):\n    print(i, flush=True)\n    time.sleep(0.7)"
    done = run_group([sys.executable, "-c", script], 120, idle_timeout=2)
    assert (done.returncode, done.stdout) == (0, "0\n1\n2\n3\n")


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.engine
def test_a_scenario_jvm_stops_when_the_process_that_started_it_is_killed(tmp_path: Path) -> None:
    """The JVM runs in a session of its own (so a timeout kills its whole group): without a watch on
    its parent, a killed test run left it playing for an hour."""
    game = ROOT / "output" / "games" / "aarhe.xml"
    listing = tmp_path / "runs.tsv"
    listing.write_text(f"convoy-zones\t{game}\n" * 20, encoding="utf-8")
    starter = (
        "import sys\nfrom generator.engine.harness import find_engine\n"
        "find_engine().run(['--batch', sys.argv[1]], main_class='forge.Scenario', timeout=900)"
    )
    parent = subprocess.Popen([sys.executable, "-c", starter, str(listing)], cwd=ROOT)
    try:
        deadline = time.monotonic() + 120
        while not (jvms := _children(parent.pid)) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert jvms, "the JVM did not start"
        time.sleep(3)  # past the JVM's start, into the runs
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 20
        while any(_alive(pid) for pid in jvms) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not any(_alive(pid) for pid in jvms), "the JVM outlived the process that started it"
    finally:
        if parent.poll() is None:
            parent.kill()
        for pid in _children(parent.pid):
            os.kill(pid, signal.SIGKILL)


SCENARIO_RUNS = [("victory", "aare"), ("prices", "aare"), ("expansion-turn", "expansion"), ("treaty", "aare")]


@pytest.mark.engine
def test_runs_dealt_to_jvms_side_by_side_report_what_one_jvm_reports() -> None:
    runs = [(name, ROOT / "output" / "games" / f"{variant}.xml") for name, variant in SCENARIO_RUNS]
    alone = run_scenarios(runs)
    assert all("error" not in facts for facts in alone)
    assert run_scenarios(runs, jobs=3) == alone


@pytest.mark.engine
def test_a_batch_whose_jvm_goes_quiet_loses_one_run_and_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first JVM prints nothing (as one stuck in an endless battle does): it is stopped, its
    run is an error, and a new JVM plays the others."""
    real = shutil.which("java")
    assert real is not None and shutil.which("javac") is not None
    home = tmp_path / "jdk"
    (home / "bin").mkdir(parents=True)
    marker = tmp_path / "stuck-once"
    java = home / "bin" / "java"
    stuck_once = f'if [ ! -e "{marker}" ]; then touch "{marker}"; exec sleep 600; fi'
    java.write_text(f'#!/bin/sh\n{stuck_once}\nexec "{real}" "$@"\n')
    java.chmod(0o755)
    (home / "bin" / "javac").symlink_to(str(shutil.which("javac")))
    monkeypatch.setenv("JAVA_HOME", str(home))
    monkeypatch.setattr(scenario, "RUN_TIMEOUT", 3.0)
    runs = [(name, ROOT / "output" / "games" / f"{variant}.xml") for name, variant in SCENARIO_RUNS]
    started = time.monotonic()
    played = run_scenarios(runs, engine=find_engine())
    assert time.monotonic() - started < 120
    assert played[0] == {"error": "the engine stopped: engine harness timed out with no output for 3 s: --batch "
                         + played[0]["error"].rsplit("--batch ", 1)[1]}  # fmt: skip
    assert played[1:] == run_scenarios(runs[1:])
