"""`new NAME --in FOLDER` as a new user runs it from a clone installed with Debian's Python.

The folder is a git repository with a first commit (the CI's diff and `diff --from` read its
history); its `requirements.txt` is a line Debian's pip 23 installs; the "next:" line works when
pasted into a shell as printed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from generator.release.repo.mod_repo import checkout_pin, https_url, installed_pin
from tests.helpers import BASE_MAP, ROOT, USER_PIP_CACHE, run_cli
from tests.map_server import serving_maps

PIN_NOTE = (
    f"note: requirements.txt installs triplea-forge from {ROOT}, which only this machine can reach; for CI, edit "
    "it or give --install 'triplea-forge @ git+https://...'"
)


def _home(tmp_path: Path, identity: bool) -> dict[str, str]:
    home = tmp_path / "home"
    home.mkdir()
    if identity:
        (home / ".gitconfig").write_text("[user]\n\tname = Mod Maker\n\temail = maker@example.org\n")
    return {"HOME": str(home), "GIT_CONFIG_NOSYSTEM": "1", "TRIPLEA_MAPS": str(tmp_path / "maps"),
            "PIP_CACHE_DIR": USER_PIP_CACHE}  # fmt: skip


def _git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(folder), *args], capture_output=True, text=True, check=True).stdout


def test_new_makes_a_git_repository_with_a_first_commit(tmp_path: Path) -> None:
    env = _home(tmp_path, identity=True)
    result = run_cli("new", "mymod", "--in", "mymod", cwd=tmp_path, env=env)
    assert result.code == 0, result.err
    assert result.err.splitlines() == [PIN_NOTE]
    mod = tmp_path / "mymod"
    assert _git(mod, "log", "--format=%an <%ae>|%s") == (
        "Mod Maker <maker@example.org>|mymod: a new mod extending lhtr (triplea-forge new)\n"
    )
    assert _git(mod, "status", "--porcelain") == ""  # every file written is in the commit
    assert sorted(_git(mod, "ls-files").split()) == [
        ".github/workflows/triplea-forge.yml", ".gitignore", "README.md", "output/games/mymod.notes.html",
        "output/games/mymod.xml", "output/map.yml", "requirements.txt", "rules/mymod/game.yaml", "spec.schema.json",
    ]  # fmt: skip


def test_without_a_git_identity_the_first_commit_is_made_and_said(tmp_path: Path) -> None:
    env = {**_home(tmp_path, identity=False), "GIT_AUTHOR_NAME": "", "GIT_COMMITTER_NAME": ""}
    env = {k: v for k, v in env.items() if v}
    clean = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "new", "mymod", "--in", "mymod"],
        cwd=tmp_path, env={**clean, **env}, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.splitlines() == [
        PIN_NOTE,
        "note: git has no user.email here: the first commit is made as triplea-forge <triplea-forge@localhost>; set "
        "yours with git config --global user.name/user.email",
    ]
    assert _git(tmp_path / "mymod", "log", "--format=%an <%ae>") == "triplea-forge <triplea-forge@localhost>\n"


def test_a_checkout_without_a_remote_is_pinned_by_a_file_url(tmp_path: Path) -> None:
    result = run_cli("new", "mymod", "--in", "mymod", cwd=tmp_path, env=_home(tmp_path, identity=True))
    assert result.code == 0, result.err
    pin = (tmp_path / "mymod" / "requirements.txt").read_text(encoding="utf-8").splitlines()[-1]
    # The revision in the query gives each state of the checkout a wheel of its own in pip's cache.
    commit = _git(ROOT, "rev-parse", "HEAD").strip()
    assert re.fullmatch(rf"triplea-forge @ file://{ROOT}\?rev={commit}(\.dirty-[0-9a-f]{{12}})?", pin), pin
    assert result.out.splitlines()[-1] == (
        "next: cd mymod && python3 -m venv .venv && .venv/bin/pip install -r requirements.txt "
        "&& .venv/bin/triplea-forge map get world_war_ii_revised && .venv/bin/triplea-forge build"
    )


@pytest.mark.parametrize(
    ("origin", "expected"),
    [
        ("https://github.com/me/triplea-forge.git", "https://github.com/me/triplea-forge.git"),
        ("git@github.com:me/triplea-forge.git", "https://github.com/me/triplea-forge.git"),
        ("ssh://git@github.com/me/triplea-forge", "https://github.com/me/triplea-forge"),
        ("ssh://git@example.org:2222/me/tf.git", "https://example.org/me/tf.git"),
        ("git://example.org/tf.git", "https://example.org/tf.git"),
        ("/srv/git/triplea-forge", None),
        ("../triplea-forge", None),
        ("file:///srv/git/triplea-forge", None),
    ],
)
def test_a_remote_is_pinned_by_the_https_url_ci_clones(origin: str, expected: str | None) -> None:
    assert https_url(origin) == expected


@pytest.mark.slow
def test_the_next_line_works_as_printed_with_the_venv_pip(tmp_path: Path) -> None:
    """The pin installs with the pip a fresh `python3 -m venv` has (Debian's 23.x here); the
    commands printed after "next:" install it, get the base map (from a local map index) and
    build; the new mod's validate then checks its board: a misspelled territory and a unit
    without a picture fail under the mod's own map name."""
    env = _home(tmp_path, identity=True)
    result = run_cli("new", "mymod", "--in", "mymod", cwd=tmp_path, env=env)
    assert result.code == 0, result.err
    line = result.out.splitlines()[-1]
    assert line == (
        "next: cd mymod && python3 -m venv .venv && .venv/bin/pip install -r requirements.txt "
        "&& .venv/bin/triplea-forge map get world_war_ii_revised && .venv/bin/triplea-forge build"
    )
    with serving_maps({"World War II Revised": BASE_MAP}) as index:
        env["TRIPLEA_MAP_INDEX"] = index
        proc = subprocess.run(
            ["bash", "-eo", "pipefail", "-c", line.removeprefix("next: ")],
            cwd=tmp_path, env={**os.environ, **env}, capture_output=True, text=True, timeout=900, check=False,
        )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    mod = tmp_path / "mymod"
    maps = tmp_path / "maps"
    assert "world_war_ii_revised v1: installed at " in proc.stdout
    assert (maps / "world_war_ii_revised" / "map" / "polygons.txt").is_file()
    board = (
        f"board: map 'world_war_ii_revised' at {maps}/world_war_ii_revised, for mymod (its map 'mymod' is not "
        "installed)"
    )
    assert board in proc.stdout.splitlines()
    pip = subprocess.run([str(mod / ".venv" / "bin" / "pip"), "--version"], capture_output=True, text=True, check=True)
    assert pip.stdout.startswith("pip 23.")
    assert (mod / "output" / "games" / "mymod.xml").is_file()
    game = mod / "rules" / "mymod" / "game.yaml"
    game.write_text(
        game.read_text(encoding="utf-8")
        + "territories:\n  Germny: {production: 3}\n  Germany: {units: {Germans: {zeppelin: 1}}}\n"
        + "units:\n  zeppelin: {movement: 3, attack: 1, defense: 1, isAir: true}\n",
        encoding="utf-8",
    )
    validated = subprocess.run(
        [str(mod / ".venv" / "bin" / "triplea-forge"), "validate"],
        cwd=mod, env={**os.environ, **env}, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert validated.returncode == 1
    errors = validated.stderr.splitlines()
    assert errors[0].startswith(
        "rules/mymod/game.yaml:7:3: territories.Germny: no territory 'Germny' on the map 'world_war_ii_revised' "
    ), validated.stderr
    assert errors[1].startswith(
        "rules/mymod/game.yaml:10:3: units.zeppelin: no picture of zeppelin for Germans: units/<player>/zeppelin.png "
        "is in neither the map 'world_war_ii_revised' nor the engine's stock art"
    ), validated.stderr
    assert errors[2:] == ["2 errors found."]
    # A mod started from the mod's own venv (triplea-forge installed as a package) pins the same
    # source pip installed it from, not a version no index has.
    again = subprocess.run(
        [str(mod / ".venv" / "bin" / "triplea-forge"), "new", "other", "--in", str(tmp_path / "other")],
        cwd=mod, env={**os.environ, **env}, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert again.returncode == 0, again.stderr
    pin = (mod / "requirements.txt").read_text(encoding="utf-8").splitlines()[-1]
    assert (tmp_path / "other" / "requirements.txt").read_text(encoding="utf-8").splitlines()[-1] == pin
    # The pin installs triplea-forge without the 'balance' extra (numpy, scipy, matplotlib: more than
    # the rest together): a study says so before it plays, with the line that adds it to this install.
    study = subprocess.run(
        [str(mod / ".venv" / "bin" / "triplea-forge"), "balance", "mymod", "--games", "1"],
        cwd=mod, env={**os.environ, **env}, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert study.returncode == 1, study.stdout + study.stderr
    add = f"{mod}/.venv/bin/python3 -m pip install '{pin.replace('triplea-forge', 'triplea-forge[balance]', 1)}'"
    assert study.stderr == (
        "Error: a balance study needs numpy, scipy, matplotlib (the 'balance' extra), which this triplea-forge was "
        f"installed without; add it with: {add}\n"
    ), study.stderr
    # The extra that line names is in what the pin installed (the same pin: pip reads the extra from it).
    requires = subprocess.run(
        [str(mod / ".venv" / "bin" / "python3"), "-c",
         "import importlib.metadata as m; print(*m.requires('triplea-forge'), sep='\\n')"],
        capture_output=True, text=True, check=True,
    ).stdout.splitlines()  # fmt: skip
    extra = {re.split(r"[<>=\[]", line)[0] for line in requires if re.search(r"extra == .balance.$", line)}
    assert extra == {"numpy", "scipy", "matplotlib"}, requires


@pytest.mark.parametrize(
    ("direct_url", "expected"),
    [
        (None, "triplea-forge==0.1.0"),
        ('{"url": "file:///srv/tf?rev=abc", "dir_info": {}}', "triplea-forge @ file:///srv/tf?rev=abc"),
        (
            '{"url": "https://github.com/me/tf.git", "vcs_info": {"vcs": "git", "commit_id": "0123abc"}}',
            "triplea-forge @ git+https://github.com/me/tf.git@0123abc",
        ),
        ("not json", "triplea-forge==0.1.0"),
    ],
)
def test_an_installed_package_is_pinned_where_pip_got_it(direct_url: str | None, expected: str) -> None:
    assert installed_pin(direct_url, "0.1.0")[0] == expected


def _clone_with_remote(folder: Path, tag: str | None) -> str:
    """A git checkout whose origin is an https URL, at a commit (tagged or not); its commit."""
    folder.mkdir()
    for args in (("init", "-q"), ("remote", "add", "origin", "https://example.org/me/tf.git")):
        _git(folder, *args)
    (folder / "pyproject.toml").write_text("[project]\nname = 'triplea-forge'\n")
    identity = ("-c", "user.name=t", "-c", "user.email=t@t")
    for args in (("add", "-A"), (*identity, "commit", "-q", "-m", "one"), *([("tag", tag)] if tag else [])):
        _git(folder, *args)
    return _git(folder, "rev-parse", "HEAD").strip()


@pytest.mark.parametrize("tag", ["v1.2", None])
def test_a_clone_with_a_remote_is_pinned_by_its_url_at_the_tag_or_commit(tmp_path: Path, tag: str | None) -> None:
    """Installed from a clone, as an editable checkout or from its folder (pip's dir_info)."""
    commit = _clone_with_remote(tmp_path / "tf", tag)
    pinned = f"triplea-forge @ git+https://example.org/me/tf.git@{tag or commit}"
    unpushed = f"commit {commit[:12]} of {tmp_path / 'tf'} is not on origin yet: push it before the mod's CI runs"
    assert checkout_pin(tmp_path / "tf") == (pinned, unpushed)
    recorded = f'{{"url": "{(tmp_path / "tf").as_uri()}", "dir_info": {{}}}}'
    assert installed_pin(recorded, "0.1.0") == (pinned, unpushed)


def test_a_folder_without_a_remote_is_pinned_by_its_path(tmp_path: Path) -> None:
    (tmp_path / "tf").mkdir()
    recorded = f'{{"url": "{(tmp_path / "tf").as_uri()}", "dir_info": {{}}}}'
    assert installed_pin(recorded, "0.1.0") == (
        f"triplea-forge @ {(tmp_path / 'tf').as_uri()}",
        f"requirements.txt installs triplea-forge from {(tmp_path / 'tf').as_uri()}, which only this machine can reach",
    )
