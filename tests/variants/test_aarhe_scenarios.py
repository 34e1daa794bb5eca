"""AARHE rules proven in the real TripleA 1.9 engine (rules/aarhe/proofs/ScenarioAarhe*.java).

Each test runs one scenario on the built game of each variant it names (`@proves`, tests/proofs.py)
and asserts the outcome the ledger entries naming that scenario claim: the Soviet opening turn and
the nations' order, government in exile, research without the capital, the ID dice a lone fighter
meets, Total and City Victory, xenophobia, Axis co-operation, carriers, air transport, scorched
earth, repairs, convoys, lend-lease, national builds and attacks, heavy units and terrain bonuses.
"""

from __future__ import annotations

from tests.proofs import Facts, proves
from tests.variants.lend_lease import assert_lend_lease_paid_for_the_donor_alone

AARHE = ("aarhe", "aarhe-2x")  # aarhe-2x: the same game as engine 1.9 reads it


@proves("aarhe-turn-order", *AARHE)
def test_opening_turn_order_exile_and_research(f: Facts) -> None:
    purchases = [step for step in f["started"] if step.endswith("Purchase")]
    assert purchases == [
        "1:russianOpeningPurchase",
        "1:germanTurnPurchase",
        "1:japaneseTurnPurchase",
        "1:italianTurnPurchase",
        "1:russianTurnPurchase",
        "1:britishTurnPurchase",
        "1:americanTurnPurchase",
        "2:germanTurnPurchase",
        "2:japaneseTurnPurchase",
        "2:italianTurnPurchase",
        "2:russianTurnPurchase",
        "2:britishTurnPurchase",
        "2:americanTurnPurchase",
    ]
    # The opening turn is played once: none of its steps runs again in round 2.
    assert [step for step in f["started"] if step.startswith("2:russianOpening")] == []
    assert len([step for step in f["started"] if step.startswith("1:russianOpening")]) == 9
    german = [step.split(":")[1] for step in f["started"] if step.startswith("2:germanTurn")]
    assert german == [
        "germanTurnPurchase",
        "germanTurnUserActions",
        "germanTurnEndTurn",
        "germanTurnCombatMove",
        "germanTurnBattle",
        "germanTurnNonCombatMove",
        "germanTurnPlace",
        "germanTurnTech",
        "germanTurnTechActivation",
    ]
    # Government in exile: without Moscow the Soviet Union still buys and collects its income.
    assert f["buyWithoutCapital"] == "null" and f["spentWithoutCapital"] == 3
    assert f["incomeWithoutCapital"] == f["productionWithoutCapital"] > 0
    # No research that turn: the dice cost 999; with Moscow back, 5 again.
    assert f["techCostWithoutCapital"] == 999
    assert f["techCostWithCapital"] == 5
    # Each nation that alone has lost its capital pays 999 for research, each time it does (rounds 3
    # and 5); with it back (round 4), 5.
    for round_, costs in f["researchWithoutCapital"].items():
        assert set(costs) == {"Germans", "Japanese", "Italians", "Russians", "British", "Americans"}, round_
        assert set(costs.values()) == {5 if round_ == "4" else 999}, round_
    # Every nation, its capital held by the enemy: it still buys (an artillery for 4) and collects
    # income, and its research dice cost 999.
    nations = {"Germans", "Japanese", "Italians", "Russians", "British", "Americans"}
    assert set(f["exile"]["nations"]) == nations
    for nation, e in f["exile"]["nations"].items():
        assert e["capitalOwner"] != nation, nation
        assert (e["buy"], e["spent"], e["techCost"]) == ("null", 4, 999), nation
        assert e["income"] > 0, nation
    # Holding its capital (in round 1, and again once it is retaken) a nation researches at 5 a die.
    assert f["exile"]["techCostHoldingCapital"] == dict.fromkeys(nations, 5)
    assert f["exile"]["techCostCapitalRetaken"] == dict.fromkeys(nations, 5)


