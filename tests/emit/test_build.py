"""`triplea-forge build` through the real CLI: output is current, deterministic and atomic."""

from __future__ import annotations

import re
import shutil
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from generator.checks.dtd import check_xml_against_dtd
from generator.paths import DTD_IN_JAR
from tests.helpers import BASE_MAP, ENGINE_JAR, ROOT, TINY, Result, run_cli


def _project_copy(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    return tmp_path


def test_committed_output_is_current() -> None:
    result = run_cli("build", "--check", cwd=ROOT)
    assert result.code == 0, result.err
    assert "up to date" in result.out


def test_build_is_byte_identical_and_second_build_writes_nothing(tmp_path: Path) -> None:
    project = _project_copy(tmp_path)
    first = run_cli("build", cwd=project)
    assert first.code == 0, first.err
    assert "wrote output/games/lhtr.xml" in first.out
    for rel in ("games/lhtr.xml", "games/revised.xml", "games/lhtr.notes.html", "map.yml"):
        assert (project / "output" / rel).read_bytes() == (ROOT / "output" / rel).read_bytes(), rel
    before = {p: p.stat().st_mtime_ns for p in (project / "output").rglob("*")}
    second = run_cli("build", cwd=project)
    assert second.code == 0
    made = len([p for p in (project / "output").rglob("*") if p.is_file()])
    assert second.out.strip().splitlines()[-1] == f"0 files written, {made} unchanged"
    assert {p: p.stat().st_mtime_ns for p in (project / "output").rglob("*")} == before
    assert not list(tmp_path.glob(".forge-*")), "staging folder left behind"


@pytest.mark.slow  # every variant built in a copy of rules/, then again
def test_check_names_stale_files_and_writes_nothing(tmp_path: Path) -> None:
    project = _project_copy(tmp_path)
    assert run_cli("build", cwd=project).code == 0
    units = project / "rules" / "revised" / "units.yaml"
    units.write_text(units.read_text().replace("attack: 1, defense: 2", "attack: 2, defense: 2", 1))
    snapshot = {p: p.read_bytes() for p in (project / "output").rglob("*") if p.is_file()}
    result = run_cli("build", "--check", "--base-map", str(BASE_MAP), cwd=project)
    assert result.code == 1
    stale = result.err.splitlines()
    # revised and every variant built on it read the changed stat; notes and map.yml do not change.
    # Each line says why (the file saved since, the rule that differs now) and what to run.
    for variant in ("lhtr", "revised"):
        assert (
            f"stale: output/games/{variant}.xml (rules/revised/units.yaml saved since; the specs now say: infantry: "
            f"attack 1 \u2192 2; run `triplea-forge build {variant}`)"
        ) in stale
    shape = r"stale: output/games/[\w-]+\.xml \(.*; run `triplea-forge build [\w-]+`\)"
    assert all(re.fullmatch(shape, line) for line in stale)
    assert {p: p.read_bytes() for p in (project / "output").rglob("*") if p.is_file()} == snapshot


def test_one_variant(tmp_path: Path) -> None:
    project = _project_copy(tmp_path)
    result = run_cli("build", "lhtr", cwd=project)
    assert result.code == 0, result.err
    written = sorted(p.relative_to(project / "output").as_posix() for p in (project / "output").rglob("*.*"))
    assert written == ["games/lhtr.notes.html", "games/lhtr.xml", "map.yml"]


def test_xml_shape_for_both_engines() -> None:
    for variant in ("revised", "lhtr"):
        data = (ROOT / "output" / "games" / f"{variant}.xml").read_bytes()
        assert b'<!DOCTYPE game SYSTEM "game.dtd">' in data.splitlines()[1]
        root = etree.fromstring(data, etree.XMLParser(resolve_entities=False, no_network=True))
        info = root.find("info")
        assert info is not None and info.get("version") == "1.4.1"
        loader = root.find("loader")
        assert loader is not None and loader.get("javaClass") == "games.strategy.triplea.TripleA"
        classes = [e.get("javaClass", "") for e in root.iter() if e.get("javaClass")]
        assert classes and all(c.startswith("games.strategy.triplea.") for c in classes)
        assert root.find("variableList") is None
        assert not [e for e in root.iter() if e.get("foreach")]
        assert b"/work/" not in data and b"/home/" not in data  # no absolute paths


def test_map_yml_lists_every_variant() -> None:
    text = (ROOT / "output" / "map.yml").read_text()
    assert "map_name: world_war_ii_revised" in text
    assert "- game_name: World War II Revised LHTR\n  file_name: lhtr.xml" in text
    assert "- game_name: World War II Revised\n  file_name: revised.xml" in text


@pytest.mark.engine
def test_generated_xml_is_dtd_clean() -> None:
    for variant in ("revised", "lhtr"):
        data = (ROOT / "output" / "games" / f"{variant}.xml").read_bytes()
        assert check_xml_against_dtd(data, variant, ENGINE_JAR) == []


@pytest.mark.engine
def test_dtd_messages_are_errors(tmp_path: Path) -> None:
    """An element the DTD does not know is reported, with its line, instead of passing quietly."""
    data = (ROOT / "output" / "games" / "lhtr.xml").read_bytes().replace(b"<map>", b"<map>\n    <island/>", 1)
    messages = [str(d) for d in check_xml_against_dtd(data, "x.xml", ENGINE_JAR)]
    assert any(m.startswith("x.xml:8:") and "island" in m for m in messages), messages


def test_the_dtd_and_the_build_record_are_the_engines_triplea_jar_names(tmp_path: Path) -> None:
    """TRIPLEA_JAR names the engine of every command: a build checks the XML against the game.dtd
    of that jar, and a build recorded with one engine is not taken for a build with another."""
    project = tmp_path / "project"
    shutil.copytree(TINY, project / "rules" / "tiny")
    strict = tmp_path / "strict" / "triplea.jar"  # an engine whose grammar takes no game
    strict.parent.mkdir()
    with zipfile.ZipFile(strict, "w") as jar:
        jar.writestr(DTD_IN_JAR, "<!ELEMENT game EMPTY>\n")
    nowhere = tmp_path / "nowhere" / "triplea.jar"
    refused = run_cli("build", cwd=project, env={"TRIPLEA_JAR": str(strict)})
    assert refused.code == 1 and "DTD: " in refused.err, refused.err
    built = run_cli("build", cwd=project, env={"TRIPLEA_JAR": str(nowhere)})
    assert built.code == 0, built.err
    assert f"warning: engine DTD not found in {nowhere}" in built.err
    again = run_cli("build", cwd=project, env={"TRIPLEA_JAR": str(strict)})
    assert again.code == 1 and "DTD: " in again.err, again.err  # not the record of the build without one


@pytest.mark.slow  # every variant built in a copy of rules/, then again
def test_files_of_a_removed_variant_are_stale_then_removed(tmp_path: Path) -> None:
    project = _project_copy(tmp_path)
    assert run_cli("build", cwd=project).code == 0
    # What a build of a variant since deleted left: ours (it carries the marker), so it goes.
    (project / "output" / "games" / "gone.xml").write_text("<!-- Generated by triplea-forge from rules/gone/ -->")
    check = run_cli("build", "--check", "--base-map", str(BASE_MAP), cwd=project)
    assert check.code == 1
    assert check.err.splitlines() == ["stale: output/games/gone.xml (no variant makes it; a build removes it)"]
    result = run_cli("build", cwd=project)
    assert "removed output/games/gone.xml" in result.out
    assert not (project / "output" / "games" / "gone.xml").exists()


@pytest.mark.slow  # every variant built in a copy of rules/, then again
def test_unchanged_inputs_rebuild_from_the_record_and_edits_do_not(tmp_path: Path) -> None:
    """An up-to-date build is answered from the record of the last one; any edit makes a real build."""
    project = _project_copy(tmp_path)
    env_home = tmp_path / "cache"
    first = run_cli_env("build", cwd=project, cache=env_home)
    assert first.code == 0, first.err
    again = run_cli_env("build", cwd=project, cache=env_home)
    assert again.out.strip().splitlines()[-1].startswith("0 files written")
    assert list((env_home / "triplea-forge" / "builds").glob("*.json"))
    edited = project / "output" / "games" / "lhtr.xml"  # output edited by hand (still ours: it says so)
    edited.write_text(edited.read_text().replace("</game>", "<!-- a hand edit --></game>"))
    repaired = run_cli_env("build", cwd=project, cache=env_home)
    assert "wrote output/games/lhtr.xml" in repaired.out
    units = project / "rules" / "revised" / "units.yaml"
    units.write_text(units.read_text().replace("attack: 1, defense: 2", "attack: 2, defense: 2", 1))
    edited = run_cli_env("build", cwd=project, cache=env_home)
    assert "wrote output/games/revised.xml" in edited.out


def run_cli_env(*args: str, cwd: Path, cache: Path) -> Result:
    """run_cli with its own cache folder, as the user who runs the suite (their HOME, so their maps)."""
    return run_cli(*args, cwd=cwd, env={"XDG_CACHE_HOME": str(cache), "HOME": str(Path.home())})


@pytest.mark.slow
def test_jobs_change_nothing_but_the_time(tmp_path: Path) -> None:
    """Variants compiled by forked workers: the same files, the same messages in the same order,
    and a build record complete enough that the next build (one process) is answered from it."""
    project = _project_copy(tmp_path)
    advantages = project / "rules" / "aare" / "advantages.yaml"
    advantages.write_text(advantages.read_text(encoding="utf-8") + "\nbogus_key: 1\n", encoding="utf-8")
    results: dict[str, Result] = {}
    for jobs in ("1", "3"):
        cache = tmp_path / f"cache-{jobs}"
        results[jobs] = run_cli_env("build", "-j", jobs, "--output", f"out-{jobs}", cwd=project, cache=cache)
    assert results["1"].code == results["3"].code == 1
    assert "bogus_key" in results["1"].err
    assert results["1"].err == results["3"].err
    checked = [run_cli_env("validate", "-j", jobs, cwd=project, cache=tmp_path / "cache-v") for jobs in ("1", "3")]
    assert checked[0].code == checked[1].code == 1
    assert checked[0].err == checked[1].err and "bogus_key" in checked[0].err
    advantages.write_text(advantages.read_text(encoding="utf-8").replace("\nbogus_key: 1\n", ""), encoding="utf-8")
    files = {}
    for jobs in ("1", "3"):
        out, cache = project / f"out-{jobs}", tmp_path / f"cache-{jobs}"
        built = run_cli_env("build", "-j", jobs, "--output", out.name, cwd=project, cache=cache)
        assert built.code == 0, built.err
        results[jobs] = built
        files[jobs] = {p.relative_to(out): p.read_bytes() for p in out.rglob("*.*")}
    assert results["1"].err == results["3"].err
    assert files["1"] == files["3"]
    assert files["3"][Path("games/aare.xml")] == (ROOT / "output" / "games" / "aare.xml").read_bytes()
    again = run_cli_env("build", "-j", "1", "--output", "out-3", cwd=project, cache=tmp_path / "cache-3")
    assert again.out.strip().splitlines()[-1] == f"0 files written, {len(files['3'])} unchanged"
