"""`triplea-forge package` and `init-ci` through the real CLI, on the world_war_ii_revised map."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from generator.release.package import properties as properties_file
from tests.helpers import BASE_MAP, ROOT, run_cli, write_tree

MAP = "world_war_ii_revised"
ZIP = f"{MAP}-master.zip"

MYMOD = """
    extends: revised
    game: {name: My Mod, version: "1.0"}
    players:
      Russians: {color: "123456"}
    units:
      infantry: {attack: 1}
    map_files:
      map: {units.scale: "0.875"}
      objectives:
        Objectives.Panel.Name: "Ziele \u2013 Übersicht ✓"
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """`revised` from the repository plus `mymod`, a child with a colour and .properties content."""
    shutil.copytree(ROOT / "rules" / "revised", tmp_path / "rules" / "revised")
    write_tree(tmp_path, {"rules/mymod/game.yaml": MYMOD})
    return tmp_path


def _package(project: Path, out: str, *extra: str) -> None:
    result = run_cli("package", "--base-map", str(BASE_MAP), "--out", out, *extra, cwd=project)
    assert result.code == 0, result.err


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_standalone_folder_and_zip_hold_the_same_installable_map(project: Path) -> None:
    _package(project, "dist")
    folder = project / "dist" / MAP
    files = _tree(folder)
    with zipfile.ZipFile(project / "dist" / ZIP) as archive:
        names = archive.namelist()
        assert names == sorted(names)
        assert all(info.date_time == (1980, 1, 1, 0, 0, 0) for info in archive.infolist())
        inside = {n.removeprefix(f"{MAP}-master/"): archive.read(n) for n in names if not n.endswith("/")}
    assert inside == files
    listing = yaml.safe_load(files["map.yml"])
    assert listing == {
        "map_name": MAP,
        "games": [
            {"game_name": "My Mod", "file_name": "mymod.xml"},
            {"game_name": "World War II Revised", "file_name": "revised.xml"},
        ],
    }
    for rel in ("map/polygons.txt", "map/centers.txt", "map/smallMap.jpeg", "preview.png", "description.html"):
        assert rel in files, rel
    assert files["map/polygons.txt"] == (BASE_MAP / "map" / "polygons.txt").read_bytes()
    # The base map's own games, listing and description stay behind: only ours are in the package.
    games = sorted(n for n in files if n.startswith("map/games/"))
    assert games == [f"map/games/{v}{ext}" for v in ("mymod", "revised") for ext in (".notes.html", ".xml")]
    assert b'<info name="My Mod" version="1.0"/>' in files["map/games/mymod.xml"]
    assert b"My Mod</b>, version 1.0" in files["description.html"]
    assert files["CHANGELOG.md"].decode().startswith("# Changelog")
    assert "First release." in files["CHANGELOG.md"].decode()


def test_properties_are_merged_into_the_base_map_files(project: Path) -> None:
    _package(project, "dist")
    folder = project / "dist" / MAP / "map"
    base = (BASE_MAP / "map" / "map.properties").read_bytes()
    merged = (folder / "map.properties").read_bytes()
    # The colour is changed where the base sets it; comments and every other line are kept.
    assert merged.startswith(base.replace(b"color.Russians=af2828", b"color.Russians=123456").rstrip(b"\n"))
    assert merged.endswith(b"\n# Set by triplea-forge for mymod.\nunits.scale=0.875\n")
    assert properties_file.read(merged)["color.Russians"] == "123456"
    objectives = (folder / "objectives.properties").read_bytes()
    assert (
        objectives
        == b"# Set by triplea-forge for mymod.\nObjectives.Panel.Name=Ziele \\u2013 \\u00DCbersicht \\u2713\n"
    )


@pytest.mark.slow
def test_zip_is_byte_identical_across_runs(project: Path) -> None:
    _package(project, "one")
    _package(project, "two")
    first, second = (project / run / ZIP for run in ("one", "two"))
    assert first.read_bytes() == second.read_bytes()
    assert _tree(project / "one" / MAP) == _tree(project / "two" / MAP)
    # A second run into the same folder replaces the package as a whole.
    _package(project, "one")
    assert _tree(project / "one" / MAP) == _tree(project / "two" / MAP)
    assert not [p for p in (project / "one").iterdir() if p.name.startswith(".forge")]