@proves("aarhe-aa-dice", *AARHE, "aarhe-draft")
def test_a_lone_fighter_meets_one_die_per_gun_and_three_per_complex(f: Facts) -> None:
    assert f["germany"]["aaGun"] == 1 and f["germany"]["factory"] == 1
    assert f["attack"] == "null"
    assert f["aaRolls"], "no anti-aircraft dice were rolled"
    # Without mayOverStackAA the engine would cap the dice at the one attacking aircraft.
    assert {(roll["sides"], roll["count"]) for roll in f["aaRolls"]} == {(36, 4)}
    # Land battle order (aarhe-p4-07): the ID dice open the battle, before any unit fires.
    sides = f["battleDiceSides"]
    assert sides[0] == 36 and 6 in sides[1:], sides


@proves("aarhe-victory", *AARHE, "aarhe-draft", "aarhe-phase1")
def test_total_victory_and_victory_city_points_end_the_round(f: Facts) -> None:
    allies = ["Americans", "British", "Russians"]
    # Total Victory with the victory city option off: everything wins, everything but one does not.
    assert f["everything"]["cityVictoryOption"] is False
    assert f["everything"]["gameOver"] is True and f["everything"]["winners"] == allies
    assert f["everythingButOne"]["gameOver"] is False
    # Total Victory for either side, declaring that side's powers and them alone (the Axis as City
    # Victory names it), and only holding every territory: any one of them short, no victory.
    axis = f["axisCityAt"]["winners"]
    for case, winners in (("everything", allies), ("axisEverything", axis)):
        assert f[case]["gameOver"] is True and f[case]["winners"] == winners, case
        assert list(f[case]["victoriesHoldingEverything"].values()) == [winners], case
        assert f[case]["stillWonWithout"] == [], case
    # City Victory: the threshold, not one point less.
    for side in ("allies", "axis"):
        below, at = f[f"{side}CityBelow"], f[f"{side}CityAt"]
        name = "Allies" if side == "allies" else "Axis"
        assert below["victoryCities"][name] < below["threshold"] and below["gameOver"] is False
        assert at["victoryCities"][name] >= at["threshold"] and at["gameOver"] is True
    assert f["alliesCityAt"]["threshold"] == 55 and f["axisCityAt"]["threshold"] == 45
    assert f["alliesCityAt"]["winners"] == allies
    assert set(f["axisCityAt"]["winners"]) >= {"Germans", "Japanese"}


@proves("aarhe-retreat", *AARHE)
def test_retreat_where_land_units_came_from_and_aircraft_without_landing_lost(f: Facts) -> None:
    assert (f["infantryAttack"], f["fighterAttack"]) == ("null", "null")
    # Land units came from Eastern Europe, the fighter alone from Ukraine: only Eastern Europe.
    assert f["retreatTo"] == ["Eastern Europe"]
    # The fighter left in a sea zone without a carrier is lost; the one over German land stays.
    assert (f["fightersLeftAtSea"], f["fightersLeftAtHome"]) == (0, 1)


@proves("aarhe-axis-italy", *AARHE)
def test_japan_may_not_enter_italian_land(f: Facts) -> None:
    assert f["relationItalyJapan"] == "CoBelligerent"
    assert "may not move land units over land owned by Italians" in f["japaneseIntoItaly"]


