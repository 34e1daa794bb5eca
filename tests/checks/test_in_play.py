"""What engine 1.9 loads and then fails on in play (issue 45): its catalog's `in_play` entries.

* every `in_play` entry has a finder (checks/in_play_rules.py) and each of its `probeSpecs` (a child
  of the tiny fixture) is said at its YAML line as "TripleA 1.9 loads the game and fails when …"
  with the entry's message; a neighbour one change away is not;
* the real engine loads every probe and fails with that message while playing it (two rounds, the
  fast AI), and plays every neighbour without an error;
* the `not_checked` entries raised in play are ones no game reaches: their `callSites` are the jar's
  own (its bytecode: who calls the raising method, and what they pass), and their `firstRefusedBy`
  games are refused when loading, before play, with that refusal's words.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from generator.catalog.checks import load_checks
from generator.checks.engine_rules import engine_text
from generator.checks.in_play_rules import IN_PLAY_CHECKS
from tests.checks.test_engine_checks import _engine_says, _render_unchecked
from tests.helpers import ENGINE_JAR, ROOT, TINY, run_cli, write_tree

ENTRIES = [c for c in load_checks("1.9")["checks"] if c["status"] == "in_play"]
PROBES = {f"p{i:02d}": (check, text) for i, (check, text) in enumerate(
    (check, text) for check in ENTRIES for text in check["probeSpecs"]
)}  # fmt: skip
_TRUE = "      conditionAttachmentTrue: {switch: true}\n"
_FIRES = "      triggerAttachmentTest:\n        {conditions: [conditionAttachmentTrue], when: [before, redsPurchase],\n"
_TRIGGER = "properties:\n  Use Triggers: true\nplayers:\n  Reds:\n    attachments:\n" + _TRUE + _FIRES
# One change away from a probe: what the engine plays, and validate passes.
NEIGHBOURS = {
    "n_count": "players:\n  Reds:\n    attachments:\n      conditionAttachmentList: "
    "{directOwnershipTerritories: [1, Alpha]}\n",
    "n_player": _TRIGGER.replace("    attachments:\n", "    attachments:\n      playerAttachment: {vps: 1}\n")
    + "         playerProperty: [[2, retainCapitalNumber]]}\n",
    # (a player without a techAttachment fails too, on a null: no message of the engine's own)
    "n_tech": _TRIGGER.replace("    attachments:\n", "    attachments:\n      techAttachment: {superSub: false}\n")
    + "         playerAttachmentName: [techAttachment, TechAttachment], playerProperty: [[true, superSub]]}\n",
    "n_territory": _TRIGGER + "         territories: [Alpha], territoryProperty: [[3, production]]}\n",
    "n_artillery": _TRIGGER + "         unitType: [infantry], unitProperty: [[true, artillery]]}\n",
    "n_capital": "players:\n  Blues: {optional: true}\nterritories:\n  Beta:\n    capital: !delete\n",
}


def _project(tmp_path: Path, variants: dict[str, str]) -> Path:
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    write_tree(tmp_path, {f"rules/{name}/game.yaml": "extends: tiny\n" + text for name, text in variants.items()})
    return tmp_path


def _quoted(check: dict[str, Any]) -> str:
    return f'"{engine_text(check["message"])}" ({check["class"]}.{check["method"]})'


def test_every_in_play_entry_has_a_finder_and_every_finder_an_entry() -> None:
    def answers(words: str, check: dict[str, Any]) -> bool:
        cls, _, words = words.rpartition(": ")
        return words in check["message"] and cls in ("", check["class"])

    for check in ENTRIES:
        assert check["covers"] and check["probeSpecs"], check["message"]
        assert [w for w in IN_PLAY_CHECKS if answers(w, check)], check["message"]
    for words in IN_PLAY_CHECKS:
        assert [c for c in ENTRIES if answers(words, c)], words
    assert len(ENTRIES) == 15


def test_validate_says_every_probe_fails_in_play_and_no_neighbour(tmp_path: Path) -> None:
    project = _project(tmp_path, {**{n: t for n, (_, t) in PROBES.items()}, **NEIGHBOURS})
    result = run_cli("validate", "--target", "1.9", *PROBES, *NEIGHBOURS, cwd=project)
    assert "Traceback" not in result.err
    lines = [line for line in result.err.splitlines() if ": warning: " not in line]
    for name, (check, _) in PROBES.items():
        # the same message raised in two places (the capital lookups) is said once, with the first
        same = [c for c in ENTRIES if c["message"] == check["message"]]
        said = [line for line in lines if "loads the game and fails when " in line and f"rules/{name}/" in line]
        if check["message"].startswith("Capital not found"):
            said = [line for line in lines if "fails when bluesPurchase runs" in line]
        assert any(_quoted(c) in line for line in said for c in same), (name, check["message"], said)
    for name in NEIGHBOURS:
        assert not [line for line in lines if f"rules/{name}/" in line], name


def test_a_canal_on_one_sea_zone_is_one_problem_for_both_engines(tmp_path: Path) -> None:
    canal = next(c for c in ENTRIES if c["method"] == "getAllCanalSeaZones")
    project = _project(tmp_path, {"canal": canal["probeSpecs"][0]})
    result = run_cli("validate", "canal", cwd=project)
    assert [line for line in result.err.splitlines() if ".canalName: " in line] == [
        "rules/canal/game.yaml:11:25: territories.Sea.attachments.canalAttachment.canalName: canal 'Little' is on 1 "
        'territory: a canal joins exactly two sea zones; TripleA 2.x refuses the game: "Wrong number of sea zones … '
        "for canal named '…' (exactly 2 sea zones may have the same canalName):\" (CanalAttachment.validate; 2.7: "
        '"Wrong number of sea zones for canal (exactly 2 sea zones may have the same canalName):"); '
        "TripleA 1.9 loads the game and fails when a route through Sea is checked (a move there, or the AI planning "
        'one): "Wrong number of sea zones for canal (exactly 2 sea zones may have the same canalName):" '
        "(CanalAttachment.getAllCanalSeaZones)"
    ]


@pytest.mark.engine
def test_19_loads_every_probe_and_fails_in_play_with_its_message(tmp_path: Path) -> None:
    from generator.engine.harness import dump, find_engine

    project = _project(tmp_path, {**{n: t for n, (_, t) in PROBES.items()}, **NEIGHBOURS})
    paths = []
    for name in [*PROBES, *NEIGHBOURS]:
        path = project / f"{name}.xml"
        path.write_bytes(_render_unchecked(project / "rules", name))
        paths.append(path)
    loaded = dump(paths)
    assert not [p.stem for p in paths if "error" in loaded[str(p)]]  # the engine loads every one
    reports = find_engine().play(paths, rounds=2)
    for path in paths:
        errors = [f"{e['message']} {e.get('detail', '')}" for e in reports[str(path)].get("errors", [])]
        if path.stem in NEIGHBOURS:
            assert not errors, (path.stem, errors[:1])
            continue
        check = PROBES[path.stem][0]
        assert any(_engine_says(e, check["message"]) for e in errors), (path.stem, check["message"], errors[:1])


# --- the not_checked entries raised in play: no game reaches them ------------------------------------


def _extractor() -> Any:
    scripts = ROOT / "scripts" / "catalog"
    spec = importlib.util.spec_from_file_location("extract_checks", scripts / "extract_checks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(scripts))
    spec.loader.exec_module(module)
    return module


_CLASS = re.compile(r"^(?:[a-z]+ )*(?:class|interface) ([\w.$]+)")
_CALL = re.compile(r"^\s+\d+: invoke\w+\s+#\d+(?:, *\d+)?\s+// (?:Interface)?Method (?:([\w/$]+)\.)?([\w$<>]+):(\S+)")
_CONSTANT = re.compile(r"^\s+\d+: ldc(?:_w)?\s+#\d+\s+// String (.*)$")


def _call_sites(listing: str) -> list[dict[str, Any]]:
    """Every method call in a `javap -c -p` listing: who calls (Class.method), what (Class.name:descriptor),
    the last string constant loaded before it in that method, and the call just before it."""
    extractor = _extractor()
    sites: list[dict[str, Any]] = []
    cls = method = ""
    constant: str | None = None
    previous = ""
    for line in listing.splitlines():
        found = _CLASS.match(line)
        if found:
            cls = found.group(1).rsplit(".", 1)[-1]
            continue
        header = extractor._METHOD.match(line)
        if header:
            method, constant, previous = extractor._enclosing(header.group(1)), None, ""
            continue
        loaded = _CONSTANT.match(line)
        if loaded:
            constant = loaded.group(1)
            continue
        call = _CALL.match(line)
        if call:
            owner = (call.group(1) or cls).rsplit("/", 1)[-1]
            target = f"{owner}.{call.group(2)}:{call.group(3)}"
            sites.append({"caller": f"{cls}.{method}", "target": target, "constant": constant, "previous": previous})
            previous = f"{owner}.{call.group(2)}"
    return sites


@pytest.fixture(scope="module")
def jar_calls() -> list[dict[str, Any]]:
    listing = subprocess.run(["jar", "tf", str(ENGINE_JAR)], check=True, capture_output=True, text=True).stdout
    names = [n.removesuffix(".class").replace("/", ".") for n in listing.split() if n.startswith("games/strategy/")]
    javap = subprocess.run(["javap", "-c", "-p", "-cp", str(ENGINE_JAR), *names], capture_output=True, text=True)
    return _call_sites(javap.stdout)


def _matches(target: str, calls: str) -> bool:
    """`calls` as the catalog writes it: a method name alone (any class), or Class.name[:descriptor start]."""
    return target.startswith(calls) if "." in calls else target.split(".", 1)[1].split(":")[0] == calls


@pytest.mark.engine
def test_what_no_game_reaches_is_called_only_as_the_catalog_says(jar_calls: list[dict[str, Any]]) -> None:
    decided = [c for c in load_checks("1.9")["checks"] if "callSites" in c]
    assert len(decided) == 5
    for check in decided:
        evidence = check["callSites"]
        sites = [s for s in jar_calls if _matches(s["target"], evidence["calls"])]
        assert sorted({s["caller"] for s in sites}) == evidence["callers"], (check["method"], sites)
        for site in sites:
            if "firstArgument" in evidence:
                assert site["constant"] in evidence["firstArgument"], (check["method"], site)
            if "argumentFrom" in evidence:
                assert site["previous"] == evidence["argumentFrom"], (check["method"], site)


@pytest.mark.engine
def test_what_is_refused_first_is_refused_when_loading(tmp_path: Path) -> None:
    from generator.engine.harness import dump

    decided = [c for c in load_checks("1.9")["checks"] if "firstRefusedBy" in c]
    assert len(decided) == 4
    probes = {f"f{i}": c for i, c in enumerate(decided)}
    project = _project(tmp_path, {n: c["firstRefusedBy"]["probeSpecs"][0] for n, c in probes.items()})
    paths = []
    for name in probes:
        path = project / f"{name}.xml"
        path.write_bytes(_render_unchecked(project / "rules", name))
        paths.append(path)
    dumps = dump(paths)
    for path in paths:
        said = probes[path.stem]["firstRefusedBy"]["message"]
        assert said in str(dumps[str(path)].get("error", "")), (path.stem, dumps[str(path)].get("error"))