@pytest.mark.slow
def test_changelog_against_the_previous_release(project: Path) -> None:
    _package(project, "v1", "--release", "v1")
    game = project / "rules" / "mymod" / "game.yaml"
    game.write_text(game.read_text().replace('version: "1.0"', 'version: "1.1"').replace("attack: 1", "attack: 2"))
    write_tree(project, {"rules/other/game.yaml": 'extends: revised\ngame: {name: Other, version: "2.0"}\n'})
    _package(project, "v2", "--release", "v2", "--previous", str(project / "v1" / ZIP))
    log = (project / "v2" / MAP / "CHANGELOG.md").read_text()
    assert "## v2" in log and log.index("## v2") < log.index("## v1"), log
    assert "### Added games\n\n- Other 2.0 (`other.xml`)" in log
    assert "#### My Mod (`mymod.xml`): version 1.0 → 1.1" in log
    assert "- changed: `map/games/mymod.notes.html`, `map/games/mymod.xml`" in log
    # Rule changes in the words of `triplea-forge diff`, one heading level below the game.
    mymod = log[log.index("#### My Mod") : log.index("### Unchanged games")]
    assert "##### " in mymod and "infantry" in mymod and "attack" in mymod and "1 → 2" in mymod, mymod
    assert "### Unchanged games\n\n- World War II Revised 1.4.1 (`revised.xml`)" in log
    assert "`description.html`" in log and "`map.yml`" in log  # both list the new game
    assert "First release." in log  # v1's section is kept below
    # The previous release as a folder gives the same CHANGELOG.
    _package(project, "v2b", "--release", "v2", "--previous", str(project / "v1" / MAP))
    assert (project / "v2b" / MAP / "CHANGELOG.md").read_text() == log
    _package(project, "v3", "--release", "v3", "--previous", str(project / "v2" / ZIP))
    assert "## v3\n\nNo changes to games or map files." in (project / "v3" / MAP / "CHANGELOG.md").read_text()


def test_refuses_to_replace_a_folder_it_did_not_write(project: Path) -> None:
    shutil.copytree(BASE_MAP, project / "maps" / MAP)
    result = run_cli("package", "--base-map", str(BASE_MAP), "--out", "maps", cwd=project)
    assert result.code == 1
    assert "was not written by triplea-forge" in result.err and "--force" in result.err
    assert _tree(project / "maps" / MAP) == _tree(BASE_MAP)


def test_usage_errors_exit_2(project: Path) -> None:
    assert run_cli("package", cwd=project).code == 2
    both = run_cli("package", "--base-map", str(BASE_MAP), "--overlay", str(BASE_MAP), cwd=project)
    assert both.code == 2 and "either --base-map" in both.err


def test_conflicting_properties_between_variants_are_errors(project: Path) -> None:
    write_tree(
        project,
        {
            "rules/rival/game.yaml": """
        extends: revised
        game: {name: Rival, version: "1.0"}
        players:
          Russians: {color: "654321"}
    """
        },
    )
    result = run_cli("package", "--base-map", str(BASE_MAP), "--out", "dist", cwd=project)
    assert result.code == 1
    assert "map.properties: color.Russians is '123456' in variant 'mymod' and '654321' here" in result.err
    assert "rules/rival/game.yaml" in result.err
    assert not (project / "dist").exists()


def _digests(folder: Path) -> dict[str, str]:
    return {k: hashlib.sha256(v).hexdigest() for k, v in _tree(folder).items()}


def test_overlay_adds_games_and_touches_nothing_else(project: Path) -> None:
    installed = project / "downloadedMaps" / MAP
    shutil.copytree(BASE_MAP, installed)
    before = _digests(installed)
    result = run_cli("package", "mymod", "--overlay", str(installed), cwd=project)
    assert result.code == 0, result.err
    # The colour and .properties content stay out: the map's own files are not ours to change.
    assert "color.Russians" in result.err and "not installed" in result.err
    after = _digests(installed)
    added = sorted(set(after) - set(before))
    assert added == ["map/games/mymod.notes.html", "map/games/mymod.xml"]
    assert {k for k in before if before[k] != after[k]} == {"map.yml"}
    listing = yaml.safe_load((installed / "map.yml").read_text())
    assert listing["map_name"] == MAP
    assert listing["games"] == [
        {"game_name": "World War II Revised LHTR", "file_name": "lhtr.xml"},
        {"game_name": "World War II Revised", "file_name": "ww2v2.xml"},
        {"game_name": "My Mod", "file_name": "mymod.xml"},
    ]
    again = run_cli("package", "mymod", "--overlay", str(installed), cwd=project)
    assert again.code == 0 and "0 files written" in again.out
    assert _digests(installed) == after


