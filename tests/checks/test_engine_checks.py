"""The engines' own checks as data (generator/catalog/engine-checks-*.json) and `validate` applying them.

* the catalog lists exactly the checks the extractor finds: in the installed 1.9 jar (bytecode) and
  in the committed digest of the 2.x source; every entry has a rule, an option whose typed syntax
  covers it, or the reason it is not checked;
* every 1.9 rule is proved against the real engine: for each way to break it, a smallest game
  (the tiny fixture plus one attachment) that 1.9 refuses and `validate --target 1.9` refuses at
  the option's line with the engine's message quoted, and a neighbour one option away on which
  `validate` and the engine agree (most pass both);
* the 2.x rules are checked the same way against `validate --target 2.x`, with the message the
  2.x source has (no 2.x engine runs in the suite).
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from generator.catalog import ENGINES, load_catalog, resolve_option
from generator.catalog.checks import OPERATORS, STATUSES, load_checks
from generator.checks.engine_rules import quoted as engine_words
from generator.emit.render import render_game_xml
from generator.spec.expand import expand_templates
from generator.spec.patterns.expansion import expand_patterns
from generator.spec.resolve import Rules, resolve
from generator.spec.validation import validate_spec
from tests.checks.engine_probes import HOLDERS, SYNTAX_HOLDERS, Probe, known_option, spec_text, syntax_spec, violations
from tests.helpers import ENGINE_JAR, ROOT, TINY, run_cli, write_tree

SCRIPTS = ROOT / "scripts" / "catalog"
DIGEST_2X = SCRIPTS / "raw" / "engine-checks-2.x.source.json"
KEY = ("class", "method", "exception", "message")


def _extractor() -> Any:
    spec = importlib.util.spec_from_file_location("extract_checks", SCRIPTS / "extract_checks.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(SCRIPTS))
    spec.loader.exec_module(module)
    return module


def _keys(checks: list[dict[str, Any]]) -> Counter[tuple[str, ...]]:
    return Counter(tuple(str(c[k]) for k in KEY) for c in checks)


def _per_class(checks: list[dict[str, Any]]) -> dict[str, int]:
    return dict(sorted(Counter(c["class"] for c in checks).items()))


def _catalog_lacks(found: list[dict[str, Any]], engine: str, delegates: list[str]) -> None:
    assert load_checks(engine)["delegates"] == delegates
    listed = load_checks(engine)["checks"]
    missing = _keys(found) - _keys(listed)
    assert not missing, f"checks {engine} has that the catalog lacks: {sorted(missing)}"
    assert not _keys(listed) - _keys(found), "catalog entries the engine no longer has"
    assert _per_class(found) == _per_class(listed)
    assert [c["occurrences"] for c in found] == [c["occurrences"] for c in listed]


@pytest.mark.engine
def test_the_19_jar_has_no_check_the_catalog_lacks() -> None:
    found = _extractor().extract_19(str(ENGINE_JAR))
    digest = _extractor().digest(found, "", [], [])
    _catalog_lacks(digest["checks"], "1.9", _extractor().delegates_19(str(ENGINE_JAR)))
    reached = importlib.import_module("extract_reached")  # beside the extractor, on its path now
    assert load_checks("1.9")["builtinTechs"] == reached.builtin_techs_19(str(ENGINE_JAR))
    assert _per_class(digest["checks"])["UnitAttachment"] == 71


def test_the_2x_source_digest_has_no_check_the_catalog_lacks() -> None:
    digest = json.loads(DIGEST_2X.read_text(encoding="utf-8"))
    _catalog_lacks(digest["checks"], "2.x", digest["delegates"])
    assert load_checks("2.x")["source"] == digest["source"]
    assert load_checks("2.x")["builtinTechs"] == digest["builtinTechs"]
    assert _per_class(digest["checks"])["UnitAttachment"] == 41


def test_the_extractor_reads_messages_from_source() -> None:
    src = """
    class X {
      private void setFoo(final String value) throws GameParseException {
        if (value.isEmpty()) {
          throw new GameParseException("foo cannot be empty, " + thisErrorMsg());
        }
        if (bad) throw new GameParseException(MessageFormat.format("Canal named ''{0}'' is bad{1}", n, m));
      }
    }
    """
    found = _extractor().checks_in_source(src, "X")
    assert [(c["method"], c["message"]) for c in found] == [
        ("setFoo", "foo cannot be empty"),
        ("setFoo", "Canal named '{}' is bad{}"),
    ]


@pytest.mark.parametrize("engine", ENGINES)
def test_every_entry_is_decided(engine: str) -> None:
    data = load_checks(engine)
    catalog = load_catalog(engine)["attachments"]
    for check in data["checks"]:
        where = f"{check['class']}.{check['method']}: {check['message']}"
        assert check["status"] in STATUSES, where
        if check["status"] == "not_checked":
            assert check["reason"], where
        elif check["status"] in ("spec_check", "in_play"):  # in_play: proved in play in tests/checks/test_in_play.py
            assert check["covers"] and check["probeSpecs"], where
        elif check["status"] == "option_syntax":  # a value the engine refuses, proved below
            assert check["probeOption"] in check["options"] and "probe" in check, where
            for option in check["options"]:
                specs = [
                    a["options"][option]
                    for cls, a in catalog.items()
                    if option in a["options"] and check["class"] in (cls, *a.get("supertypes", []))
                ]
                assert specs, f"{where}: no option {option}"
                assert all(s["type"] != "string" or s.get("pattern") for s in specs), f"{where}: {option} is free text"
        else:
            rule = check["rule"]
            assert rule["says"] and rule["alternatives"], where
            for alternative in rule["alternatives"]:
                for condition in alternative.get("all", []) + alternative.get("any", []):
                    assert condition[1] in OPERATORS, where
                    assert known_option(engine, check["class"], condition[0]), f"{where}: {condition[0]}"


# --- the proof: probes -----------------------------------------------------------------------


def _rule_checks(engine: str) -> list[dict[str, Any]]:
    """The rules over option values: their probes are made from the rule (the others carry one)."""
    return [c for c in load_checks(engine)["checks"] if c["status"] == "rule" and "probe" not in c]


def _probes(engine: str) -> list[tuple[str, Probe]]:
    made = []
    for check in _rule_checks(engine):
        assert check["class"] in HOLDERS, f"no probe holder for {check['class']}"
        for probe in violations(check):
            made.append((f"p{len(made):03d}", probe))
    return made


def _render_unchecked(rules: Path, name: str) -> bytes:
    """The game XML of a variant as build would write it, without any of validate's checks."""
    resolved, problems = resolve(Rules(rules, "rules"), name)
    assert resolved is not None, problems
    tree, _, _ = expand_patterns(resolved.tree)
    tree, _ = expand_templates(tree)
    spec, problems = validate_spec(tree)
    assert spec is not None, problems
    return render_game_xml(name, spec).encode("utf-8")


