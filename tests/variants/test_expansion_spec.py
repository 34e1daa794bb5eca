"""The Expansion Edition variant's spec: every rule of seed 002 in the ledger, Italy, the new units."""

from __future__ import annotations

import re

from generator.emit.coverage import coverage
from generator.spec.option_values import option_writes
from tests.helpers import ROOT, built_game, variant_spec
from tests.proofs import Facts, proves
from tests.variants.lend_lease import assert_lend_lease_paid_for_the_donor_alone

NOTES = ROOT / "output" / "games" / "expansion.notes.html"
STEP_PREFIX = {
    "Germans": "german",
    "Italians": "italian",
    "Russians": "russian",
    "British": "british",
    "Japanese": "japanese",
    "Americans": "american",
}


def test_ledger_ids_and_readings() -> None:
    """(What every ledger shares is in tests/variants/test_variant_ledgers.py.)"""
    ledger = variant_spec("expansion").rule_ledger
    assert all(re.fullmatch(r"exp-[a-z]+-\d\d", rule_id) for rule_id in ledger)
    # The document's known errors are settled in the ledger (rules-aare-expansion.md §0).
    for rule_id in ("exp-price-02", "exp-units-12", "exp-tech-06", "exp-italy-04", "exp-italy-06", "exp-lend-02"):
        assert ledger[rule_id].reading, rule_id


def test_coverage_counts() -> None:
    report = coverage("expansion", variant_spec("expansion"))
    assert report.rules == 56
    assert report.total["1.9"].counts == {"exact": 19, "approximate": 21, "notes-only": 16}
    assert report.total["1.9"].enforced == 40


def test_italy_is_a_sixth_axis_player_after_germany() -> None:
    spec = variant_spec("expansion")
    italy = spec.players["Italians"]
    assert italy.alliances == ["Axis"]
    assert italy.resources == {"PUs": 10}
    for name in ("Southern Europe", "Balkans", "Libya"):
        territory = spec.territories[name]
        assert territory.owner == "Italians"
        assert set(territory.units) == {"Italians"}, name
    assert spec.territories["Southern Europe"].capital == "Italians"
    assert spec.territories["Germany"].production == 20
    # Italy's income equals its starting PUs: 6 + 3 + 1.
    assert sum(spec.territories[n].production for n in ("Southern Europe", "Balkans", "Libya")) == 10

    steps = [step.get("name") for step in built_game("expansion").iter("step")]
    italian = [s for s in steps if s.startswith("italian")]
    assert steps.index(italian[0]) == steps.index("germanEndTurn") + 1
    assert steps.index(italian[-1]) + 1 == steps.index("britishTech")
    assert italian == [
        "italianTech",
        "italianPurchase",
        "italianCombatMove",
        "italianBattle",
        "italianNonCombatMove",
        "italianPlace",
        "italianTechActivation",
        "italianEndTurn",
    ]


def test_fifteen_victory_cities_and_thresholds() -> None:
    spec = variant_spec("expansion")
    assert sum(1 for t in spec.territories.values() if getattr(t, "victoryCity", None)) == 15
    assert spec.properties["Allies Honorable Victory VCs"].value == 11
    assert spec.properties["Axis Honorable Victory VCs"].value == 10
    assert spec.properties["Honorable Surrender"].value is True


def test_new_units_stats_and_prices() -> None:
    spec = variant_spec("expansion")
    stats = {
        "ssPanzer": (5, 5, 2, 8),
        "mechInfantry": (2, 2, 1, 4),
        "shockTroops": (3, 4, 2, 6),
        "heavyArtillery": (4, 2, 1, 6),
        "heavyTank": (4, 4, 2, 7),
        "lightCarrier": (0, 1, 2, 10),
        "cruiser": (3, 3, 3, 16),
        "navalFighter": (2, 2, 2, 8),
        "carrier": (1, 3, 3, 16),
        "destroyer": (2, 2, 2, 10),
        "battleship": (4, 4, 2, 20),
    }
    price = {
        next(iter(rule.result)): rule.cost["PUs"]
        for rule in spec.production_rules.values()
        if rule.result and len(rule.result) == 1
    }
    for unit, (attack, defense, movement, cost) in stats.items():
        options = spec.units[unit]
        assert (options.attack, options.defense, options.movement) == (attack, defense, movement), unit
        assert price[unit] == cost, unit
    assert spec.units["carrier"].hitPoints == 2
    assert spec.units["cruiser"].hitPoints == 2
    assert spec.units["cruiser"].bombard == 2 and spec.units["destroyer"].bombard == 2
    assert spec.units["heavyArtillery"].artillery is True
    assert spec.units["ssPanzer"].unitPlacementOnlyAllowedIn == ["Germany"]
    assert spec.properties["Unit Placement Restrictions"].value is True


