"""AARe rules proven in the real TripleA 1.9 engine, one mechanism family per test.

Each test runs a scenario of AARe's proofs (rules/aare/proofs/, played by `forge.Scenario`) on the committed
`output/games/aare.xml` and asserts on the facts the engine reports: a user action declaring a
national advantage and placing free units, the declaration schedule, trigger-made price changes,
combat bonuses switched on and off, a tech ability, the Russia-Japan treaty (politics), convoy
raids (blockade) and the 15-victory-city win. Every scenario also checks that the game data still
copies (the AI copies it every purchase phase).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import yaml

from generator.catalog.scenarios import SCENARIOS
from generator.engine.scenario import run_scenarios
from tests.helpers import ROOT
from tests.proofs import Facts, game_for_engine, map_files_for_engine, proves

AARE = ("aare", "aare-2x")  # aare-2x: the same game as engine 1.9 reads it, without the railway
# AARe's national advantages by their user actions' names: each has its declare-<name> scenario
# (rules/aare/proofs/proofs.yaml).
AARE_ADVANTAGES = tuple(name.removeprefix("declare-") for name in SCENARIOS if name.startswith("declare-"))
RU_NAS = {f"userActionAttachmentRu{n}" for n in ("Winter", "Railway", "T34", "LendLease", "MobileIndustry", "Siberian")}


@proves("advantage-placement", *AARE)
def test_declaring_an_advantage_places_free_units_each_mobilize(f: Facts) -> None:
    # Round 1, start of the Russian turn: the six Russian advantages (and ending the treaty).
    assert set(f["offeredAtStart"]) == RU_NAS | {"userActionAttachmentRuBreakTreaty"}
    assert f["declared"] is True
    # One advantage per nation in round 1: after declaring, no other advantage is offered.
    assert f["offeredAfterDeclaring"] == ["userActionAttachmentRuBreakTreaty"]
    # Mobilize: the three Siberian territories; placing one infantry uses this turn's placement.
    assert f["offeredAtMobilize"] == [
        "userActionAttachmentRuSiberianInBuryatia",
        "userActionAttachmentRuSiberianInSovietFarEast",
        "userActionAttachmentRuSiberianInYakut",
    ]
    assert f["yakutAfter"] == f["yakutBefore"] + 1
    assert f["offeredAfterPlacing"] == []
    # Next turn: another free infantry, and (round 2) the Allies' second advantage may be delayed to here.
    offered = set(f["offeredAtMobilizeRound2"])
    assert {"userActionAttachmentRuSiberianInBuryatia", "userActionAttachmentRuSiberianInYakut"} <= offered
    assert RU_NAS - {"userActionAttachmentRuSiberian"} <= offered
    assert "userActionAttachmentRuSiberian" not in offered  # each advantage once
    assert f["buryatiaAfter"] == f["buryatiaBefore"] + 1
    assert f["cloneable"] is True


@proves("schedule", *AARE)
def test_declaration_schedule_four_per_side(f: Facts) -> None:
    assert len(f["germanRound1Start"]) == 6
    assert f["germanRound1AfterDeclaring"] == []
    assert f["germanRound1Mobilize"] == []  # no delayed advantage in round 1
    # Round 2: Germany may declare its second at the start, or delay it to Mobilize.
    assert "userActionAttachmentGeLuftwaffe" not in f["germanRound2Start"]
    assert len(f["germanRound2Start"]) == 5
    assert f["germanRound2Mobilize"] == f["germanRound2Start"]
    # A delayed advantage's free units are chosen in the same Mobilize step.
    assert f["germanRound2AfterDelayed"] == [
        "userActionAttachmentGeWolfPacksInSZ14",
        "userActionAttachmentGeWolfPacksInSZ5",
    ]
    # One Allied nation gets a second advantage: the British take it, the Americans then cannot.
    assert len(f["britishRound2Start"]) == 5
    assert f["americanRound2Start"] == []
    assert f["americanRound2Mobilize"] == []
    assert f["germanRound3Mobilize"] == []  # both German advantages used
    assert f["cloneable"] is True


@proves("advantages-second", *AARE)
def test_second_advantages_in_round_2_take_their_sides_slot(f: Facts) -> None:
    # Nobody declared in round 1: round 2 offers every advantage again (the second slot).
    assert set(f["russianStart2"]) >= RU_NAS
    # Russia takes the Allies' second advantage: nothing more for Russia, Britain or the US.
    assert f["russianAfterDeclaring2"] == ["userActionAttachmentRuBreakTreaty"]
    assert f["britishStart2"] == [] and f["britishMobilize2"] == []
    assert f["americanStart2"] == []
    # Germany's second is its own: declared at the start, none is left for its Mobilize.
    assert len(f["germanStart2"]) == 6
    assert f["germanAfterDeclaring2"] == [] and f["germanMobilize2"] == []
    # Russia waits: Britain may take the Allies' second, and then the US may not.
    assert len(f["britishStart2WhenRussiaWaits"]) == 6
    assert f["britishAfterDeclaring2"] == []
    assert f["americanStart2AfterBritain"] == [] and f["americanMobilize2AfterBritain"] == []


@proves("prices", *AARE)
def test_declaring_changes_prices_through_production_rules(f: Facts) -> None:
    assert f["germanBefore"]["buyFighter"] == 10
    # Luftwaffe: fighters 9, the first one 5 (for the next purchase only).
    assert "buyFighter" not in f["germanAfter"]
    assert f["germanAfter"]["buyFighterLuftwaffe"] == 9
    assert f["germanAfter"]["buyFighterRudel"] == 5
    assert "buyFighterRudel" not in f["germanAfterPurchase"]
    assert f["germanAfterPurchase"]["buyFighterLuftwaffe"] == 9
    assert f["britishFrontierUntouched"]["buyFighter"] == 10  # per-nation frontiers
    # Royal Navy: destroyers 9 instead of 10, and a free destroyer off the UK at Mobilize.
    assert f["britishBefore"]["buyDestroyer"] == 10
    assert "buyDestroyer" not in f["britishAfter"]
    assert f["britishAfter"]["buyDestroyerRoyalNavy"] == 9
    assert f["destroyersOffUkAfter"] == f["destroyersOffUkBefore"] + 1
    # AARe's base prices.
    assert {k: f["britishBefore"][k] for k in ("buyFactory", "buyBomber", "buyCarrier", "buyBattleship")} == {
        "buyFactory": 12,
        "buyBomber": 14,
        "buyCarrier": 14,
        "buyBattleship": 20,
    }
    assert f["cloneable"] is True


@proves("combat-bonus", *AARE)
def test_combat_bonuses_switch_on_and_off(f: Facts) -> None:
    plain = {"attack": 1, "defence": 2}
    assert f["russianInfantryBefore"] == plain
    # Russian Winter is a right to call a severe winter; declaring alone changes nothing.
    assert f["russianInfantryAfterDeclaring"] == plain
    assert f["severeWinterOffered"] is True
    assert f["russianInfantryWinter"] == {"attack": 2, "defence": 3}
    assert f["americanInfantryWinter"] == plain  # Russian infantry only
    assert f["russianInfantryWithArtilleryWinter"] == 3  # stacks with artillery support
    assert f["severeWinterOfferedAgain"] is False  # once per game
    assert f["severeWinterOfferedNextRound"] is False
    assert f["russianInfantryNextTurn"] == {"attack": 2, "defence": 3}
    assert f["russianInfantryAfterNextTurn"] == plain  # over after the next Russian turn
    # Yamato: Japanese battleships 5/5; British ones stay 4/4.
    assert f["japaneseBattleshipBefore"] == {"attack": 4, "defence": 4}
    assert f["japaneseBattleshipAfter"] == {"attack": 5, "defence": 5}
    assert f["britishBattleship"] == {"attack": 4, "defence": 4}
    # Banzai: Japanese infantry attack at 2, 3 with artillery; other nations' infantry unchanged.
    assert f["japaneseInfantryBanzai"] == {"attack": 2, "defence": 2}
    assert f["japaneseInfantryWithArtilleryBanzai"] == 3
    assert f["germanInfantry"] == plain
    assert f["cloneable"] is True


@proves("tech-ability", *AARE)
def test_tech_ability_mechanized_infantry(f: Facts) -> None:
    before, after = f["notDeclared"], f["declared"]
    assert (before["americanMovement"], before["americanBlitz"]) == (1, False)
    assert before["twoTerritoryMoveError"] is not None  # the engine refuses the double move
    assert (after["americanMovement"], after["americanBlitz"]) == (2, True)
    assert after["americanTechs"] == ["NaMechanizedInfantry"]
    assert after["britishMovement"] == 1
    assert after["twoTerritoryMoveError"] is None
    assert after["infantryInWesternUs"] == before["infantryInWesternUs"] + 2
    assert after["easternUsAfter"] == after["easternUsBefore"] + 2
    assert after["cloneable"] is True


@proves("immediate-units", *AARE)
def test_units_for_immediate_use_and_at_mobilize(f: Facts) -> None:
    # Afrika Korps: an infantry at once (and it may move this turn), then infantry, artillery, armour.
    assert f["libyaAfterDeclaring"]["infantry"] == f["libyaBefore"]["infantry"] + 1
    assert f["libyaUnitsThatCanMove"] == sum(f["libyaAfterDeclaring"].values())
    assert f["libyaAtMobilize"] == f["libyaAfterDeclaring"]
    assert f["libyaAfterMobilize"] == {
        "armour": f["libyaAtMobilize"]["armour"] + 1,
        "artillery": f["libyaAtMobilize"]["artillery"] + 1,
        "infantry": f["libyaAtMobilize"]["infantry"] + 1,
    }
    assert f["libyaRound2"] == f["libyaAfterMobilize"]  # once only
    assert f["libyaPlacedAfterLosingIt"] == 0  # placed only in a Libya Germany holds
    # German 88's: an artillery in Eastern Europe at once, another in a Grey territory at Mobilize.
    assert f["easternEuropeArtilleryAfter"] == f["easternEuropeArtilleryBefore"] + 1
    assert len(f["offered88sAtMobilize"]) == 11
    assert f["germanyArtillery"] == 1
    assert f["cloneable"] is True and f["cloneable88s"] is True


@proves("treaty", *AARE)
def test_treaty_blocks_attacks_until_ended(f: Facts) -> None:
    assert f["relationAtStart"] == "NonAggression"
    assert f["atWarAtStart"] is False
    assert f["attackDuringTreaty"] != "allowed"
    assert f["offeredToJapan"] is True
    assert f["relationAfterJapanBreaks"] == "War"
    assert f["atWarAfterJapanBreaks"] is True
    assert f["russiaInfantryAfter"] == f["russiaInfantryBefore"] + 4
    assert f["offeredAfterBreaking"] is False
    assert f["attackAfterBreaking"] == "allowed"
    assert f["russiaInfantryGainedWithConscripts"] == 6  # Siberian Conscripts
    assert f["japanInfantryGainedWhenRussiaBreaks"] == 4
    # Ended means ended: in later turns neither side is offered the action (nor paid again).
    assert f["offeredToRussiaNextRound"] is False and f["offeredToJapanNextRound"] is False
    assert f["offeredToJapanAfterRussiaBreaks"] is False
    assert f["offeredToRussiaAfterBreakingNextRound"] is False
    assert f["othersGainedInJapanWhenRussiaBreaks"] == 0  # the four infantry are Japan's alone
    assert f["offeredToRussiaAtMobilize"] is False  # at the start of its turn only
    assert f["offeredToJapanAtMobilize"] is False
    # Not ended in round 1, either side may end it in round 2.
    assert f["offeredToRussiaInRound2"] is True and f["offeredToJapanInRound2"] is True
    assert f["relationAfterMoscowFalls"] == "War" and f["japanInfantryGainedWhenMoscowFalls"] == 0
    # A captured capital voids the treaty, with no infantry.
    assert f["relationAfterCapitalFalls"] == "War"
    assert f["russiaInfantryGainedWhenCapitalFalls"] == 0
    assert f["cloneable"] is True


@proves("convoy", *AARE)
def test_convoy_raids_cost_income(f: Facts) -> None:
    start, one, five = f["subs0"], f["subs1"], f["subs5"]
    # The German sub that starts in sea zone 8 already costs the UK 2 PUs.
    assert start["enemySubsNextToUk"] == {"8 Sea Zone": 1}
    assert start["britishIncome"] == start["britishProduction"] - 2
    assert start["japaneseIncome"] == start["japaneseProduction"]
    # One more German sub next to the UK: 2 PUs more; an American sub next to Japan: 2 PUs.
    assert one["britishIncome"] == start["britishIncome"] - 2
    assert one["japaneseIncome"] == one["japaneseProduction"] - 2
    # Damage is capped at the UK's value (8).
    assert five["britishIncome"] == five["britishProduction"] - 8
    # Germany is immune although a British sub sits next to Western Europe.
    assert one["germanIncome"] == one["germanProduction"] == 40


@proves("victory", *AARE)
def test_victory_cities_end_the_game(f: Facts) -> None:
    assert f["start"]["victoryCities"] == {"Allies": 9, "Axis": 6}
    assert f["start"]["gameOver"] is False
    assert f["allies10"]["gameOver"] is False
    assert f["allies11"]["victoryCities"]["Allies"] == 11
    assert f["allies11"]["gameOver"] is True
    assert f["allies11"]["gameOverBeforeRoundEnd"] is False  # only at the end of the round
    assert f["allies11"]["winners"] == ["Americans", "British", "Russians"]
    assert f["axis9"]["gameOver"] is False
    assert f["axis10"]["gameOver"] is True
    assert f["axis10"]["winners"] == ["Germans", "Japanese"]


@proves("advantage-strengths", *AARE)
def test_advantages_in_combat_on_the_aa_dice_and_at_the_purchase(f: Facts) -> None:
    # T-34s: armour defends at 4 in Red territories once declared (the battle's territory effect),
    # British armour there too (the ledger says so); not outside them.
    assert f["russianArmourInRussiaBefore"]["defence"] == 3
    assert f["russianArmourInRussia"]["defence"] == 4
    assert f["britishArmourInRussia"]["defence"] == 4
    assert f["russianArmourInPersia"]["defence"] == 3
    # Wolf Packs: German submarines attack at 3, others at 2.
    assert (f["germanSubmarineBefore"]["attack"], f["germanSubmarine"]["attack"]) == (2, 3)
    assert f["japaneseSubmarine"]["attack"] == 2
    # Radar: British AA guns hit on 2 of 6, German ones on 1.
    assert f["britishAaBefore"] == {"hitsOn": 1, "sides": 6}
    assert f["britishAa"] == {"hitsOn": 2, "sides": 6}
    assert f["germanAa"] == {"hitsOn": 1, "sides": 6}
    # Luftwaffe: two fighters bought at 9 each.
    assert f["buyLuftwaffeFighter"] == "null"
    assert (f["paidForTwoFighters"], f["fightersBought"]) == (18, 2)
    assert "buyFighter" not in f["germanFrontier"] and f["germanFrontier"]["buyFighterLuftwaffe"] == 9


@proves("tech-strengths", *AARE)
def test_jets_long_range_aircraft_and_combined_arms(f: Facts) -> None:
    before, after, british = f["germansBefore"], f["germansWithTechs"], f["britishMeanwhile"]
    # Jet fighters defend at 5; long range fighters move 6 and bombers 8; destroyers bombard at 3.
    assert (before["fighter"]["defence"], after["fighter"]["defence"]) == (4, 5)
    assert (before["fighterMovement"], after["fighterMovement"]) == (4, 6)
    assert (before["bomberMovement"], after["bomberMovement"]) == (6, 8)
    assert (before["destroyerCanBombard"], after["destroyerCanBombard"]) == (False, True)
    assert after["destroyerBombards"] == 3
    # Only the nation that gained the techs has them.
    assert british == before


@proves("colonial-convoys", *AARE)
def test_colonial_garrison_complex_makes_a_convoy_zone(f: Facts) -> None:
    without, garrison = f["noGarrison"], f["garrison"]
    assert (without["indiaFactories"], without["convoyZone35"]) == (0, False)
    assert garrison["offered"] is True
    assert (garrison["indiaFactories"], garrison["convoyZone35"]) == (1, True)
    # The Japanese submarine next to the new complex costs the UK 2 PUs.
    assert garrison["britishIncome"] == without["britishIncome"] - 2


# Every national advantage, declared and followed for two rounds (rules/aare/proofs/
# ScenarioAdvantages.java): what the engine did is committed as a reviewed golden per advantage
# (tests/goldens/scenarios/aare/), and a proof fails when any of it changes. Beyond the golden, what
# every advantage must do: change only its own nation's state when declared, take its nation's
# declaration for the round, and its Mobilize actions (if any) place its nation's units.
ADVANTAGE_GOLDENS = ROOT / "tests" / "goldens" / "scenarios"
NATIONS = {"Ru": "Russians", "Ge": "Germans", "Uk": "British", "Jp": "Japanese", "Us": "Americans"}


def _golden(variant: str, scenario: str) -> Any:
    path = ADVANTAGE_GOLDENS / variant / f"{scenario}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def _concerns(key: str) -> str:
    """The player a state key of the scenario is about (units/<territory>/<owner>/<unit>); a
    territory's effects (effects/<territory>) and a convoy zone (convoy/<zone>) are about the territory."""
    parts = key.split("/")
    return parts[2] if parts[0] == "units" else parts[1]