def _syntax_probes(engine: str) -> dict[str, tuple[dict[str, Any] | None, str, int, str]]:
    """A variant per option value a setter refuses, and one per holder with its base options only:
    name -> (the catalog entry or None, the game.yaml, the option's line, its key path)."""
    probes: dict[str, tuple[dict[str, Any] | None, str, int, str]] = {}
    for check in load_checks(engine)["checks"]:
        if "probe" in check:
            cls = check.get("probeClass", check["class"])
            probes[f"s{len(probes):03d}"] = (check, *syntax_spec(cls, check["probeOption"], check["probe"]))
    for cls in SYNTAX_HOLDERS:
        probes[f"s{len(probes):03d}"] = (None, *syntax_spec(cls, None, ""))
    return probes


def _spec_probes(engine: str) -> dict[str, tuple[dict[str, Any], str]]:
    """A variant per probe of each parser check validate's spec checks find: name -> (entry, spec)."""
    checks = [c for c in load_checks(engine)["checks"] if c["status"] == "spec_check"]
    made = [(check, text) for check in checks for text in check["probeSpecs"]]
    return {f"g{i:03d}": probe for i, probe in enumerate(made)}


def _write_syntax_probes(engine: str, root: Path) -> None:
    for name, (_, text, _, _) in _syntax_probes(engine).items():
        write_tree(root, {f"rules/{name}/game.yaml": text})
    for name, (_, text) in _spec_probes(engine).items():
        write_tree(root, {f"rules/{name}/game.yaml": "extends: tiny\n" + text})