@proves("aarhe-movement", *AARHE)
def test_movement_limits(f: Facts) -> None:
    # Axis co-operation: Japan may not enter German land, until the Allies take Germany.
    assert f["relationGermanyJapan"] == "CoBelligerent"
    assert "may not move land units over land owned by Germans" in f["japaneseIntoGermany"]
    assert f["relationAfterGermanyFalls"] == "Allied"
    # Naval fighters land on carriers; a fighter flown onto one is lost when the move ends.
    assert f["navalFighterOntoCarrier"] == "null"
    assert f["atSeaAfterMove"].get("navalFighter") == 1 and "fighter" not in f["atSeaAfterMove"]
    # Stalinist xenophobia, until the Axis hold Moscow.
    assert f["britishIntoCaucasus"] == "Cannot move to restricted territories"
    assert f["britishIntoCaucasusLater"] == "null"
    # Every Soviet starting territory and the four buffer lands, for the British and the Americans;
    # once the Axis hold Moscow as a British turn begins, none of them (only the impassable Himalaya).
    soviet = ["Archangel", "Buryatia S.S.R.", "Caucasus", "Evenki National Okrug", "Karelia S.S.R.",
              "Kazakh S.S.R.", "Novosibirsk", "Russia", "Soviet Far East", "Yakut S.S.R."]  # fmt: skip
    buffer = ["Eastern Europe", "Belorussia", "Ukraine S.S.R.", "West Russia"]
    xenophobia = f["xenophobia"]
    western = ("British", "Americans")
    assert xenophobia["restrictedAtStart"] == {ally: sorted(soviet + buffer) for ally in western}
    assert xenophobia["restrictedOnceAxisHoldRussia"] == {ally: ["Himalaya"] for ally in western}
    # Axis co-operation ends when the Allies take Japan too, for Germany and Italy; until then a
    # Japanese aircraft may not fly over German land either.
    distrust = f["distrust"]
    assert distrust["japaneseFighterIntoGermany"] == "Japanese may not move air units over land owned by Germans"
    assert distrust["relationsBefore"] == {"Germans": "CoBelligerent", "Italians": "CoBelligerent"}
    assert distrust["relationsAfterJapanFalls"] == {"Germans": "Allied", "Italians": "Allied"}
    # Air transport: a bomber flies a marine two territories, which a marine cannot walk; it has
    # room for one only (loaded as the move panel loads it): with two, one is left to walk.
    assert f["carryOne"] == "null"
    assert f["marinesInEasternUs"] == f["marinesInEasternUsAtStart"] + 1
    assert f["marineAloneTwoSpaces"] == "Not all units have enough movement"
    assert f["carryTwo"] == "Not all units have enough movement"
    assert f["carryInfantry"] == "null"
    assert f["infantryInCentralUs"] == f["infantryInCentralUsAtStart"] + 1
    # Ferry range: aircraft have 2 more movement in every nation's non-combat move, and only there.
    ferry = f["ferryRange"]
    start = ferry["atStart"]
    assert {unit: start[unit] for unit in ("fighter", "diveBomber", "bomber", "navalFighter")} == {
        "fighter": 4,
        "diveBomber": 4,
        "bomber": 6,
        "navalFighter": 2,
    }
    aircraft = {"fighter", "diveBomber", "bomber", "navalFighter"}
    assert len(ferry["duringNonCombatMove"]) == 7  # the Soviet opening turn and six nations
    for step, movement in ferry["duringNonCombatMove"].items():
        assert movement == {unit: value + 2 * (unit in aircraft) for unit, value in start.items()}, step
        assert ferry["afterNonCombatMove"][step] == start, step
    assert ferry["sixSpacesInCombatMove"] == "Not all units have enough movement"
    assert (ferry["sixSpacesInNonCombatMove"], ferry["fighterArrived"]) == ("null", 1)
    assert ferry["cloneable"] is True
    # Sea transport: land units still aboard when a non-combat move ends (every nation's, in every
    # sea zone, of every type a transport carries) are taken off; the transport and the lend-lease
    # cargo stay.
    carried = {"infantry", "marine", "artillery", "heavyArtillery", "armour", "heavyTank", "aaGun"}
    assert set(ferry["disembark"]) == set(ferry["duringNonCombatMove"])
    for step, sea in ferry["disembark"].items():
        assert carried <= set(sea["carried"]), step
        assert sea["landUnitsAtSeaBefore"] >= 64 * len(sea["carried"]), step
        assert sea["landUnitsAtSeaAfter"] == 0, step
        assert (sea["cargoAfter"], sea["transportsAfter"]) == (sea["cargoBefore"], sea["transportsBefore"]), step
        assert sea["cargoBefore"] > 0 and sea["transportsBefore"] > 0, step