def test_national_units_only_in_their_frontier() -> None:
    frontiers = variant_spec("expansion").production_frontiers
    assert "buySSPanzer" in frontiers["productionGermans"]
    assert "buyShockTroops" in frontiers["productionRussians"]
    for name, rules in frontiers.items():
        if name != "productionGermans":
            assert "buySSPanzer" not in rules, name
        if name != "productionRussians":
            assert "buyShockTroops" not in rules, name
    players = variant_spec("expansion").players
    assert players["Germans"].production_frontier == "productionGermans"
    assert players["Russians"].production_frontier == "productionRussians"
    assert players["Italians"].production_frontier == "production"


def test_free_units_of_round_one_in_the_built_xml() -> None:
    placements: dict[str, list[tuple[str, str]]] = {}
    for attachment in built_game("expansion").iter("attachment"):
        name = attachment.get("name")
        if name.startswith("triggerAttachmentFreeUnits"):
            assert attachment.get("attachTo") == "Germans", name  # 1.9 can copy the game data
            options = {o.get("name"): o.get("value") for o in attachment.iter("option")}
            assert options["conditions"] == "conditionAttachmentRound1"
            assert options["uses"] == "1"
            player = options["players"]
            assert options["when"] == f"after:{STEP_PREFIX[player]}Place", name
            placements[player] = [
                (o.get("value"), o.get("count", "1")) for o in attachment.iter("option") if o.get("name") == "placement"
            ]
    assert set(placements) == set(STEP_PREFIX)
    assert ("Germany:ssPanzer:heavyArtillery:heavyTank", "1") in placements["Germans"]
    assert ("5 Sea Zone:cruiser", "1") in placements["Germans"]
    assert ("Russia:shockTroops:heavyArtillery:heavyTank", "1") in placements["Russians"]
    assert ("60 Sea Zone:navalFighter", "2") in placements["Japanese"]
    # Every one of the six players gets two mechanized infantry.
    assert all(any(v.endswith(":mechInfantry") and c == "2" for v, c in p) for p in placements.values())
    cruisers = sum(v.count("cruiser") for p in placements.values() for v, _ in p)
    light_carriers = sum(v.count("lightCarrier") for p in placements.values() for v, _ in p)
    assert (cruisers, light_carriers) == (4, 2)


def test_convoy_zones_and_destroyer_support() -> None:
    spec = variant_spec("expansion")
    zones = {name for name, t in spec.territories.items() if getattr(t, "blockadeZone", None)}
    assert zones == {f"{n} Sea Zone" for n in (2, 3, 6, 7, 8, 10, 54, 55, 60, 61)}
    assert spec.units["submarine"].blockade == 2
    for player in ("Germans", "Russians", "Italians"):
        assert spec.players[player].attachments["playerAttachment"].immuneToBlockade is True
    support = spec.units["submarine"].attachments["supportAttachmentDestroyerHunts"]
    assert support.faction == "enemy" and support.unitType == ["destroyer"]


def test_only_the_five_weapons_developments() -> None:
    spec = variant_spec("expansion")
    assert set(spec.technologies) == {"jetPower", "rocket", "superSub", "longRangeAir", "heavyBomber"}
    assert spec.properties["Super Sub Defence Bonus"].value == 1
    assert spec.properties["Heavy Bomber Dice Rolls"].value == 2


def test_notes_name_the_edition() -> None:
    assert "Expansion Edition" in NOTES.read_text(encoding="utf-8")


def test_treaty_starts_in_force_and_each_side_can_end_it() -> None:
    spec = variant_spec("expansion")
    assert spec.players["Russians"].relationships == {"Japanese": "NonAggression"}
    assert spec.relationship_types["NonAggression"].archeType == "neutral"
    ends = {
        "Russians": ("userActionAttachmentRuEndTreaty", "triggerAttachmentTreatyJapanReinforced"),
        "Japanese": ("userActionAttachmentJpEndTreaty", "triggerAttachmentTreatyRussiaReinforced"),
    }
    for player, (action_name, reinforcement) in ends.items():
        action = spec.players[player].attachments[action_name]
        assert action.conditions == ["conditionAttachmentTreatyInForce"]
        assert [a[0] for a in action.activateTrigger] == ["triggerAttachmentTreatyEnds", reinforcement]
        assert f"{action.text}.BUTTON" in spec.map_files["actionstext"]
    triggers = spec.players["Germans"].attachments
    assert triggers["triggerAttachmentTreatyEnds"].relationshipChange == [
        "Russians",
        "Japanese",
        "NonAggression",
        "War",
    ]
    # What the engine reads: one placement option, 4 infantry in Japan.
    assert option_writes(triggers["triggerAttachmentTreatyJapanReinforced"].placement) == [("Japan:infantry", "4")]
    steps = [step.get("name") for step in built_game("expansion").iter("step")]
    assert steps.index("russianUserActions") + 1 == steps.index("russianTech")
    assert steps.index("japaneseUserActions") + 1 == steps.index("japaneseTech")