def _syntax_refused_at_its_line(errors: list[str], name: str, line: int, path: str) -> bool:
    column = 2 * path.count(".") + 1
    return any(e.startswith(f"rules/{name}/game.yaml:{line}:{column}: {path}: ") for e in errors)


def _probe_refused(check: dict[str, Any], engine: str, errors: list[str], name: str, line: int, key: str) -> bool:
    """Refused at the probe's option: a rule with its words and the engine's message, else by the option checks."""
    if check["status"] == "option_syntax":
        return _syntax_refused_at_its_line(errors, name, line, key)
    says = check["rule"]["says"].format(option=check["probeOption"])
    quoted = engine_words(check)  # with 2.7's words where they differ (their own test: test_engine_refusals)
    said = f"{says}; TripleA {engine} refuses the game: {quoted}"
    if check["probeOption"] == "@name":  # said of the attachment, at its key
        return any(e.endswith(f"{key.rstrip('.')}: {said}") for e in errors)
    return any(e == f"rules/{name}/game.yaml:{line}:{2 * key.count('.') + 1}: {key}: {said}" for e in errors)


def _project(engine: str, root: Path) -> dict[str, tuple[Probe, bool, dict[str, int]]]:
    """rules/ with a variant per probe and per neighbour: name -> (probe, refused?, option lines)."""
    shutil.copytree(TINY, root / "rules" / "tiny")
    _write_syntax_probes(engine, root)
    variants: dict[str, tuple[Probe, bool, dict[str, int]]] = {}
    for name, probe in _probes(engine):
        for suffix, options, refused in (("bad", probe.options, True), ("near", probe.neighbour, False)):
            text, lines = spec_text(probe, options)
            write_tree(root, {f"rules/{name}{suffix}/game.yaml": text})
            variants[f"{name}{suffix}"] = (probe, refused, lines)
    return variants


def _validate(root: Path, engine: str, names: list[str]) -> dict[str, list[str]]:
    result = run_cli("validate", "--target", engine, *names, cwd=root)
    assert "Traceback" not in result.err
    errors: dict[str, list[str]] = {name: [] for name in names}
    for line in result.err.splitlines():
        # what 1.9 loads and fails on in play is no refusal when loading (tests/checks/test_in_play.py proves those)
        in_play_only = "loads the game and fails when" in line and "refuses the game" not in line
        if line.startswith("rules/") and ": warning: " not in line and not in_play_only:
            errors.setdefault(line.split("/")[1], []).append(line)
    assert "tiny" not in errors, errors["tiny"]  # every problem is in the probe's own file
    return errors


def _expected(probe: Probe, engine: str, name: str, lines: dict[str, int]) -> str:
    check = probe.check
    blamed = probe.blamed
    path = ".".join(probe.holder + ((blamed,) if blamed else ()))
    says = check["rule"]["says"].format(option=blamed or "this attachment")
    quoted = engine_words(check)  # with 2.7's words where they differ (their own test: test_engine_refusals)
    said = f"{path}: {says}; TripleA {engine} refuses the game: {quoted}"
    if not blamed:  # said of the attachment: at its key
        return said
    return f"rules/{name}/game.yaml:{lines[blamed]}:{2 * len(probe.holder) + 1}: {said}"


def _refused_as_expected(errors: list[str], probe: Probe, engine: str, name: str, lines: dict[str, int]) -> bool:
    wanted = _expected(probe, engine, name, lines)
    if any(e == wanted or (not probe.blamed and e.endswith(f": {wanted}")) for e in errors):
        return True
    # A probe value outside the option's own range is refused once, by the option check, at the
    # same option (engine_rules.not_said): that is the refusal, at the same place.
    place = wanted.split(": ", 2)[:2] if probe.blamed else None
    return place is not None and any(e.split(": ", 2)[:2] == place and "(syntax: " in e for e in errors)


def _engine_says(error: str, message: str) -> bool:
    said = " ".join(error.split())
    pieces = message.replace("…", "{}").split("{}")
    return all(" ".join(piece.split()) in said for piece in pieces if piece.strip())