@proves("aarhe-economy", *AARHE)
def test_scorched_earth_repairs_convoys_and_lend_lease(f: Facts) -> None:
    assert "userActionAttachmentScorchCaucasus" in f["scorchOffered"]
    assert (f["caucasusFactoriesBefore"], f["caucasusFactoriesAfter"]) == (1, 0)
    assert "userActionAttachmentScorchCaucasus" not in f["scorchOfferedAfter"]
    # Damaged heavy tanks and battleships are whole after the owner's income step.
    assert (f["heavyTankHitsBefore"], f["heavyTankHitsAfter"]) == (1, 0)
    assert (f["battleshipHitsBefore"], f["battleshipHitsAfter"]) == (1, 0)
    # Convoys: one die per warship next to British land (not for the transport); 1-3 costs that much.
    zones = {roll["annotation"].rsplit(" in ", 1)[1]: roll["dice"] for roll in f["convoyRolls"]}
    warships = {zone: units for zone, units in f["raidersNextToUk"].items() if set(units) != {"transport"}}
    assert set(zones) == set(warships)
    assert all(len(dice) == sum(warships[zone].values()) for zone, dice in zones.items())
    lost = sum(d for dice in zones.values() for d in dice if d <= 3)
    assert f["britishIncome"] == f["britishProduction"] - lost
    assert f["germanIncome"] == f["germanProduction"]  # Germany's income travels by land
    # Neutral incomes: handed to Germany, the neutrals pay their table values (18 in all).
    incomes = {
        "Afghanistan": 1,
        "Argentina": 2,
        "Mongolia": 1,
        "Peru": 1,
        "Saudi Arabia": 2,
        "Spain": 4,
        "Sweden": 2,
        "Switzerland": 1,
        "Turkey": 3,
        "Venezuela": 1,
    }
    assert {land: value for land, value in f["neutralValues"].items() if value} == incomes
    assert f["germanIncomeWithNeutrals"] == f["germanProductionWithoutNeutrals"] + sum(incomes.values())
    # Lend-lease: 6 PUs a cargo in sea zone 4 (Soviets) or 34 (UK); two free cargoes a turn.
    assert (f["sovietsPaid"], f["britishPaid"], f["cargoLeftAtSea"]) == (6, 12, 0)
    assert f["freeCargo"] == 2


@proves("aarhe-lend-lease", *AARHE)
def test_lend_lease_cargo_pays_for_the_us_alone(f: Facts) -> None:
    # Two cargoes a turn, 6 PUs each: both paid in one turn in sea zone 4 (Soviets) or 34 (UK).
    assert f["recipientByZone"] == {"4 Sea Zone": "Russians", "34 Sea Zone": "British"}
    assert f["tokensPerTurn"] == 2
    assert_lend_lease_paid_for_the_donor_alone(f, worth=6)


@proves("aarhe-scorch", *AARHE, "aarhe-draft")
def test_each_nation_may_scorch_its_own_complexes_only(f: Facts) -> None:
    assert set(f) >= {"Russians", "Germans", "British", "Japanese", "Americans"}
    complexes = {"Caucasus", "Eastern United States", "Germany", "Japan", "Russia", "Southern Europe",
                 "United Kingdom", "Western United States"}  # fmt: skip
    for nation, s in f.items():
        # An action for each complex of the starting board.
        assert set(s["actionTerritories"]) == complexes, nation
        # Offered exactly where the nation has a complex of its own: at the start, and anywhere.
        assert s["ownComplexes"] and s["offered"] == s["ownComplexes"], nation
        for territory, offered in s["offeredWithOneMoreComplex"].items():  # one more, alone
            assert offered == sorted({*s["ownComplexes"], territory}), (nation, territory)
        assert set(s["offeredWithOneMoreComplex"]) == set(s["actionTerritories"]) - set(s["ownComplexes"]), nation
        assert s["offeredWithAComplexEverywhere"] == s["actionTerritories"], nation


