"""The wheel carries everything the installed tool needs: templates, the Java harness and client driver."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from tests.conftest import ROOT


def test_wheel_contains_templates_and_harness(tmp_path: Path) -> None:
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    (wheel,) = tmp_path.glob("triplea_forge-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for template in sorted(p.name for p in (ROOT / "templates").glob("*.j2")):
        assert f"generator/_templates/{template}" in names
    for source in sorted(p.name for p in (ROOT / "generator" / "engine" / "java").glob("*.java")):
        assert f"generator/engine/java/{source}" in names
    assert "generator/engine/client/ForgeClient.java" in names  # the driver of `play`
    assert "generator/cli/__init__.py" in names
    # The shipped variants, so a mod repository of its own can extend them.
    for spec in sorted((ROOT / "rules").glob("*/*.yaml")):
        assert f"generator/_rules/{spec.parent.name}/{spec.name}" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "triplea-forge = generator.cli:cli" in zipfile.ZipFile(wheel).read(entry_points).decode()