@pytest.mark.engine
def test_19_refuses_every_probe_and_validate_refuses_it_first(tmp_path: Path) -> None:
    from generator.engine.harness import dump

    variants = _project("1.9", tmp_path)
    syntax = _syntax_probes("1.9")
    parser = _spec_probes("1.9")
    errors = _validate(tmp_path, "1.9", sorted([*variants, *syntax, *parser]))
    xml_dir = tmp_path / "xml"
    xml_dir.mkdir()
    paths = []
    for name in sorted([*variants, *syntax, *parser]):
        path = xml_dir / f"{name}.xml"
        path.write_bytes(_render_unchecked(tmp_path / "rules", name))
        paths.append(path)
    dumps = dump(paths)  # one JVM for every probe
    passed_neighbours = 0
    wrong: list[Any] = []
    for path in paths:
        name = path.stem
        if name in parser:  # the parser refuses it with its message; validate finds it in the spec
            check = parser[name][0]
            engine_error = str(dumps[str(path)].get("error") or "")
            if not _engine_says(engine_error, check.get("engineSays", check["message"])) or not errors[name]:
                wrong.append((name, check["message"], engine_error[-300:], errors[name]))
            continue
        if name in syntax:  # the option catalog refuses the value at its line, as 1.9's setter does
            check, _, line, key = syntax[name]
            engine_error = str(dumps[str(path)].get("error") or "")
            if check is None:  # a holder with its base options: both pass
                if engine_error or errors[name]:
                    wrong.append((name, key, engine_error[-300:], errors[name]))
                continue
            if not _engine_says(engine_error, check["message"]):
                wrong.append((name, key, check["probe"], check["message"], engine_error[-300:]))
            if check["status"] != "not_checked" and not _probe_refused(check, "1.9", errors[name], name, line, key):
                wrong.append((name, key, check["probe"], errors[name]))
            continue
        probe, refused, lines = variants[name]
        engine_error = str(dumps[str(path)].get("error") or "")
        where = f"{name}: {probe.check['message']} {probe.options if refused else probe.neighbour}"
        if refused:
            assert engine_error, f"1.9 loaded {where}"
            assert _refused_as_expected(errors[name], probe, "1.9", name, lines), (where, errors[name])
            # the engine says what validate quotes (or, refused by the option check alone, the rule's message)
            quoted = _quoted(errors[name]) or [probe.check["message"]]
            assert any(_engine_says(engine_error, m) for m in quoted), (where, engine_error)
        else:  # validate and the engine agree on the neighbour
            assert bool(engine_error) == bool(errors[name]), (where, engine_error, errors[name])
            passed_neighbours += not engine_error
    assert not wrong, "\n".join(map(str, wrong))
    assert len(paths) == 2 * len(_probes("1.9")) + len(syntax) + len(parser) >= 2 * 62 + 231 + 16
    assert passed_neighbours >= len(_probes("1.9")) * 3 // 4  # 52 of 63 on 1.9.0.0.7062


def _quoted(errors: list[str]) -> list[str]:
    return [e.split('refuses the game: "', 1)[1].rsplit('" (', 1)[0] for e in errors if "refuses the game" in e]


def test_2x_probes_are_refused_at_the_option_with_the_2x_message(tmp_path: Path) -> None:
    variants = _project("2.x", tmp_path)
    syntax = _syntax_probes("2.x")
    parser = _spec_probes("2.x")
    errors = _validate(tmp_path, "2.x", sorted([*variants, *syntax, *parser]))
    for name, (check, _) in parser.items():
        assert errors[name], (name, check["message"])
    for name, (check, _, line, key) in syntax.items():
        if check is None:
            # The probes' canal is on one territory of the tiny board: 2.x refuses a canal on other
            # than two (proved by that check's own probe), the one error its holder may have.
            assert all("Wrong number of sea zones" in e for e in errors[name]), (name, errors[name])
        elif check["status"] != "not_checked":
            assert _probe_refused(check, "2.x", errors[name], name, line, key), (name, key, errors[name])
    for name, (probe, refused, lines) in sorted(variants.items()):
        if refused:
            assert _refused_as_expected(errors[name], probe, "2.x", name, lines), (name, errors[name])
    assert sum(not e for e in errors.values()) >= len(variants) // 4