@proves("aarhe-builds", *AARHE, "aarhe-draft")
def test_national_builds_heavy_units_and_bonuses(f: Facts) -> None:
    # T-34: 2 tanks for 8, one bundle at a time, placed in Russia only, ordinary tanks afterwards.
    assert f["buyT34"] == "null" and f["t34Price"] == 8
    assert "may only build 2 total" in f["buyT34Again"]
    assert f["placeT34InCaucasus"].startswith("Cannot place")
    assert f["placeT34InRussia"] == "null"
    assert (f["russiaArmourGained"], f["t34Left"], f["othersGainedInRussia"]) == (2, 0, 0)
    assert f["buyT34NextTurn"] == "null"
    assert f["russiaArmourGainedWithoutPlacing"] == 0  # bought, not placed: nothing converted
    # Patriotism: 3 infantry in Japan for the bundle's price (5, or 7 in the draft).
    assert f["buyPatriotism"] == "null" and f["placePatriots"] == "null"
    assert "may only build 3 total" in f["buyPatriotismAgain"]
    assert f["placePatriotsInManchuria"] != "null"  # Japan only
    assert (f["japanInfantryGained"], f["othersGainedInJapan"]) == (3, 0)
    assert f["japanInfantryGainedWithoutBundle"] == 0  # no bundle placed, nothing converted
    assert f["patriotismPrice"] in (5, 7)
    if "regiaMarina" in f:  # Regia Marina: each warship 2 less, once a turn, then ordinary (Italy: full rules)
        r = f["regiaMarina"]
        assert (r["priceBattleship"], r["priceCarrier"], r["priceDestroyer"]) == (18, 14, 8)
        for ship in ("Battleship", "Carrier", "Destroyer"):
            assert r[f"buy{ship}"] == "null" and r[f"place{ship}"] == "null", ship
            assert "may only build 1 total" in r[f"buyAgain{ship}"], ship
            assert (r[f"gained {ship.lower()}"], r[f"gained regia{ship}"]) == (1, 0), ship
        assert r["othersGained"] == 0
    s = f["strengths"]
    # Blitzkrieg and Lance Torpedo: German and Japanese fighters attack at 4.
    assert s["germanFighterInFrance"]["attack"] == 4 and s["britishFighterInFrance"]["attack"] == 3
    assert s["japaneseFighterAtSea"]["attack"] == 4 and s["americanFighterAtSea"]["attack"] == 3
    if "japaneseNavalFighterAtSea" in s:  # Lance Torpedo: Japan's naval fighters too, not Germany's
        assert s["japaneseNavalFighterAtSea"]["attack"] == s["britishNavalFighterAtSea"]["attack"] + 1
        assert s["germanNavalFighterAtSea"]["attack"] == s["britishNavalFighterAtSea"]["attack"]
    # UK Radar: fighters defend at 5 in the UK and India, 4 elsewhere.
    assert s["britishFighterInUk"]["defence"] == s["britishFighterInIndia"]["defence"] == 5
    if "britishFighterInWesternCanada" in s:  # and in Canada and Australia (the full rules)
        for radar in ("EasternCanada", "WesternCanada", "Australia"):
            assert s[f"britishFighterIn{radar}"]["defence"] == 5, radar
    assert s["britishFighterInFrance"]["defence"] == 4
    # Marines: +1 attacking from a transport.
    assert (s["marineLanding"]["attack"], s["marineOverland"]["attack"]) == (2, 1)
    if "italianInfantryInBalkans" in s:  # Italy's Home Defence (the full rules only)
        assert s["italianInfantryInBalkans"]["defence"] == s["italianInfantryInLibya"]["defence"] == 3
        assert s["germanInfantryInGermany"]["defence"] == 2
    if "germanHeavyRulesAfterTech" in f:  # Heavy Artillery by research (the full rules only)
        assert f["germanHeavyRulesBeforeTech"] == []
        assert f["germanHeavyRulesAfterTech"] == ["buyHeavyArtillery"]
        assert f["britishHasHeavyArtillery"] is False
        assert "buyHeavyArtillery" not in f["sovietFrontier"]
    # Each build converted on its own, tier by tier and place by place, and all again later: what
    # was put there becomes the ordinary unit there, and nothing anywhere else.
    for nation, tries in f["conversions"]["converted"].items():
        for t in tries:
            expected = dict.fromkeys(t["gained"], 0) | {f"{t['at']}/{t['becomes']}": t["count"]}
            assert t["gained"] == expected, (nation, t)
    # A Type VII goes to its build's place only, a German complex beside or not.
    for unit, placed in f["conversions"]["placedOffItsPlaces"].items():
        assert placed == "Cannot place these units in 1 Sea Zone", unit
    if "terrain" in f:  # special terrain and Jet Plane (the full rules only)
        _terrain_and_jets(f["terrain"])
    _complex_prices(f["complexes"])
    # Type VII (6), Spitfire (8), Essex (14): once a turn, an ordinary unit of the builder once placed.
    builds = {**f["singleBuilds"], **{zone: f[zone] for zone in ("essex54", "essex55") if zone in f}}
    for build, b in builds.items():
        price = {"typeVII": 6, "spitfire": 8}.get(build, 14)
        assert (b["buy"], b["price"], b["place"]) == ("null", price, "null"), build
        assert "may only build 1 total" in b["buyAgain"], build
        assert (b["gained"], b["left"], b["othersGained"]) == (1, 0, 0), build
    if "essex54" in f:  # the full rules: an Essex becomes a carrier where it was placed, nowhere else
        for zone in ("54", "55"):
            gained = f[f"essex{zone}"]["carriersGained"]
            assert gained == {z: int(z == f"{zone} Sea Zone") for z in ("10 Sea Zone", "54 Sea Zone", "55 Sea Zone")}
        # A placement without a national build makes no submarine or fighter; a Type VII is placed
        # off Germany only (the zone its conversion watches), not next to another German complex.
        w = f["withoutBuild"]
        assert (w["germanSubmarinesGained"], w["britishFightersGained"]) == (0, 0)
        assert w["typeVIIInZone7"] == "Cannot place these units in 7 Sea Zone"
    if "heavyRulesAfterEachResearch" in f:  # Heavy Tank and Heavy Artillery (full rules): researchers' alone
        # Round 8: only Germany has researched (Heavy Artillery, round 4). Then the nations research
        # both one a turn: after each, exactly those that have are offered the heavy units.
        both = [
            "buyHeavyArtillery",
            "buyHeavyArtilleryIndustrialTechnology",
            "buyHeavyTank",
            "buyHeavyTankIndustrialTechnology",
        ]
        for nation, rules in f["heavyRulesBeforeTech"].items():
            assert rules == (both[:2] if nation == "Germans" else []), nation
        steps = f["heavyRulesAfterEachResearch"]
        assert [s["researched"][-1] for s in steps] == [
            "Germans",
            "Japanese",
            "Italians",
            "Russians",
            "British",
            "Americans",
        ]
        for step in steps:
            for nation, rules in step["rules"].items():
                assert sorted(rules) == (both if nation in step["researched"] else []), (step["researched"], nation)


