"""Rule patterns: a use builds into what the engine reads, a mistake is said at the use in the
pattern's words, `diff` compares uses, `patterns` prints the reference, and the variants written
with patterns stay short (tests/emit/test_game_goldens.py proves they are the same games as before)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator.diagnostics import Mark
from generator.engine.harness import dump
from generator.spec.load import load_text
from generator.spec.locate import locate
from generator.spec.model import Spec
from generator.spec.patterns import PATTERNS
from generator.spec.patterns.expansion import expand_patterns
from generator.spec.patterns.reference import examples_make, reference_markdown
from generator.spec.resolve import Rules, resolve
from tests.helpers import ROOT, TINY, run_cli, variant_spec

FIXTURE = ROOT / "tests" / "fixtures" / "patterns"


def _project(tmp: Path, edits: dict[str, str] | None = None, name: str = "patterns") -> Path:
    """rules/tiny plus the patterns fixture as rules/<name>, with text replaced by `edits`."""
    shutil.copytree(TINY, tmp / "rules" / "tiny")
    text = (FIXTURE / "game.yaml").read_text(encoding="utf-8")
    for old, new in (edits or {}).items():
        assert old in text, old
        text = text.replace(old, new)
    (tmp / "rules" / name).mkdir()
    (tmp / "rules" / name / "game.yaml").write_text(text, encoding="utf-8")
    return tmp


@pytest.mark.engine
def test_the_uses_become_what_the_engine_reads(tmp_path: Path) -> None:
    project = _project(tmp_path)
    result = run_cli("build", "patterns", cwd=project)
    assert result.code == 0, result.err
    game = dump([project / "output" / "games" / "patterns.xml"])[str(project / "output" / "games" / "patterns.xml")]
    assert "error" not in game and game["saxErrors"] == []
    players = {p["name"]: p["attachments"] for p in game["players"]}
    # The Reds declare Levy in a window of the schedule, which takes their first slot and pays 5.
    declare = players["Reds"]["userActionAttachmentReLevy"]["options"]
    assert sorted(declare["conditions"]) == ["conditionAttachmentReLevyAvailable", "conditionAttachmentReMayDeclare"]
    levy = players["Reds"]["triggerAttachmentReLevyDeclare"]["options"]
    assert (levy["resource"], levy["resourceCount"]) == ("PUs", 5)
    # The Blues' Fort is a choice of place at Mobilize: a button for Beta, held by the Blues.
    fort = players["Blues"]["userActionAttachmentBlFortInBeta"]["options"]
    assert sorted(fort["conditions"]) == [
        "conditionAttachmentBlAtMobilize",
        "conditionAttachmentBlFortPending",
        "conditionAttachmentBlOwnsBeta",
    ]
    assert [s["name"] for s in game["sequence"]][-4:] == [
        "redsUserActions", "redsMobilizeUserActions", "bluesUserActions", "bluesMobilizeUserActions",
    ]  # fmt: skip


CASES: dict[str, tuple[dict[str, str], list[str]]] = {
    "parameter_misspelt": (
        {"    title: Levy\n": "    titel: Levy\n"},
        [
            "rules/broken/game.yaml:22:5: national_advantages.ReLevy.title: missing required key 'title'",
            "rules/broken/game.yaml:23:5: national_advantages.ReLevy.titel: unknown key 'titel' "
            "(did you mean 'title'?)",
        ],
    ),
    "parameter_of_the_wrong_type": (
        {"gain: {PUs: 5}": "gain: {PUs: five}"},
        ["rules/broken/game.yaml:24:17: national_advantages.ReLevy.gain.PUs: expected a whole number, got 'five'"],
    ),
    "player_without_a_schedule": (
        {"    player: Reds\n    title: Levy": "    player: Greens\n    title: Levy"},
        [
            "rules/broken/game.yaml:22:13: national_advantages.ReLevy.player: Greens is in no declaration schedule "
            "(advantage_schedules)"
        ],
    ),
    "place_not_in_the_schedule": (
        {"in: [Beta]": "in: [Bta]"},
        [
            "rules/broken/game.yaml:28:38: national_advantages.BlFort.choose.in[0]: Blues has no place 'Bta' in its "
            "declaration schedule (did you mean 'Beta'?)"
        ],
    ),
    "what_it_makes_names_an_unknown_resource": (
        {"gain: {PUs: 5}": "gain: {PU: 5}"},
        [
            "rules/broken/game.yaml:24:12: national_advantages.ReLevy: unknown resource 'PU' (did you mean 'PUs'?) "
            "(in players.Reds.attachments.triggerAttachmentReLevyDeclare.resource, made by national advantage ReLevy)"
        ],
    ),
    "the_spec_writes_what_a_use_makes": (
        {
            "national_advantages:\n": "players:\n  Reds:\n    attachments:\n"
            "      conditionAttachmentReLevyActive: {switch: true}\nnational_advantages:\n"
        },
        [
            "rules/broken/game.yaml:25:3: national_advantages.ReLevy: national advantage ReLevy makes "
            "players.Reds.attachments.conditionAttachmentReLevyActive, but the spec writes it at "
            "rules/broken/game.yaml:23:7; change one of them"
        ],
    ),
    "deleting_what_a_use_makes": (
        {
            "national_advantages:\n": "players:\n  Reds:\n    attachments:\n"
            "      conditionAttachmentReLevyActive: !delete\nnational_advantages:\n"
        },
        [
            "rules/broken/game.yaml:23:7: players.Reds.attachments.conditionAttachmentReLevyActive: national advantage "
            "ReLevy makes this: delete the use instead (national_advantages.ReLevy: !delete)"
        ],
    ),
    "sea_place_held_by_an_unknown_place": (
        {"places: {Beta: Beta}": "places: {Beta: Beta, SZ: {at: Beta, held: Betta}}"},
        [
            "rules/broken/game.yaml:19:81: advantage_schedules.Tiny.nations.Blues.places.SZ.held: Blues has no land "
            "place 'Betta' to hold (did you mean 'Beta'?)"
        ],
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_mistake_is_said_at_the_use(tmp_path: Path, case: str) -> None:
    edits, expected = CASES[case]
    project = _project(tmp_path, edits, name="broken")
    result = run_cli("build", "broken", cwd=project)
    assert result.code == 1, result
    # Left out: the warning that the map is not installed, and the count.
    errors = [line for line in result.err.splitlines() if "tiny_map" not in line][:-1]
    assert errors == expected
    assert not (project / "output").exists()


def test_what_a_use_makes_is_said_at_the_parameter_it_repeats_else_at_the_use(tmp_path: Path) -> None:
    """A made value that is one of the use's own texts is said at that text's line; what the model
    computes (a name, a count it copies, a place read from the schedule, another use) at the use."""
    project = _project(tmp_path)
    resolved, problems = resolve(Rules(project / "rules", "rules"), "patterns")
    assert resolved is not None, problems
    tree, problems, _ = expand_patterns(resolved.tree)
    assert problems == []

    def at(*path: str | int) -> tuple[int, int]:
        mark = locate(tree, path)
        assert isinstance(mark, Mark) and mark.file == "rules/patterns/game.yaml", mark
        return mark.line, mark.col

    levy = ("players", "Reds", "attachments", "triggerAttachmentReLevyDeclare")
    fort = ("players", "Reds", "attachments", "triggerAttachmentBlFortInBeta")
    assert at(*levy, "resource") == (24, 12)  # the name given as a key: gain: {PUs: 5}
    assert at(*levy, "players", 0) == (22, 13)  # player: Reds
    assert at(*levy) == at(*levy, "resourceCount") == at(*levy, "uses") == (21, 3)  # the use: ReLevy
    assert at(*fort, "placement", 0, 1) == (28, 22)  # its units: [infantry]
    assert at(*fort, "placement", 0, 0) == (25, 3)  # Beta, read from the schedule: said at the use, BlFort
    assert at("sequence", "redsUserActions", "player") == (11, 15)  # players: {Reds: reds, ...}
    assert at("sequence", "redsUserActions", "delegate") == (12, 27)  # phases: {UserActions: userActions...}


def test_diff_compares_the_uses_not_what_they_make(tmp_path: Path) -> None:
    project = _project(tmp_path)
    child = project / "rules" / "child"
    child.mkdir()
    (child / "game.yaml").write_text(
        "extends: patterns\nnational_advantages:\n  ReLevy: {gain: {PUs: 7}}\n  BlFort: !delete\n", encoding="utf-8"
    )
    result = run_cli("diff", "patterns", "child", cwd=project)
    assert result.code == 0, result.err
    assert result.out.splitlines() == [
        "patterns → child: 2 changes (2 national advantages)",
        "",
        "National advantages (2)",
        "  - BlFort removed (was player Blues, title Fort, choose.units infantry, choose.in Beta)",
        "  ~ ReLevy: gain.PUs 5 → 7",
    ]


def test_every_pattern_is_a_spec_key_with_an_example_that_reads_and_makes_what_the_reference_shows() -> None:
    """Each example validates, and the reference's "What it makes" block reads back (as a spec file is
    read) as exactly what the model makes of the example: the page shows the pattern's real output."""
    fields = Spec.model_fields
    made = examples_make()
    page = reference_markdown()
    for pattern in PATTERNS:
        assert pattern.collection in fields, pattern.collection
        [(key, uses)] = yaml.safe_load(pattern.example).items()
        assert key == pattern.collection
        for params in uses.values():
            pattern.model_validate(params)
        section = page.split(f"## `{pattern.collection}`: {pattern.noun}\n", 1)[1].split("\n## ", 1)[0]
        block = section.split("What it makes:\n\n```yaml\n", 1)[1].split("```", 1)[0]
        shown, problems = load_text(block, "<reference>")
        assert problems == [] and shown == made[pattern.collection], pattern.collection
        assert made[pattern.collection], pattern.collection  # an example that makes nothing shows nothing