def test_issue_examples_are_refused_at_the_yaml_line(tmp_path: Path) -> None:
    write_tree(
        tmp_path,
        {
            "rules/child/game.yaml": """
                extends: lhtr
                units:
                  artillery: {carrierCapacity: 2}
                  destroyer: {isCombatTransport: true}
                  factory: {isFactory: false, isConstruction: true}
            """
        },
    )
    result = run_cli("validate", "child", cwd=tmp_path)
    assert result.code == 1
    assert [line for line in result.err.splitlines() if line.startswith("rules/child")] == [
        "rules/child/game.yaml:3:15: units.artillery.carrierCapacity: carrierCapacity is refused on a land unit "
        '(neither isAir nor isSea); TripleA 1.9 and 2.x refuse the game: "land units cannot have certain '
        'properties" (UnitAttachment.validate)',
        "rules/child/game.yaml:4:15: units.destroyer.isCombatTransport: isCombatTransport needs a transportCapacity "
        'of 1 or more; TripleA 1.9 and 2.x refuse the game: "cannot have isCombatTransport on unit without '
        'transportCapacity" (UnitAttachment.validate)',
        "rules/child/game.yaml:5:31: units.factory.isConstruction: isConstruction needs constructionType and "
        "constructionsPerTerrPerTypePerTurn and maxConstructionsPerTypePerTerr of 0 or more; TripleA 1.9 and 2.x "
        'refuse the game: "Constructions must have constructionType and positive constructionsPerTerrPerType and '
        'maxConstructionsPerType" (UnitAttachment.validate)',
    ]
    assert not (tmp_path / "output").exists()
    built = run_cli("build", "child", cwd=tmp_path)
    assert built.code == 1 and not (tmp_path / "output").exists()


def test_validate_xml_reports_engine_checks_at_the_xml_line(tmp_path: Path) -> None:
    text = (ROOT / "tests" / "data" / "xml" / "lhtr.xml").read_text(encoding="utf-8")
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if 'attachTo="artillery"' in line and "unitAttachment" in line)
    lines.insert(at + 1, '      <option name="carrierCapacity" value="2"/>')
    (tmp_path / "game.xml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = run_cli("validate", "--target", "1.9", "game.xml", cwd=tmp_path)
    assert result.code == 1
    refused = "units.artillery.carrierCapacity: carrierCapacity is refused on a land unit"
    assert f"game.xml:{at + 2}:1: {refused}" in result.err


def test_resolve_option_knows_every_rule_option_of_units() -> None:
    for engine in ENGINES:
        for check in _rule_checks(engine):
            if check["class"] == "UnitAttachment":
                for alternative in check["rule"]["alternatives"]:
                    for condition in alternative.get("all", []) + alternative.get("any", []):
                        name = condition[0]
                        assert name.startswith("property:") or resolve_option(engine, "UnitAttachment", name)


def test_the_option_a_shortcut_writes_is_blamed_and_a_value_is_refused_once(tmp_path: Path) -> None:
    # isMarine: true sets isMarine itself (to 1): it is the option to change on an aircraft, not isAir.
    # A value outside the option's own range is one problem: the option check says it, the engine's
    # rule on the same value does not say it again.
    write_tree(
        tmp_path,
        {
            "rules/child/game.yaml": """
                extends: lhtr
                units:
                  fighter: {isMarine: true}
                  infantry: {hitPoints: 0}
            """
        },
    )
    result = run_cli("validate", "child", cwd=tmp_path)
    assert result.code == 1
    assert [line for line in result.err.splitlines() if line.startswith("rules/child")] == [
        "rules/child/game.yaml:3:13: units.fighter.isMarine: isMarine is refused on an air unit (isAir: true); "
        'leave it out or make the unit a land or sea unit; TripleA 1.9 and 2.x refuse the game: "air units cannot '
        'have certain properties" (UnitAttachment.validate)',
        "rules/child/game.yaml:4:14: units.infantry.hitPoints: 0 < minimum 1 (syntax: int>=1)",
    ]