def _about_players(changed: dict[str, Any]) -> set[str]:
    return {_concerns(key) for key in changed if not key.startswith(("effects/", "convoy/"))}


def _every_turn(name: str) -> bool:
    """Whether the advantage's free units come at each Mobilize once declared (else at the first only)."""
    spec = yaml.safe_load((ROOT / "rules" / "aare" / "advantages.yaml").read_text(encoding="utf-8"))
    return bool(spec["national_advantages"][name].get("choose", {}).get("every_turn"))


def _declaring(name: str, variant: str) -> Any:
    nation = NATIONS[name[:2]]
    declaration = f"userActionAttachment{name}"

    def its(actions: list[str], choice: str = "") -> list[str]:
        """The actions of the advantage (of one of its choices: UsMarinesInfantry, UsMarinesTransport)."""
        return [a for a in actions if a.startswith(declaration + choice) and a != declaration]

    def test(f: Facts) -> None:
        assert f == _golden(variant, f"declare-{name}")
        assert f["declared"], "declaring changes nothing"
        assert _about_players(f["declared"]) == {nation}
        assert declaration not in f["start2"]  # each advantage once
        # One advantage a round: after declaring, the nation is offered no other advantage.
        others = [a for a in f["offeredAfterDeclaring"] if a.removeprefix("userActionAttachment") in AARE_ADVANTAGES]
        assert others == []
        # Each action of the first Mobilize, tried alone: it gives the nation, and only it, its units
        # (or its effect), and uses up the advantage's action (of that choice) for the turn.
        for action, tried in f["tried1"].items():
            assert tried["changed"], action
            assert _about_players(tried["changed"]) == {nation}, action
            choice = re.match(r"(\w*?)(In[A-Z0-9]|$)", action.removeprefix(declaration))
            assert choice is not None
            assert its(tried["offeredAfter"], choice[1]) == [], action
        # Each place lost alone at that Mobilize (a place the actions put units in, or one their
        # conditions need held): no action putting units there is offered (a condition naming
        # another place would let it be).
        for place, lost in f["offeredAtMobilize1WithoutEachPlace"].items():
            assert not set(lost["offered"]) & set(lost["placingThere"]), place
        # A trigger putting units on the board (at the declaration, at each Mobilize) does not with
        # the land it puts them in lost (a condition naming another land would let it).
        for trigger, met in f["placingTriggersMetWithoutEachPlace"].items():
            assert not [place for place, holds in met.items() if place != "asIs" and holds], trigger
        # Not used at that Mobilize, a one-time placement is gone; an every-turn one comes again.
        assert bool(its(f["offeredAtMobilize2"])) == (_every_turn(name) and bool(f["tried1"]))
        # A nation that has lost its territories is offered no placement and given no units; a
        # one-time right it could not use then is gone when it has them back.
        assert its(f["offeredAtMobilize3WithoutTerritories"]) == []
        if "placesBackAfterMissingTheFirstMobilize" in f:
            missed = f["placesBackAfterMissingTheFirstMobilize"]
            assert (missed["offered"], missed["unitsPlaced"]) == ([], {})
        assert not [key for key in f["afterMobilize3WithoutTerritories"] if key.startswith("units/")]

    test.__name__ = f"test_declaring_{name}_{variant.replace('-', '_')}"
    test.__qualname__ = test.__name__
    test.__doc__ = f"{name}: declared in round 1 and followed to round 3, as the golden says."
    return test