def test_patterns_prints_the_reference_and_the_committed_one_is_current() -> None:
    result = run_cli("patterns", cwd=ROOT)
    assert result.code == 0 and result.out == reference_markdown()
    for pattern in PATTERNS:
        assert f"## `{pattern.collection}`: {pattern.noun}" in result.out
    assert "| `gain` | {name: whole number} | default `{}` | A resource received once, when declared: {PUs: 5}. |" in (
        result.out
    )
    committed = (ROOT / "docs" / "reference" / "patterns.md").read_text(encoding="utf-8")
    assert committed.endswith("\n\n" + reference_markdown()), "run: python -m generator.docs"
    one = run_cli("patterns", "treaties", cwd=ROOT)
    assert one.out.startswith("## `treaties`: treaty") and "## `turns`" not in one.out
    assert run_cli("patterns", "nothing", cwd=ROOT).code == 2


def _spec_lines(folder: Path) -> int:
    """Non-blank, non-comment lines of a variant's spec files outside its ledger. A line that only
    deletes an inherited element (`name: !delete`) is not counted: a child leaves out its parent's
    rules its document lacks one element a line, and that states no rule of its own."""
    count = 0
    for path in sorted(folder.glob("*.yaml")):
        if path.name != "ledger.yaml":
            lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]
            count += sum(1 for line in lines if line and not line.startswith("#") and not _DELETION.fullmatch(line))
    return count