def test_overlay_refuses_foreign_files_and_duplicate_names(project: Path) -> None:
    installed = project / MAP
    shutil.copytree(BASE_MAP, installed)
    before = _digests(installed)
    write_tree(project, {"rules/ww2v2/game.yaml": 'extends: revised\ngame: {name: Not Official, version: "1.0"}\n'})
    foreign = run_cli("package", "ww2v2", "--overlay", str(installed), cwd=project)
    assert foreign.code == 1 and "ww2v2.xml exists and was not written by triplea-forge" in foreign.err
    duplicate = run_cli("package", "revised", "--overlay", str(installed), cwd=project)
    assert duplicate.code == 1 and "game 'World War II Revised' is already listed, as ww2v2.xml" in duplicate.err
    assert _digests(installed) == before
    forced = run_cli("package", "ww2v2", "--overlay", str(installed), "--force", cwd=project)
    assert forced.code == 0, forced.err
    assert b"Not Official" in (installed / "map" / "games" / "ww2v2.xml").read_bytes()


@pytest.mark.engine
def test_overlaid_map_games_all_load_in_the_engine(project: Path) -> None:
    from generator.engine import harness as engine

    installed = project / MAP
    shutil.copytree(BASE_MAP, installed)
    assert run_cli("package", "mymod", "--overlay", str(installed), cwd=project).code == 0
    listing = yaml.safe_load((installed / "map.yml").read_text())
    paths = [installed / "map" / "games" / g["file_name"] for g in listing["games"]]
    dumps = engine.dump(paths)
    names = {dump["game"]["name"] for dump in dumps.values()}
    assert names == {"World War II Revised LHTR", "World War II Revised", "My Mod"}


def test_init_ci_writes_a_workflow(project: Path) -> None:
    result = run_cli("init-ci", cwd=project)
    assert result.code == 0, result.err
    workflow = project / ".github" / "workflows" / "triplea-forge.yml"
    text = workflow.read_text()
    flow = yaml.safe_load(text)
    assert set(flow["jobs"]) == {"check", "release", "pages"}
    runs = "\n".join(step.get("run", "") for job in flow["jobs"].values() for step in job["steps"])
    for command in ("build --check", "validate", "triplea-forge check", "triplea-forge diff", "package --base-map"):
        assert command in runs, command
    assert "GITHUB_STEP_SUMMARY" in runs and "gh release upload" in runs
    assert "${{ github.base_ref }}" in text  # GitHub's expressions survive Jinja
    base = [s for s in flow["jobs"]["release"]["steps"] if s.get("with", {}).get("path") == ".forge-base-map"]
    assert base[0]["with"]["repository"] == f"triplea-maps/{MAP}"
    assert flow["jobs"]["release"]["if"] == "startsWith(github.ref, 'refs/tags/')"
    assert run_cli("init-ci", cwd=project).code == 2  # exists: needs --force
    assert run_cli("init-ci", "--force", "--base-map-repo", "not a repo", cwd=project).code == 2
    assert run_cli("init-ci", "--force", "--base-map-repo", "me/my_map", cwd=project).code == 0
    assert 'repository: "me/my_map"' in workflow.read_text()


JAVA_READER = """
import java.io.FileInputStream;
import java.util.Properties;
import java.util.TreeSet;

public class ReadProperties {
  public static void main(String[] args) throws Exception {
    Properties p = new Properties();
    try (FileInputStream in = new FileInputStream(args[0])) { p.load(in); }
    for (String key : new TreeSet<>(p.stringPropertyNames())) {
      System.out.println(hex(key) + " " + hex(p.getProperty(key)));
    }
  }

  static String hex(String s) {
    StringBuilder b = new StringBuilder("x");
    for (char c : s.toCharArray()) b.append(String.format("%04x", (int) c));
    return b.toString();
  }
}
"""

TRICKY = {
    "plain": "value",
    "with space": " leading and trailing ",
    "a=b:c#d!e": "x=y:z #not a comment",
    "tab\tand\nnewline": "back\\slash\r\f",
    "latin é": "Größe",
    "far ✓": "emoji 🎲 and \u2013 dash",
    "": "empty key",
    "empty value": "",
}