for _variant in AARE:
    for _name in AARE_ADVANTAGES:
        _test = _declaring(_name, _variant)
        globals()[_test.__name__] = proves(f"declare-{_name}", _variant)(_test)


def _undeclared(variant: str) -> Any:
    def test(f: Facts) -> None:
        assert f == _golden(variant, "advantages-undeclared")
        _no_advantage_acts_undeclared(f)

    test.__name__ = f"test_without_a_declaration_no_advantage_acts_{variant.replace('-', '_')}"
    return test


for _variant in AARE:
    _test = _undeclared(_variant)
    globals()[_test.__name__] = proves("advantages-undeclared", _variant)(_test)


def _no_advantage_acts_undeclared(f: Facts) -> None:
    # Two rounds without a declaration change no unit, price, strength, effect or convoy zone.
    assert f["changedWithoutDeclaring"] == {}
    # Nothing is placed at Mobilize in round 1 without a declaration; round 2 offers delayed ones only.
    assert all(offered == [] for step, offered in f["offered"].items() if step.startswith("1:") and "Mobilize" in step)
    for step, offered in f["offered"].items():
        assert all(not re.search(r"In[A-Z0-9]", action.removeprefix("userActionAttachment")) for action in offered), (
            step
        )


@pytest.mark.engine
@pytest.mark.parametrize("variant", AARE)
def test_the_advantage_goldens_are_the_engines(variant: str, update_goldens: bool) -> None:
    """The goldens above are what the engine reports for the built game (--update-goldens writes them)."""
    names = ["advantages-undeclared", *(f"declare-{n}" for n in AARE_ADVANTAGES)]
    for name, facts in zip(
        names,
        run_scenarios([(n, game_for_engine(variant)) for n in names], map_files=map_files_for_engine(variant)),
        strict=True,
    ):
        if update_goldens:
            (ADVANTAGE_GOLDENS / variant).mkdir(parents=True, exist_ok=True)
            (ADVANTAGE_GOLDENS / variant / f"{name}.json").write_text(
                json.dumps(facts, indent=1, sort_keys=True) + "\n", encoding="utf-8"
            )
        assert facts == _golden(variant, name), name