def _complex_prices(c: Facts) -> None:
    """Variable complex costs: 5 in a city of 2+ points, 10 in a 1-point city, 15 elsewhere, each
    type placed only where its price applies."""
    assert c["prices"] == {"buyFactory": 15, "buyFactory5": 5, "buyFactory10": 10}
    right = {"factory": c["places"]["plain"], "factory5": c["places"]["major"], "factory10": c["places"]["minor"]}
    for attempt, result in c["placed"].items():
        unit, where = attempt.split(" in ")
        if right[unit] == where:
            assert result == "null", attempt
        else:
            assert result == f"No more Constructions Allowed in {where}", attempt
    assert len(c["placed"]) == 9


def _terrain_and_jets(t: Facts) -> None:
    # Snow and mountains: every land unit fights at -1, never below 1 (nor below what it had).
    land = set(t["landStrengths"])
    assert {"infantry", "marine", "patriotInfantry", "heavyArtillery", "t34Armour", "heavyTank"} <= land
    for unit, where in t["landStrengths"].items():
        for terrain in ("snow", "mountain"):
            for value in ("attack", "defence"):
                plain = where["plain"][value]
                assert where[terrain][value] == max(plain - 1, min(plain, 1)), (unit, terrain, value)
    # No unit blitzes through snow; armour blitzes through plain land.
    assert set(t["blitzThroughSnow"]) >= {"armour", "t34Armour", "heavyTank"}
    for unit, refused in t["blitzThroughSnow"].items():
        assert refused == "Not all units can blitz", unit
    assert t["blitzThroughPlain"] == "null"
    # Jet Plane: fighters 3/4 -> 4/5, bombers 4/1 -> 3/3; naval fighters unchanged.
    assert (t["fighterBeforeJets"]["attack"], t["fighterBeforeJets"]["defence"]) == (3, 4)
    assert (t["fighterWithJets"]["attack"], t["fighterWithJets"]["defence"]) == (4, 5)
    assert (t["bomberBeforeJets"]["attack"], t["bomberBeforeJets"]["defence"]) == (4, 1)
    assert (t["bomberWithJets"]["attack"], t["bomberWithJets"]["defence"]) == (3, 3)
    assert (t["navalFighterWithJets"]["attack"], t["navalFighterWithJets"]["defence"]) == (3, 2)
