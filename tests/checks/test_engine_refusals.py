"""What the engines refuse outside the attachments' options: the parser's own element parsing.

* the four games of issue 45 that 2.7 refused and `validate` passed (children of aare-2x), each
  refused at its YAML line with the engine's words before anything is written;
* a `not_checked` entry that carries `probeSpecs` is one a spec cannot write: each of its games is
  refused by the spec model itself, before any engine check (so no engine ever sees it);
* every `spec_check` of the parser's (checks/parser_rules.py) answers a catalog entry.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from generator.catalog import ENGINES
from generator.catalog.checks import load_checks
from generator.checks.engine_rules import engine_text
from generator.checks.parser_rules import PARSER_CHECKS
from tests.helpers import ROOT, TINY, run_cli, write_tree

AARE_2X_CHILDREN = {
    "dup": "production_frontiers:\n  productionBritish: [buyInfantry, buyInfantry]\n",
    "hyper": "technologies:\n  betterSubs: {tech: hyperSubs}\n",
    "damaged": "territories:\n  United Kingdom:\n    damaged_units: [{unit: battleship, owner: British, hits: 2}]\n",
    "abilities": "technologies:\n  betterSubs: {tech: superSub, attackBonus: [[1, submarine]]}\n",
}
BUILTIN = (
    "aARadar, destroyerBombard, heavyBomber, improvedArtillerySupport, increasedFactoryProduction, "
    "industrialTechnology, jetPower, longRangeAir, mechanizedInfantry, paratroopers, rocket, shipyards, superSub, "
    "warBonds"
)


def test_the_issue_games_are_refused_at_their_yaml_line(tmp_path: Path) -> None:
    write_tree(tmp_path, {f"rules/{n}/game.yaml": "extends: aare-2x\n" + t for n, t in AARE_2X_CHILDREN.items()})
    result = run_cli("validate", *AARE_2X_CHILDREN, cwd=tmp_path)
    assert result.code == 1
    errors = sorted(line for line in result.err.splitlines() if line.startswith("rules/"))
    assert errors == [
        "rules/abilities/game.yaml:3:32: technologies.betterSubs.attackBonus: betterSubs names the built-in advance "
        "superSub (tech), which takes that advance's abilities: it cannot have abilities of its own; leave tech out to "
        "make an advance of your own, or the abilities to use superSub's; TripleA 2.x refuses the game: \"A custom "
        'Generic Tech Advance naming a hardcoded tech, may not have a Tech Ability Attachment!" '
        "(TechAbilityAttachment.validate)",
        "rules/damaged/game.yaml:4:56: territories.'United Kingdom'.damaged_units[0].hits: battleship has 2 hit "
        'points: it can start with at most 1 hit taken; TripleA 2.x refuses the game: "Unit placement issue for unit '
        "type … in territory …: hitsTaken is …, but cannot be less than zero or greater than … (one less than total "
        'hitPoints)" (GameParser.parseUnitPlacement; 2.7: "hitsTaken cannot be less than zero or greater than one less '
        'than total hitPoints")',
        "rules/dup/game.yaml:3:36: production_frontiers.productionBritish[1]: buyInfantry is listed twice in frontier "
        'productionBritish (first as item 0): list it once; TripleA 2.x refuses the game: "Rule already added:" '
        "(ProductionFrontier.addRule)",
        f"rules/hyper/game.yaml:3:16: technologies.betterSubs.tech: tech 'hyperSubs' is not one of the engine's "
        f"built-in advances ({BUILTIN}); leave tech out for an advance of your own; TripleA 2.x refuses the game: "
        '"… is not a valid technology" (TechAdvance.findDefinedAdvanceAndCreateAdvance)',
    ]
    built = run_cli("build", *AARE_2X_CHILDREN, cwd=tmp_path)
    assert built.code == 1 and not (tmp_path / "output").exists()


def test_portable_games_hear_both_engines(tmp_path: Path) -> None:
    # The same mistakes in a game for both engines: both refuse them, said once with the words they share.
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    child = "production_frontiers:\n  standard: [buyInfantry, buyInfantry]\n"
    child += "technologies:\n  betterSubs: {tech: hyperSubs}\n"
    write_tree(tmp_path, {"rules/child/game.yaml": "extends: tiny\n" + child})
    result = run_cli("validate", "child", cwd=tmp_path)
    errors = [line for line in result.err.splitlines() if line.startswith("rules/child")]
    assert errors == [
        "rules/child/game.yaml:3:27: production_frontiers.standard[1]: buyInfantry is listed twice in frontier "
        'standard (first as item 0): list it once; TripleA 1.9 and 2.x refuse the game: "Rule already added:" '
        "(ProductionFrontier.addRule)",
        f"rules/child/game.yaml:5:16: technologies.betterSubs.tech: tech 'hyperSubs' is not one of the engine's "
        f"built-in advances ({BUILTIN}); leave tech out for an advance of your own; TripleA 1.9 and 2.x refuse the "
        'game: "… is not a valid technology" (TechAdvance.findDefinedAdvanceAndCreateAdvance)',
    ]


def test_a_not_checked_refusal_with_games_is_one_a_spec_cannot_write(tmp_path: Path) -> None:
    probes = {}
    for engine in ENGINES:
        for check in load_checks(engine)["checks"]:
            if check["status"] == "not_checked":
                for text in check.get("probeSpecs", []):
                    probes[f"n{len(probes):02d}"] = (check["message"], text)
    assert len(probes) >= 4
    files = {f"rules/{name}/game.yaml": "extends: tiny\n" + text for name, (_, text) in probes.items()}
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    write_tree(tmp_path, files)
    result = run_cli("validate", *probes, cwd=tmp_path)
    for name, (message, _) in probes.items():
        said = [line for line in result.err.splitlines() if line.startswith(f"rules/{name}/")]
        # the spec model's own words, not an engine's: the game never gets as far as an engine
        assert said and not any("TripleA" in line for line in said), (message, said)


def test_every_parser_check_answers_a_catalog_entry() -> None:
    messages = [
        (c["class"], c["message"]) for e in ENGINES for c in load_checks(e)["checks"] if c["status"] == "spec_check"
    ]
    for words in PARSER_CHECKS:
        cls, _, text = words.rpartition(": ")
        assert any(text in m and cls in ("", c) for c, m in messages), words


def _errors_of(tmp_path: Path, child: str, *args: str) -> list[str]:
    shutil.copytree(TINY, tmp_path / "rules" / "tiny")
    write_tree(tmp_path, {"rules/child/game.yaml": "extends: tiny\n" + child})
    result = run_cli("validate", *args, "child", cwd=tmp_path)
    return [line for line in result.err.splitlines() if line.startswith("rules/child")]


CAN_NOT_TARGET = (
    "canNotTarget cannot go with isSub or isSuicide: 2.x refuses canNotTarget written after them; replace isSub "
    "with the individual sub options (isFirstStrike, canEvade, canNotBeTargetedBy, canMoveThroughEnemies, "
    "canBeMovedThroughByEnemies...) or isSuicide with isSuicideOnAttack/isSuicideOnDefense; TripleA 2.x refuses the "
    "game: \"Can't use canNotTarget with isSub/isSuicide, replace isSub with individual sub properties or isSuicide "
    'with isSuicideOnAttack/isSuicideOnDefense" (UnitAttachment.setCanNotTarget)'
)


def test_can_not_target_before_is_sub_is_dropped_not_refused(tmp_path: Path) -> None:
    # 2.x's setIsSub resets canNotTarget: written first, it loads and is dropped (a warning);
    # written after isSub, setCanNotTarget refuses the game.
    child = "units:\n  infantry: {canNotTarget: [infantry], isSub: true}\n  tank: {movement: 2, isSub: true, "
    child += "canNotTarget: [infantry]}\n"
    said = [line for line in _errors_of(tmp_path, child, "--target", "2.x") if ".canNotTarget: " in line]
    assert said == [
        "rules/child/game.yaml:3:14: warning: units.infantry.canNotTarget: canNotTarget is written before isSub, "
        "whose setter resets it: the unit keeps the default targets; write canNotTarget after isSub (with isSub "
        "false), or replace isSub with the individual sub options; TripleA 2.x silently ignores it "
        "(UnitAttachment.setIsSub resets canNotTarget)",
        f"rules/child/game.yaml:4:36: units.tank.canNotTarget: {CAN_NOT_TARGET}",
    ]


def test_a_trigger_naming_an_unknown_property_fails_when_it_fires(tmp_path: Path) -> None:
    # The parser does not look inside a property change: the game loads, and fails in play.
    child = (
        "players:\n  Reds:\n    attachments:\n      triggerAttachmentRock:\n"
        "        {unitType: infantry, unitProperty: 'true:isInfantry', when: 'before:redsPurchase'}\n"
    )
    assert _errors_of(tmp_path, child, "--target", "2.x") == [
        "rules/child/game.yaml:6:30: players.Reds.attachments.triggerAttachmentRock.unitProperty: 'isInfantry' is "
        "not an option of UnitAttachment/UnitSupportAttachment (syntax: [-clear-|-reset-]newValue:<option of "
        "UnitAttachment|UnitSupportAttachment>); TripleA 2.x loads the game and fails when triggerAttachmentRock "
        "fires: \"unknown property named '…'\" (DynamicallyModifiable.getPropertyOrThrow, from ChangeAttachmentChange)"
    ]


def test_where_27_words_a_quoted_refusal_otherwise_its_words_are_quoted_too() -> None:
    # The 2.x catalog reads the source's HEAD; players have 2.7 (tag 2.7.14996, its digest beside
    # HEAD's). Every refusal validate quotes is 2.7's own words, or carries 2.7's (in27) beside them.
    digest = json.loads((ROOT / "scripts" / "catalog" / "raw" / "engine-checks-2.7.source.json").read_text("utf-8"))
    said_27 = {(c["class"], c["method"], engine_text(c["message"])) for c in digest["checks"]}
    quoted = 0
    for check in load_checks("2.x")["checks"]:
        found_by_parser = check["status"] == "spec_check" and any(
            words.rpartition(": ")[2] in check["message"] for words in PARSER_CHECKS
        )
        if check["status"] != "rule" and not found_by_parser:
            continue
        quoted += 1
        said = (check["class"], check["method"], engine_text(check["message"]))
        old = check.get("in27")
        if old is None:
            assert said in said_27, said
        else:
            assert said not in said_27, said
            assert (check["class"], old.get("method", check["method"]), engine_text(old["message"])) in said_27, old
    assert quoted >= 30