def test_tanks_carry_one_infantry() -> None:
    spec = variant_spec("expansion")
    for tank in ("armour", "heavyTank", "ssPanzer"):
        assert spec.units[tank].isLandTransport is True, tank
    assert spec.units["mechInfantry"].isInfantry is True
    assert spec.units["infantry"].isInfantry is True
    for player in spec.players.values():
        assert player.attachments["techAttachment"].mechanizedInfantry is True


def test_lend_lease_tokens_fill_a_transport_and_pay_on_arrival() -> None:
    spec = variant_spec("expansion")
    token = spec.units["lendLease"]
    assert token.transportCost == spec.units["transport"].transportCapacity == 5
    assert (token.attack, token.defense) == (0, 0)
    options = {
        a.get("name"): {o.get("name"): o.get("value") for o in a.iter("option")}
        for a in built_game("expansion").iter("attachment")
        if a.get("name").startswith(("triggerAttachmentLendLease", "conditionAttachmentLendLease"))
    }
    assert options["triggerAttachmentLendLeaseGranted"]["placement"] == "Eastern United States:lendLease"
    assert options["triggerAttachmentLendLeaseGranted"]["when"] == "after:americanPlace"
    for zone, ally, name in (("4", "Russians", "Russia"), ("34", "British", "Britain")):
        condition = options[f"conditionAttachmentLendLeaseInSZ{zone}"]
        assert condition["directPresenceTerritories"] == f"{zone} Sea Zone"
        paid = options[f"triggerAttachmentLendLeaseTo{name}Paid"]
        assert (paid["players"], paid["resource"], paid["resourceCount"]) == (ally, "PUs", "10")
        unloaded = options[f"triggerAttachmentLendLeaseTo{name}Unloaded"]
        assert (unloaded["players"], unloaded["removeUnits"]) == ("Americans", f"{zone} Sea Zone:lendLease")
        assert paid["conditions"] == unloaded["conditions"] == f"conditionAttachmentLendLeaseInSZ{zone}"
        assert paid["when"] == unloaded["when"] == "after:americanNonCombatMove"


@proves("victory", "expansion")
def test_engine_victory_at_end_of_round_with_italy_in_the_axis(f: Facts) -> None:
    assert f["start"]["victoryCities"] == {"Allies": 9, "Axis": 6}
    assert f["allies10"]["gameOver"] is False and f["axis9"]["gameOver"] is False
    assert set(f["allies11"]["winners"]) == {"Americans", "British", "Russians"}
    assert set(f["axis10"]["winners"]) == {"Germans", "Italians", "Japanese"}
    assert not any(f[k]["gameOverBeforeRoundEnd"] for k in ("allies11", "axis10"))


@proves("convoy", "expansion")
def test_engine_convoy_raids_cost_uk_and_japan_not_germany(f: Facts) -> None:
    start, one = f["subs0"], f["subs1"]
    assert start["britishIncome"] == start["britishProduction"] - 2
    assert one["britishIncome"] == one["britishProduction"] - 4
    assert one["japaneseIncome"] == one["japaneseProduction"] - 2
    # Germany (worth 20 now) keeps its whole income of 40.
    assert one["germanIncome"] == one["germanProduction"] == 40


@proves("expansion-turn", "expansion")
def test_engine_italy_plays_after_germany_with_free_units_and_ss_panzers(f: Facts) -> None:
    purchases = [step for step in f["started"] if step.endswith("Purchase")]
    assert purchases.index("1:italianPurchase") == purchases.index("1:germanPurchase") + 1
    # Italy buys and places its own units in its own territory.
    assert f["italianBuy"] == "null" and f["italianSpent"] == 6
    assert f["italianPlace"] == "null" and f["southernEuropeInfantryGained"] == 2
    assert "buySSPanzer" not in f["italianFrontier"]
    # Free units of round 1 arrive after the placement: Germany's SS Panzer, heavy units, cruiser.
    gained = {u: n - f["germanyBeforeFreeUnits"].get(u, 0) for u, n in f["germanyAfterFreeUnits"].items()}
    free = {"ssPanzer": 1, "heavyArtillery": 1, "heavyTank": 1, "mechInfantry": 2}
    assert {u: n for u, n in gained.items() if n} == free
    assert f["sz5AfterFreeUnits"].get("cruiser", 0) == f["sz5BeforeFreeUnits"].get("cruiser", 0) + 1
    assert f["southernEuropeMechInfantry"] == 2
    # SS Panzers are placed in Germany, not at another German complex.
    assert f["buySsPanzers"] == "null"
    assert f["placeSsPanzerInWesternEurope"].startswith("Cannot place")
    assert f["placeSsPanzerInGermany"] == "null"