_DELETION = re.compile(r"[^:{}]+: !delete\s*")


def _enforced(spec: Any) -> int:
    return sum(1 for entry in spec.rule_ledger.values() if entry.fidelity.grade != "notes-only")


def test_the_variants_read_like_their_rules() -> None:
    """A spec states rules, not plumbing: AARe in at most 600 lines outside its ledger, and no
    ledgered variant more than 12 lines per rule it enforces."""
    assert _spec_lines(ROOT / "rules" / "aare") <= 600
    for name in Rules(ROOT / "rules").variants():
        spec = variant_spec(name)
        if spec.rule_ledger:
            lines, rules = _spec_lines(ROOT / "rules" / name), _enforced(spec)
            assert lines <= 12 * rules, f"{name}: {lines} lines for {rules} enforced rules"


def test_pattern_defaults_give_a_parameter_once_per_variant(tmp_path: Path) -> None:
    """`pattern_defaults: {triggers_on: Reds}` makes the same game as writing it in each use; a use's
    own value wins; a default no pattern takes is said at its line; a default of the wrong type is
    said at the default's line."""
    written = _project(tmp_path / "written")
    assert run_cli("build", "patterns", cwd=written).code == 0
    defaulted = _project(
        tmp_path / "defaulted",
        {"advantage_schedules:\n": "pattern_defaults: {triggers_on: Reds}\nadvantage_schedules:\n",
         "    triggers_on: Reds\n": ""},
    )  # fmt: skip
    result = run_cli("build", "patterns", cwd=defaulted)
    assert result.code == 0, result.err
    game = "output/games/patterns.xml"
    assert (defaulted / game).read_bytes() == (written / game).read_bytes()
    own = _project(
        tmp_path / "own", {"advantage_schedules:\n": "pattern_defaults: {triggers_on: Blues}\nadvantage_schedules:\n"}
    )
    assert run_cli("build", "patterns", cwd=own).code == 0
    assert (own / game).read_bytes() == (written / game).read_bytes()
    cases = {
        "pattern_defaults: {trigers_on: Reds}\n": "rules/broken/game.yaml:13:20: pattern_defaults.trigers_on: no rule "
        "pattern takes a parameter 'trigers_on' (did you mean 'triggers_on'?)",
        "pattern_defaults: {triggers_on: [Reds]}\n": "rules/broken/game.yaml:13:33: "
        "advantage_schedules.Tiny.triggers_on: expected text, got a list",
    }
    for index, (line, expected) in enumerate(cases.items()):
        broken = _project(
            tmp_path / f"broken{index}",
            {"advantage_schedules:\n": line + "advantage_schedules:\n", "    triggers_on: Reds\n": ""},
            name="broken",
        )
        result = run_cli("build", "broken", cwd=broken)
        assert result.code == 1
        assert expected in result.err.splitlines(), result.err
