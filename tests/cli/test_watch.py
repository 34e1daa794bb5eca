"""`watch`: every save rebuilt and re-checked in a warm process, through the real command."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

from tests.helpers import ROOT, write_tree


def _watch(project: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "generator", "watch", *args, "--stop-after", "2"],
        cwd=project, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip


def _wait_for(proc: subprocess.Popen[str], text: str, seen: list[str]) -> None:
    assert proc.stdout is not None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line.rstrip("\n"))
        if text in line:
            return
    raise AssertionError(f"never printed {text!r}:\n" + "\n".join(seen))


def test_each_save_is_rebuilt_with_its_problems_or_its_rule_changes(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "tests" / "fixtures" / "tiny", tmp_path / "rules" / "tiny")
    write_tree(tmp_path, {"rules/other/game.yaml": "extends: tiny\ngame: {name: Other}\n"})
    spec = tmp_path / "rules" / "tiny" / "game.yaml"
    proc = _watch(tmp_path)
    seen: list[str] = []
    try:
        _wait_for(proc, "other: built in", seen)
        # A save that breaks the game: its problem, located; the variant extending it too.
        spec.write_text(spec.read_text().replace("attack: 1,", "attack: x,"), encoding="utf-8")
        _wait_for(proc, "tiny: 1 error", seen)
        _wait_for(proc, "'x' is not an integer", seen)
        # The repair: built again, with what changed since the last good build.
        spec.write_text(spec.read_text().replace("attack: x,", "attack: 2,"), encoding="utf-8")
        _wait_for(proc, "tiny: built in", seen)
        proc.wait(timeout=60)
    finally:
        proc.kill()
    text = "\n".join(seen)
    assert "rules/tiny/game.yaml:9:27: units.infantry.attack: 'x' is not an integer" in text, text
    assert "other: 1 error" in text  # it extends tiny, so it was rebuilt too
    assert "tiny: built in" in text and "infantry: attack 1 \u2192 2" in text
    assert b'<option name="attack" value="2"/>' in (tmp_path / "output" / "games" / "tiny.xml").read_bytes()