@proves("expansion-free-units", "expansion")
def test_engine_free_units_come_in_round_one_for_their_nation_alone(f: Facts) -> None:
    heavy = {"heavyArtillery": 1, "heavyTank": 1, "mechInfantry": 2}
    mech = {"mechInfantry": 2}
    # The lend-lease token appears after the US placement every round too (exp-lend-01).
    token = {"lendLease": 1}
    assert f["round1"] == {
        "Russians": {"Russia/Russians": {**heavy, "shockTroops": 1}},
        "Germans": {"Germany/Germans": {**heavy, "ssPanzer": 1}, "5 Sea Zone/Germans": {"cruiser": 1}},
        "Italians": {"Southern Europe/Italians": mech},
        "British": {"United Kingdom/British": mech, "2 Sea Zone/British": {"lightCarrier": 1, "cruiser": 1}},
        "Japanese": {
            "Japan/Japanese": mech,
            "60 Sea Zone/Japanese": {"lightCarrier": 1, "cruiser": 1, "navalFighter": 2},
        },
        "Americans": {
            "Eastern United States/Americans": {**mech, **token},
            "55 Sea Zone/Americans": {"cruiser": 1},
            "Western United States/Americans": {"navalFighter": 2},
        },
    }
    # Round 2 brings no free units.
    nothing = {nation: {} for nation in f["round1"]}
    assert f["round2"] == {**nothing, "Americans": {"Eastern United States/Americans": token}}


@proves("expansion-lend-lease", "expansion")
def test_engine_lend_lease_is_granted_and_paid_at_sea(f: Facts) -> None:
    assert f["recipientByZone"] == {"4 Sea Zone": "Russians", "34 Sea Zone": "British"}
    assert f["tokensPerTurn"] == 1
    assert_lend_lease_paid_for_the_donor_alone(f, worth=10)
    # No token appears while an Ally holds Eastern United States.
    assert f["grantedWhileRivalHolds"] == {}


@proves("expansion-treaty", "expansion")
def test_engine_russia_ends_the_treaty(f: Facts) -> None:
    assert f["relationAtStart"] == "NonAggression" and f["offered"] is True
    assert f["relationAfter"] == "War"
    assert f["japanInfantryGained"] == 4
    assert f["offeredAfter"] is False
    assert f["othersGainedInJapan"] == 0  # the four infantry are Japan's alone
    # While it holds, Japan cannot attack Soviet land; afterwards it can.
    assert f["attackDuringTreaty"] != "allowed" and f["attackAfterTreaty"] == "allowed"
    # The treaty step opens each side's turn, before its research.
    assert (f["stepAfterRussianUserActions"], f["stepAfterJapaneseUserActions"]) == ("russianTech", "japaneseTech")
    # Ended means ended: later, neither side is offered it again (nor paid again).
    assert f["offeredToJapanAfterwards"] is False
    assert f["offeredNextRound"] is False and f["relationNextRound"] == "War"
    # Japan may end it too: four infantry for the Soviet Union, in Russia.
    assert f["offeredToJapan"] is True and f["relationAfterJapanEnds"] == "War"
    assert (f["russiaInfantryGained"], f["othersGainedInRussia"]) == (4, 0)
    assert f["offeredToJapanNextRound"] is False


@proves("expansion-units", "expansion")
def test_engine_destroyers_hunt_submarines_and_tanks_carry_infantry(f: Facts) -> None:
    assert f["destroyerAlone"]["defence"] == 2
    assert f["destroyerAgainstSubmarine"]["defence"] == 3
    assert f["subThroughEmptyZone"] == "null"
    assert f["subThroughDestroyer"] == "Cannot move submarines under destroyers"
    assert f["tankWithInfantry"] == "null"
    assert f["infantryAloneTwoSpaces"] == "Not all units have enough movement"
    # Against any nation's submarines a destroyer, attacking or defending, is 3; two make it no stronger.
    hunted = f["destroyerAgainstSubmarinesOf"]
    assert set(hunted) == {"Russians", "Germans", "Italians", "British", "Japanese", "Americans"}
    for nation, subs in hunted.items():
        for strength in (subs["one"], subs["two"]):
            assert (strength["attack"], strength["defence"]) == (3, 3), nation
    # A carrier gives a destroyer that starts the turn with it one more move.
    assert f["destroyerWithCarrierThreeZones"] == "null"
    assert f["destroyerAloneThreeZones"] == "Not all units have enough movement"
    # Every nation's tanks, heavy tanks and SS Panzers take an infantry or a mechanized infantry along.
    along = f["tanksTakeInfantryAlong"]
    assert set(along) == set(hunted)
    for nation, moves in along.items():
        assert len(moves) == 6 and set(moves.values()) == {"null"}, (nation, moves)
