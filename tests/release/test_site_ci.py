"""The generated CI publishes the variants' pages: a pages job on the default branch, whose steps build the site.

A fresh `new --in` mod's workflow has the job GitHub Pages needs (its permissions, its environment,
upload-pages-artifact and deploy-pages); its steps run as GitHub's runner runs them (bash -eo pipefail,
GITHUB_PATH read between steps), its pin installed from this checkout and its base map from a map index
served on 127.0.0.1, and they build the site the upload step publishes.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.helpers import BASE_MAP, USER_PIP_CACHE, run_cli
from tests.map_server import serving_maps

pytestmark = pytest.mark.slow  # a fresh venv, as a mod's CI job makes one

ON_DEFAULT_BRANCH = "github.event_name == 'push' && github.ref_name == github.event.repository.default_branch"
# Steps left out here: apt-get (this machine has TripleA and a JDK: the README's set-up) and the
# engine's games (the check job's step, played in test_mod_repository).
LEFT_OUT = ("Install TripleA (the engine and its stock unit pictures), a JDK and git",
            "Games play, so the pages say what each rule did in them")  # fmt: skip


def _run_job(
    job: dict[str, Any], mod: Path, runner: Path, index: str
) -> tuple[list[str], subprocess.CompletedProcess[str]]:
    """The job's `run:` steps in order, but LEFT_OUT, until one fails; the steps run and the last result."""
    runner.mkdir()
    github_path = runner / "github_path"
    github_path.write_text("")
    env = {
        **os.environ, "GITHUB_PATH": str(github_path), "GITHUB_WORKSPACE": str(mod), "RUNNER_TEMP": str(runner),
        "TRIPLEA_MAP_INDEX": index, "TRIPLEA_MAPS": str(runner / "maps"), "XDG_CACHE_HOME": str(runner / "cache"),
        "PIP_CACHE_DIR": USER_PIP_CACHE,
    }  # fmt: skip
    ran: list[str] = []
    proc = subprocess.CompletedProcess[str]([], 0, "", "")
    for step in job["steps"]:
        if "run" not in step or step.get("name") in LEFT_OUT:
            continue
        path = [line for line in github_path.read_text().splitlines() if line]
        proc = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=mod, capture_output=True, text=True, timeout=900,
            env={**env, "PATH": os.pathsep.join([*reversed(path), os.environ["PATH"]])},
        )  # fmt: skip
        ran.append(step["name"])
        if proc.returncode != 0:
            break
    return ran, proc


def test_a_new_mods_workflow_publishes_its_pages_built_by_its_steps(tmp_path: Path) -> None:
    assert run_cli("new", "mymod", "--in", "mod", cwd=tmp_path).code == 0
    mod = tmp_path / "mod"
    workflow = yaml.safe_load((mod / ".github" / "workflows" / "triplea-forge.yml").read_text(encoding="utf-8"))
    job = workflow["jobs"]["pages"]
    assert (job["if"], job["needs"]) == (ON_DEFAULT_BRANCH, "check")
    assert job["permissions"] == {"contents": "read", "pages": "write", "id-token": "write"}
    assert job["environment"] == {"name": "github-pages", "url": "${{ steps.deployment.outputs.page_url }}"}
    uses = {step["uses"]: step for step in job["steps"] if "uses" in step}
    assert list(uses) == ["actions/checkout@v4", "actions/upload-pages-artifact@v3", "actions/deploy-pages@v4"]
    assert uses["actions/upload-pages-artifact@v3"]["with"] == {"path": "site"}
    assert uses["actions/deploy-pages@v4"]["id"] == "deployment"
    assert "/site/" in (mod / ".gitignore").read_text(encoding="utf-8").splitlines()  # never committed by mistake
    with serving_maps({"World War II Revised": BASE_MAP}) as index:
        ran, proc = _run_job(job, mod, tmp_path / "runner", index)
    assert proc.returncode == 0, f"{ran[-1]}:\n{proc.stdout}\n{proc.stderr}"
    assert ran == ["Install triplea-forge from requirements.txt",
                   "Base map, for the board and the unit pictures the pages show", "Build the site"]  # fmt: skip
    assert re.match(r"site/mymod/: \d+ files, [\d.]+ [kM]B$", proc.stdout.splitlines()[0]), proc.stdout
    page = (mod / "site" / "mymod" / "index.html").read_text(encoding="utf-8")
    assert 'src="board.png"' in page and 'data-name="Germany"' in page  # the board, with its territories
    assert 'href="mymod/index.html"' in (mod / "site" / "index.html").read_text(encoding="utf-8")
