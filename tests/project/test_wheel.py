"""The wheel carries everything the installed tool needs: templates, the Java harness and client
driver; the release workflow builds it, and it builds every shipped variant once installed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
import yaml

from tests.helpers import ROOT, USER_PIP_CACHE


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
    # Their proofs (rules/<variant>/proofs/), which the harness compiles wherever the tool is installed.
    for proof in sorted((ROOT / "rules").glob("*/proofs/*")):
        assert f"generator/_rules/{proof.parent.parent.name}/proofs/{proof.name}" in names
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "triplea-forge = generator.cli:cli" in zipfile.ZipFile(wheel).read(entry_points).decode()


def _workspace(target: Path) -> Path:
    """This checkout as a runner checks it out, with the changes not yet committed (the code under test)."""
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "-z", "-co", "--exclude-standard"], capture_output=True, check=True
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


@pytest.mark.engine  # its first step installs Debian's TripleA, as the release job does
def test_the_release_workflow_builds_a_wheel_that_builds_every_shipped_variant(tmp_path: Path) -> None:
    """The build job of .github/workflows/release.yml, its steps run as GitHub's runner runs them
    (the `uses:` steps left out) on a copy of this checkout: the sdist and the wheel are built, the
    wheel installed in a fresh venv builds every shipped variant as output/ holds it. Installed
    from an index (a find-links folder: pip records no direct URL), `new` pins that version."""
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "release.yml").read_text(encoding="utf-8"))
    assert workflow[True] == {"push": {"tags": ["v*"]}}  # PyYAML reads the key `on` as True
    assert workflow["jobs"]["publish"]["permissions"] == {"id-token": "write", "contents": "write"}
    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    workspace, runner = _workspace(tmp_path / "workspace"), tmp_path / "runner"
    runner.mkdir()
    env = {
        **os.environ, "GITHUB_REF_NAME": f"v{version}", "GITHUB_WORKSPACE": str(workspace), "RUNNER_TEMP": str(runner),
        "DEBIAN_FRONTEND": "noninteractive", "PIP_CACHE_DIR": USER_PIP_CACHE,
    }  # fmt: skip
    ran = []
    for step in workflow["jobs"]["build"]["steps"]:
        if "run" not in step:
            continue
        proc = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=workspace, env=env, capture_output=True, text=True, timeout=1200,
        )  # fmt: skip
        assert proc.returncode == 0, f"{step['name']}:\n{proc.stdout}\n{proc.stderr}"
        ran.append(step["name"])
    assert ran[-1] == "The wheel installs in a fresh venv and builds every shipped variant as output/ holds it"
    assert sorted(p.name for p in (workspace / "dist").iterdir()) == [
        f"triplea_forge-{version}-py3-none-any.whl", f"triplea_forge-{version}.tar.gz"
    ]  # fmt: skip
    # A wrong tag stops the release before anything is built.
    wrong = subprocess.run(
        ["bash", "-eo", "pipefail", "-c", workflow["jobs"]["build"]["steps"][2]["run"]],
        cwd=workspace, env={**env, "GITHUB_REF_NAME": "v9.9"}, capture_output=True, text=True,
    )  # fmt: skip
    assert wrong.returncode == 1
    assert wrong.stderr == f"the tag v9.9 is not v{version}, the version in pyproject.toml\n"
    # As from an index: no direct_url.json, so a new mod pins this version.
    venv = runner / "wheel" / "bin"
    subprocess.run(
        [str(venv / "pip"), "install", "-q", "--force-reinstall", "--no-deps", "--no-index", "--find-links",
         str(workspace / "dist"), f"triplea-forge=={version}"], check=True, env=env,
    )  # fmt: skip
    made = subprocess.run(
        [str(venv / "triplea-forge"), "new", "mymod", "--in", "mymod"], cwd=tmp_path, capture_output=True, text=True
    )
    assert made.returncode == 0, made.stderr
    assert made.stderr == ""  # no note: an index is what every machine reaches
    pin = (tmp_path / "mymod" / "requirements.txt").read_text(encoding="utf-8").splitlines()[-1]
    assert pin == f"triplea-forge=={version}"