@pytest.mark.engine  # needs java, which the engine's package brings
def test_properties_writer_round_trips_through_java(tmp_path: Path) -> None:
    java = shutil.which("java")
    assert java is not None
    source = tmp_path / "ReadProperties.java"
    source.write_text(JAVA_READER)
    target = tmp_path / "tricky.properties"
    target.write_bytes(properties_file.merge(None, TRICKY, "tricky"))
    assert max(target.read_bytes()) < 0x80  # pure ASCII: reads the same as Latin-1 or UTF-8
    out = subprocess.run([java, str(source), str(target)], capture_output=True, text=True, check=True).stdout

    def text(hexed: str) -> str:
        units = bytes.fromhex(hexed[1:])
        return units.decode("utf-16-be", "surrogatepass")

    read = dict(tuple(text(part) for part in line.split(" ")) for line in out.splitlines())
    assert read == TRICKY
    assert properties_file.read(target.read_bytes()) == TRICKY  # our reader agrees with Java's


def test_properties_merge_keeps_the_base_and_is_idempotent() -> None:
    base = b"# colours\ncolor.A = 111111\ncolor.B:\\\n    222222\n! other\nmap.width 3500\n"
    assert properties_file.read(base) == {"color.A": "111111", "color.B": "222222", "map.width": "3500"}
    assert properties_file.merge(base, {"color.A": "111111"}, "h") == base
    merged = properties_file.merge(base, {"color.B": "333333", "color.C": "444444"}, "ours")
    assert merged == (
        b"# colours\ncolor.A = 111111\ncolor.B=333333\n! other\nmap.width 3500\n\n# ours\ncolor.C=444444\n"
    )
    assert properties_file.merge(merged, {"color.B": "333333", "color.C": "444444"}, "ours") == merged


def _zip_of(folder: Path, target: Path) -> Path:
    """The map as TripleA 1.9 keeps it: <map>-master.zip holding <map>-master/."""
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, f"{folder.name}-master/{path.relative_to(folder).as_posix()}")
    return target


@pytest.mark.slow
def test_base_map_as_a_master_zip_or_from_the_players_maps_folder(project: Path, tmp_path: Path) -> None:
    maps = tmp_path / "downloadedMaps"
    maps.mkdir()
    archive = _zip_of(BASE_MAP, maps / f"{MAP}-master.zip")
    result = run_cli("package", "--base-map", str(archive), "--out", "from-zip", cwd=project)
    assert result.code == 0, result.err
    polygons = (project / "from-zip" / MAP / "map" / "polygons.txt").read_bytes()
    assert polygons == (BASE_MAP / "map" / "polygons.txt").read_bytes()
    # No --base-map: the variants' map is looked for where TripleA keeps the player's maps.
    env = {**os.environ, "TRIPLEA_MAPS": str(maps)}
    proc = subprocess.run(
        [sys.executable, "-m", "generator", "package", "--out", "found"], cwd=project, env=env,
        capture_output=True, text=True,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert f"board: map '{MAP}' at {archive}, for mymod, revised\n" in proc.stdout
    assert (project / "found" / ZIP).read_bytes() == (project / "from-zip" / ZIP).read_bytes()
    env["TRIPLEA_MAPS"] = str(tmp_path / "empty")
    missing = subprocess.run([sys.executable, "-m", "generator", "package"], cwd=project, env=env, capture_output=True,
                             text=True)  # fmt: skip
    assert missing.returncode == 2 and "no base map: map 'world_war_ii_revised' not found in" in missing.stderr


def test_several_maps_are_an_error_not_a_crash(project: Path) -> None:
    write_tree(project, {"rules/other/game.yaml": "extends: revised\ngame: {name: Other, map: other_map}\n"})
    result = run_cli("package", "--base-map", str(BASE_MAP), cwd=project)
    assert result.code == 1
    assert (
        "one map folder holds one map's games, these variants use several: other on map 'other_map'; mymod, revised on "
        "map 'world_war_ii_revised'; package them apart" in result.err
    )


def test_a_package_named_as_the_map_it_is_made_from_is_a_warning(project: Path) -> None:
    result = run_cli("package", "--base-map", str(BASE_MAP), "--out", "dist", cwd=project)
    assert result.code == 0
    warning = (
        "warning: the package is named 'world_war_ii_revised', as the map it is made from: a player who installs it "
        "replaces that map; give the mod a map name of its own (game.map)"
    )
    assert warning in result.err
    strict = run_cli("package", "--base-map", str(BASE_MAP), "--out", "dist2", "--strict", cwd=project)
    assert strict.code == 1 and not (project / "dist2").exists()
