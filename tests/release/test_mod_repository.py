"""A mod repository of its own, as a new user starts one: `new`, then its CI, run here.

`new mymod --in DIR` scaffolds the repository; it builds, checks and packages from its own
folder (extending the variants triplea-forge ships, nothing copied). The generated workflow's
`run:` steps of the check job are then run, in order, in a fresh clone of that repository, as
GitHub's runner runs them (bash -eo pipefail, GITHUB_PATH read between steps, the pull request's
summary step with a base branch). Only the steps that prepare GitHub's caches are left out.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from markdown_it import MarkdownIt

from tests.helpers import BASE_MAP, run_cli
from tests.map_server import serving_maps

pytestmark = pytest.mark.engine


def _git(folder: Path, *args: str) -> None:
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@t"}  # fmt: skip
    subprocess.run(["git", "-C", str(folder), *args], check=True, capture_output=True, env=env)


@pytest.fixture(scope="module")
def mod(tmp_path_factory: pytest.TempPathFactory) -> Path:
    top = tmp_path_factory.mktemp("mod")
    # Pinned to this working tree by default (its revision in the pin), so the test installs exactly
    # the code under test, not a wheel pip kept from an older one.
    result = run_cli("new", "mymod", "--in", "mod", cwd=top)
    assert result.code == 0, result.err
    return top / "mod"


def test_new_makes_a_repository_that_builds_checks_and_packages_on_its_own(mod: Path) -> None:
    names = sorted(p.relative_to(mod).as_posix() for p in mod.rglob("*") if p.is_file() and ".git" not in p.parts)
    assert names == [
        ".github/workflows/triplea-forge.yml", ".gitignore", "README.md", "output/games/mymod.notes.html",
        "output/games/mymod.xml", "output/map.yml", "requirements.txt", "rules/mymod/game.yaml", "spec.schema.json",
    ]  # fmt: skip
    spec = (mod / "rules" / "mymod" / "game.yaml").read_text(encoding="utf-8")
    assert "extends: lhtr\n" in spec and "map: mymod" in spec
    built = run_cli("build", cwd=mod)
    assert built.code == 0, built.err
    assert sorted(p.name for p in (mod / "output" / "games").iterdir()) == ["mymod.notes.html", "mymod.xml"]
    checked = run_cli("check", "--rounds", "0", cwd=mod)
    assert checked.code == 0, checked.out + checked.err
    packaged = run_cli("package", "--base-map", str(BASE_MAP), "--out", "dist", cwd=mod)
    assert packaged.code == 0, packaged.err
    assert (mod / "dist" / "mymod-master.zip").is_file()
    assert (mod / "dist" / "mymod" / "map" / "games" / "mymod.xml").is_file()


def test_the_workflow_runs_in_a_fresh_clone(mod: Path, tmp_path: Path) -> None:
    assert run_cli("build", cwd=mod).code == 0
    _git(mod, "branch", "-M", "main")  # `new` made the repository and its first commit, output/ built
    assert subprocess.run(["git", "-C", str(mod), "status", "--porcelain"], capture_output=True, text=True).stdout == ""
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(mod), str(clone)], check=True)
    # The pull request: seven production rules repriced, committed with its output on a branch.
    _git(clone, "checkout", "-q", "-b", "cheaper")
    game = clone / "rules" / "mymod" / "game.yaml"
    spec = yaml.safe_load(game.read_text(encoding="utf-8"))
    units = ("Infantry", "Artillery", "Armour", "Fighter", "Bomber", "Transport", "Submarine")
    spec["production_rules"] = {f"buy{unit}": {"cost": {"PUs": 2}} for unit in units}
    game.write_text(yaml.safe_dump(spec, sort_keys=False), encoding="utf-8")
    assert run_cli("build", cwd=clone).code == 0
    _git(clone, "commit", "-q", "-am", "cheaper")
    workflow = yaml.safe_load((mod / ".github" / "workflows" / "triplea-forge.yml").read_text(encoding="utf-8"))
    assert workflow["permissions"] == {"contents": "read"}
    assert workflow["jobs"]["release"]["permissions"] == {"contents": "write"}
    github_path, summary = tmp_path / "github_path", tmp_path / "summary.md"
    github_path.touch()
    env = {
        **os.environ, "GITHUB_PATH": str(github_path), "GITHUB_STEP_SUMMARY": str(summary),
        "GITHUB_WORKSPACE": str(clone), "RUNNER_TEMP": str(tmp_path), "DEBIAN_FRONTEND": "noninteractive",
        "TRIPLEA_MAPS": str(tmp_path / "maps"),  # the runner's own, where its `map get` step installs
    }  # fmt: skip
    ran = []
    with serving_maps({"World War II Revised": BASE_MAP}) as index:  # the map index, on 127.0.0.1
        env["TRIPLEA_MAP_INDEX"] = index
        for step in workflow["jobs"]["check"]["steps"]:
            if "run" not in step or step.get("id", "").startswith("cache-"):
                continue
            if step.get("if") == "github.event_name == 'pull_request'":
                env["BASE_REF"] = "main"  # as a pull request against main
            step_env = {k: re.sub(r"\$\{\{.*?\}\}", "main", str(v)) for k, v in step.get("env", {}).items()}
            path = [line for line in github_path.read_text().splitlines() if line]
            env_now = {**env, **step_env, "PATH": os.pathsep.join([*reversed(path), os.environ["PATH"]])}
            proc = subprocess.run(
                ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                cwd=clone, env=env_now, capture_output=True, text=True, timeout=1200,
            )  # fmt: skip
            assert proc.returncode == 0, f"step {step.get('name', step['run'][:40])!r}:\n{proc.stdout}\n{proc.stderr}"
            ran.append(step.get("name", step["run"]))
    assert (tmp_path / "maps" / "world_war_ii_revised" / "map" / "polygons.txt").is_file()
    assert "Games play in the real engine" in ran and "Rule changes against the base branch" in ran
    text = summary.read_text(encoding="utf-8")
    head = "## Rule changes against main\n### triplea-forge diff: `mymod@origin/main` → `mymod (working tree)`"
    assert text.startswith(head)
    # GitHub renders the summary as Markdown: the seven changes fold under one summary line and
    # each is a list item (a fold without its blank line would show them as raw text).
    assert "<details><summary>7 production rules: 7 changed</summary>\n\n" in text
    html = MarkdownIt("commonmark").render(text)
    assert html.count("<li>") == 8 and "<li>7 production rules changed cost\n<ul>" in html
    assert all(re.search(f"<li>buy{unit} \\d+ PUs → 2 PUs</li>", html) for unit in units)
