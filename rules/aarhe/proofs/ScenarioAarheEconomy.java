package forge;

import static forge.ScenarioNations.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.changefactory.ChangeFactory;
import games.strategy.triplea.TripleAUnit;
import games.strategy.triplea.attachments.TerritoryAttachment;
import games.strategy.triplea.delegate.Matches;

/** AARHE scenarios of money and production: convoys, lend-lease, repairs, scorched earth, builds. */
final class ScenarioAarheEconomy {
  private ScenarioAarheEconomy() {}

  /** PLAYER buys RULE in ROUND (twice), places UNIT in PLACE: what it became. */
  private static ScenarioJson.Obj singleBuild(final ScenarioGame g, final int round, final String player,
      final String rule, final String unit, final String place, final String becomes) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    ScenarioPlay.enter(g, player, "Purchase", round);
    g.change(ChangeFactory.changeResourcesChange(g.player(player), g.data.getResourceList().getResource("PUs"), 40));
    final int pus = g.pus(player);
    out.put("buy", String.valueOf(ScenarioPlay.buy(g, rule, 1)));
    out.put("price", pus - g.pus(player));
    out.put("buyAgain", String.valueOf(ScenarioPlay.buy(g, rule, 1)));
    ScenarioPlay.enter(g, player, "Place", round);
    final int before = g.count(place, becomes, player);
    final int others = g.notOwnedBy(place, player);
    out.put("place", String.valueOf(ScenarioPlay.place(g, unit, 1, place)));
    g.leave();
    out.put("gained", g.count(place, becomes, player) - before);
    out.put("left", g.count(place, unit, player));
    out.put("othersGained", g.notOwnedBy(place, player) - others);
    return out;
  }



  /** Convoy raids, lend-lease delivery, repairs at the income step, scorched earth. */
  static ScenarioJson.Obj economy(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    // Repairs: a damaged German heavy tank and a damaged British battleship are whole after the
    // owner's income step.
    ScenarioPlay.enter(g, GE, "Purchase", 1);
    final Unit tank = g.addUnits("Germany", "heavyTank", GE, 1).get(0);
    ScenarioPlay.damage(g, tank, 1);
    out.put("heavyTankHitsBefore", ((TripleAUnit) tank).getHits());
    ScenarioPlay.enter(g, GE, "EndTurn", 1);
    out.put("heavyTankHitsAfter", ((TripleAUnit) tank).getHits());
    // Scorched earth: after its purchase the Soviet Union destroys its complex in the Caucasus.
    ScenarioPlay.enter(g, RU, "UserActions", 1);
    out.put("scorchOffered", g.validActions());
    out.put("caucasusFactoriesBefore", g.count("Caucasus", "factory", RU));
    g.act("userActionAttachmentScorchCaucasus");
    out.put("caucasusFactoriesAfter", g.count("Caucasus", "factory", RU));
    out.put("scorchOfferedAfter", g.validActions());
    // Convoys: a German battleship and a transport next to the UK; Germany immune to a British
    // destroyer next to Germany.
    ScenarioPlay.enter(g, UK, "Purchase", 1);
    final Unit battleship = ScenarioPlay.units(g, "2 Sea Zone", UK, "battleship", 1).get(0);
    ScenarioPlay.damage(g, battleship, 1);
    out.put("battleshipHitsBefore", ((TripleAUnit) battleship).getHits());
    g.addUnits("3 Sea Zone", "battleship", GE, 1);
    g.addUnits("6 Sea Zone", "transport", GE, 1);
    out.put("raidersNextToUk", raiders(g, UK));
    out.put("britishProduction", ScenarioAarhe.production(g, UK));
    ScenarioPlay.enter(g, UK, "UserActions", 1);
    final int before = g.pus(UK);
    final int from = g.rolls.size();
    ScenarioPlay.enter(g, UK, "EndTurn", 1);
    out.put("britishIncome", g.pus(UK) - before);
    out.put("convoyRolls", ScenarioPlay.rollsSince(g, from, "Convoy"));
    out.put("battleshipHitsAfter", ((TripleAUnit) battleship).getHits());
    // Lend-lease: cargo in sea zone 4 pays the Soviet Union, two cargoes in 34 the UK, when the US
    // non-combat move ends; after the US placement two free cargoes stand in the Eastern US.
    ScenarioPlay.enter(g, US, "NonCombatMove", 1);
    g.addUnits("4 Sea Zone", "transport", US, 1);
    g.addUnits("4 Sea Zone", "lendLeaseCargo", US, 1);
    g.addUnits("34 Sea Zone", "transport", US, 2);
    g.addUnits("34 Sea Zone", "lendLeaseCargo", US, 2);
    final int soviets = g.pus(RU);
    final int british = g.pus(UK);
    g.leave();
    out.put("sovietsPaid", g.pus(RU) - soviets);
    out.put("britishPaid", g.pus(UK) - british);
    out.put("cargoLeftAtSea", g.count("4 Sea Zone", "lendLeaseCargo", US) + g.count("34 Sea Zone", "lendLeaseCargo", US));
    final int cargoBefore = g.count("Eastern United States", "lendLeaseCargo", US);
    ScenarioPlay.enter(g, US, "Place", 1);
    g.leave();
    out.put("freeCargo", g.count("Eastern United States", "lendLeaseCargo", US) - cargoBefore);
    // Germany's income with a British destroyer next to it.
    ScenarioPlay.enter(g, GE, "Purchase", 2);
    g.addUnits("5 Sea Zone", "destroyer", UK, 1);
    out.put("germanProduction", ScenarioAarhe.production(g, GE));
    final int german = g.pus(GE);
    ScenarioPlay.enter(g, GE, "EndTurn", 2);
    out.put("germanIncome", g.pus(GE) - german);
    // Neutral incomes: every neutral land handed to Germany (as Edit mode does when one joins the
    // Axis) pays its value at Germany's next income.
    ScenarioPlay.enter(g, GE, "Purchase", 3);
    out.put("germanProductionWithoutNeutrals", ScenarioAarhe.production(g, GE));
    final Map<String, Integer> neutrals = new TreeMap<>();
    for (final Territory t : g.data.getMap().getTerritories()) {
      if (!t.isWater() && t.getOwner().equals(PlayerID.NULL_PLAYERID)) {
        neutrals.put(t.getName(), TerritoryAttachment.get(t) == null ? 0 : TerritoryAttachment.get(t).getProduction());
        g.setOwner(t.getName(), GE);
      }
    }
    out.put("neutralValues", neutrals);
    final int withNeutrals = g.pus(GE);
    ScenarioPlay.enter(g, GE, "EndTurn", 3);
    out.put("germanIncomeWithNeutrals", g.pus(GE) - withNeutrals);
    g.stop();
    return out;
  }

  /** Enemy units in the sea zones next to PLAYER's land, by zone and type. */
  private static Map<String, Map<String, Integer>> raiders(final ScenarioGame g, final String player) {
    final Map<String, Map<String, Integer>> found = new TreeMap<>();
    for (final Territory zone : g.data.getMap().getTerritories()) {
      if (!zone.isWater()) {
        continue;
      }
      boolean nextToVictim = false;
      for (final Territory land : g.data.getMap().getNeighbors(zone)) {
        nextToVictim |= land.getOwner().equals(g.player(player)) && TerritoryAttachment.get(land) != null
            && TerritoryAttachment.get(land).getProduction() > 0;
      }
      if (!nextToVictim) {
        continue;
      }
      for (final Unit u : zone.getUnits().getMatches(Matches.enemyUnit(g.player(player), g.data))) {
        found.computeIfAbsent(zone.getName(), k -> new TreeMap<>()).merge(u.getType().getName(), 1, Integer::sum);
      }
    }
    return found;
  }

  /** National builds, heavy units by research, national attacks and terrain bonuses. */
  static ScenarioJson.Obj builds(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    // Soviet T-34s: one bundle a turn, placed in Russia only, ordinary tanks afterwards.
    ScenarioPlay.enter(g, RU, "Purchase", 1);
    out.put("sovietFrontier", g.frontier(RU));
    int pus = g.pus(RU);
    out.put("buyT34", String.valueOf(ScenarioPlay.buy(g, "buyT34", 1)));
    out.put("t34Price", pus - g.pus(RU));
    out.put("buyT34Again", String.valueOf(ScenarioPlay.buy(g, "buyT34", 1)));
    ScenarioPlay.enter(g, RU, "Place", 1);
    out.put("placeT34InCaucasus", String.valueOf(ScenarioPlay.place(g, "t34Armour", 1, "Caucasus")));
    final int armour = g.count("Russia", "armour", RU);
    final int othersInRussia = g.notOwnedBy("Russia", RU);
    out.put("placeT34InRussia", String.valueOf(ScenarioPlay.place(g, "t34Armour", 2, "Russia")));
    g.leave();
    out.put("russiaArmourGained", g.count("Russia", "armour", RU) - armour);
    out.put("othersGainedInRussia", g.notOwnedBy("Russia", RU) - othersInRussia);
    out.put("t34Left", g.count("Russia", "t34Armour", RU));
    // Japan, Patriotism: 3 infantry for the bundle's price (round 2: in the full rules Japan plays
    // before the Soviet Union, in the earlier revisions after).
    ScenarioPlay.enter(g, JP, "Purchase", 2);
    out.put("japaneseFrontier", g.frontier(JP));
    pus = g.pus(JP);
    out.put("buyPatriotism", String.valueOf(ScenarioPlay.buy(g, "buyPatriotism", 1)));
    out.put("patriotismPrice", pus - g.pus(JP));
    out.put("buyPatriotismAgain", String.valueOf(ScenarioPlay.buy(g, "buyPatriotism", 1)));
    ScenarioPlay.enter(g, JP, "Place", 2);
    out.put("placePatriotsInManchuria", String.valueOf(ScenarioPlay.place(g, "patriotInfantry", 1, "Manchuria")));
    final int infantry = g.count("Japan", "infantry", JP);
    final int othersInJapan = g.notOwnedBy("Japan", JP);
    out.put("placePatriots", String.valueOf(ScenarioPlay.place(g, "patriotInfantry", 3, "Japan")));
    g.leave();
    out.put("japanInfantryGained", g.count("Japan", "infantry", JP) - infantry);
    out.put("othersGainedInJapan", g.notOwnedBy("Japan", JP) - othersInJapan);
    // Italy, Regia Marina (the full rules only): a battleship, carrier or destroyer for 2 less, one
    // of each a turn, ordinary ships after the placement (for Italy alone).
    if (g.data.getUnitTypeList().getUnitType("regiaDestroyer") != null) {
      ScenarioPlay.enter(g, IT, "Purchase", 2);
      g.change(ChangeFactory.changeResourcesChange(g.player(IT), g.data.getResourceList().getResource("PUs"), 60));
      final ScenarioJson.Obj regia = ScenarioJson.obj();
      for (final String ship : new String[] {"Battleship", "Carrier", "Destroyer"}) {
        pus = g.pus(IT);
        regia.put("buy" + ship, String.valueOf(ScenarioPlay.buy(g, "buyRegia" + ship, 1)));
        regia.put("price" + ship, pus - g.pus(IT));
        regia.put("buyAgain" + ship, String.valueOf(ScenarioPlay.buy(g, "buyRegia" + ship, 1)));
      }
      ScenarioPlay.enter(g, IT, "Place", 2);
      final Map<String, Integer> before = g.unitsOf("14 Sea Zone", IT);
      final int others = g.notOwnedBy("14 Sea Zone", IT);
      for (final String ship : new String[] {"Battleship", "Carrier", "Destroyer"}) {
        regia.put("place" + ship, String.valueOf(ScenarioPlay.place(g, "regia" + ship, 1, "14 Sea Zone")));
      }
      g.leave();
      final Map<String, Integer> after = g.unitsOf("14 Sea Zone", IT);
      for (final String unit : new String[] {"battleship", "carrier", "destroyer", "regiaBattleship", "regiaCarrier",
          "regiaDestroyer"}) {
        regia.put("gained " + unit, after.getOrDefault(unit, 0) - before.getOrDefault(unit, 0));
      }
      regia.put("othersGained", g.notOwnedBy("14 Sea Zone", IT) - others);
      out.put("regiaMarina", regia);
    }
    // Round 3: the Soviet Union may buy another bundle; the national attacks are in force.
    ScenarioPlay.enter(g, RU, "Purchase", 3);
    out.put("buyT34NextTurn", String.valueOf(ScenarioPlay.buy(g, "buyT34", 1)));
    final ScenarioJson.Obj strengths = ScenarioJson.obj();
    strengths.put("germanFighterInFrance", ScenarioPlay.strengths(g, GE, "fighter", "Western Europe", false));
    strengths.put("britishFighterInFrance", ScenarioPlay.strengths(g, UK, "fighter", "Western Europe", false));
    strengths.put("japaneseFighterAtSea", ScenarioPlay.strengths(g, JP, "fighter", "61 Sea Zone", false));
    strengths.put("americanFighterAtSea", ScenarioPlay.strengths(g, US, "fighter", "61 Sea Zone", false));
    if (g.data.getUnitTypeList().getUnitType("navalFighter") != null) {
      // Germany's naval fighters keep their attack: Blitzkrieg is the fighters' alone (Lance Torpedo's
      // tech, given to Germany, would show here).
      strengths.put("germanNavalFighterAtSea", ScenarioPlay.strengths(g, GE, "navalFighter", "61 Sea Zone", false));
      strengths.put("japaneseNavalFighterAtSea", ScenarioPlay.strengths(g, JP, "navalFighter", "61 Sea Zone", false));
      strengths.put("britishNavalFighterAtSea", ScenarioPlay.strengths(g, UK, "navalFighter", "61 Sea Zone", false));
    }
    strengths.put("britishFighterInUk", ScenarioPlay.strengths(g, UK, "fighter", "United Kingdom", false));
    strengths.put("britishFighterInIndia", ScenarioPlay.strengths(g, UK, "fighter", "India", false));
    for (final String radar : new String[] {"Eastern Canada", "Western Canada", "Australia"}) {
      strengths.put("britishFighterIn" + radar.replace(" ", ""), ScenarioPlay.strengths(g, UK, "fighter", radar, false));
    }
    strengths.put("marineLanding", ScenarioPlay.strengths(g, US, "marine", "Western Europe", true));
    strengths.put("marineOverland", ScenarioPlay.strengths(g, US, "marine", "Western Europe", false));
    if (g.data.getPlayerList().getPlayerId(IT) != null) {
      strengths.put("italianInfantryInBalkans", ScenarioPlay.strengths(g, IT, "infantry", "Balkans", false));
      strengths.put("italianInfantryInLibya", ScenarioPlay.strengths(g, IT, "infantry", "Libya", false));
      strengths.put("germanInfantryInGermany", ScenarioPlay.strengths(g, GE, "infantry", "Germany", false));
    }
    out.put("strengths", strengths);
    // The bundle bought this round stays unplaced: nothing is converted in Russia.
    ScenarioPlay.enter(g, RU, "Place", 3);
    final int russianArmour = g.count("Russia", "armour", RU);
    g.leave();
    out.put("russiaArmourGainedWithoutPlacing", g.count("Russia", "armour", RU) - russianArmour);
    // Heavy artillery and heavy tanks come with their techs (the full rules only).
    if (g.data.getTechnologyFrontier().getAdvanceByName("HeavyArtilleryTech") != null) {
      ScenarioPlay.enter(g, GE, "Purchase", 4);
      out.put("germanHeavyRulesBeforeTech", heavyRules(g, GE));
      ScenarioPlay.enter(g, GE, "Tech", 4);
      ScenarioPlay.addTech(g, GE, "HeavyArtilleryTech");
      ScenarioPlay.enter(g, GE, "Purchase", 5);
      final List<String> heavy = new ArrayList<>();
      for (final String rule : g.frontier(GE).keySet()) {
        if (rule.startsWith("buyHeavy")) {
          heavy.add(rule);
        }
      }
      out.put("germanHeavyRulesAfterTech", heavy);
      out.put("britishHasHeavyArtillery", g.frontier(UK).containsKey("buyHeavyArtillery"));
    }
    if (g.data.getTerritoryEffectList().get("Desert") != null) {
      out.put("terrain", ScenarioAarheTerrain.terrain(g, 5));
    }
    // A turn without a national build converts nothing: Japan places no bundle in round 5.
    ScenarioPlay.enter(g, JP, "Place", 5);
    final int japanInfantry = g.count("Japan", "infantry", JP);
    g.leave();
    out.put("japanInfantryGainedWithoutBundle", g.count("Japan", "infantry", JP) - japanInfantry);
    if (g.data.getUnitTypeList().getUnitType("factory5") != null) {
      out.put("complexes", ScenarioAarheComplexes.complexes(g, 6));
    }
    // Type VII, Spitfire and Essex (round 7): bought once a turn, placed where the build says,
    // ordinary units of the builder after the placement.
    final ScenarioJson.Obj single = ScenarioJson.obj();
    single.put("typeVII", singleBuild(g, 7, GE, "buyTypeVII", "typeVIISubmarine", "5 Sea Zone", "submarine"));
    single.put("spitfire", singleBuild(g, 7, UK, "buySpitfire", "spitfire", "United Kingdom", "fighter"));
    single.put("essex", singleBuild(g, 7, US, "buyEssex", "essexCarrier", "10 Sea Zone", "carrier"));
    out.put("singleBuilds", single);
    if (g.data.getTechnologyFrontier().getAdvanceByName("HeavyTankTech") != null) {
      laterBuilds(g, out);
    }
    g.stop();
    out.put("conversions", ScenarioAarheBuilds.conversions(file));
    return out;
  }

  /** Heavy-unit rules (tanks and artillery) of PLAYER's two frontiers (ordinary and Advanced Production). */
  private static List<String> heavyRules(final ScenarioGame g, final String player) {
    final List<String> found = new ArrayList<>();
    for (final String frontier : new String[] {"production" + player, "production" + player + "IndustrialTechnology"}) {
      for (final games.strategy.engine.data.ProductionRule rule
          : g.data.getProductionFrontierList().getProductionFrontier(frontier).getRules()) {
        if (rule.getName().startsWith("buyHeavy")) {
          found.add(rule.getName());
        }
      }
    }
    return found;
  }

  /**
   * Rounds 8 and 9: a placement without a national build converts nothing (Type VII, Spitfire), a
   * Type VII goes nowhere but sea zone 5, and an Essex converts in sea zones 54 and 55 too. Then
   * heavy tanks and artillery come to each nation that researched them, at its next purchase, and
   * to no other: the nations research one a turn (Germany, with Heavy Artillery since round 4,
   * first), and after each every nation's frontiers are read (a nation's rule given on another's
   * research shows).
   */
  private static void laterBuilds(final ScenarioGame g, final ScenarioJson.Obj out) throws Exception {
    final String[] nations = {GE, JP, IT, RU, UK, US}; // in turn order
    final ScenarioJson.Obj before = ScenarioJson.obj();
    final ScenarioJson.Obj noBuild = ScenarioJson.obj();
    for (final String nation : nations) {
      ScenarioPlay.enter(g, nation, "Purchase", 8);
      before.put(nation, heavyRules(g, nation));
      if (nation.equals(GE)) {
        // A Type VII next to a second German complex (Western Europe's, sea zone 7) is refused.
        g.addUnits("Western Europe", "factory", GE, 1);
        ScenarioPlay.buy(g, "buyTypeVII", 1);
        ScenarioPlay.enter(g, GE, "Place", 8);
        noBuild.put("typeVIIInZone7", String.valueOf(ScenarioPlay.place(g, "typeVIISubmarine", 1, "7 Sea Zone")));
        final int subs = g.count("5 Sea Zone", "submarine", GE);
        g.leave();
        noBuild.put("germanSubmarinesGained", g.count("5 Sea Zone", "submarine", GE) - subs);
      } else if (nation.equals(UK)) {
        ScenarioPlay.enter(g, UK, "Place", 8);
        final int fighters = g.count("United Kingdom", "fighter", UK);
        g.leave();
        noBuild.put("britishFightersGained", g.count("United Kingdom", "fighter", UK) - fighters);
      } else if (nation.equals(US)) {
        out.put("essex54", essexAt(g, 8, "54 Sea Zone"));
      }
    }
    out.put("essex55", essexAt(g, 9, "55 Sea Zone"));
    final List<Object> afterEach = new ArrayList<>();
    final List<String> researched = new ArrayList<>();
    research(g, nations[0], 10, researched);
    for (int round = 11; round < 11 + nations.length; round++) {
      final ScenarioJson.Obj rules = ScenarioJson.obj();
      final String next = researched.size() < nations.length ? nations[researched.size()] : null;
      final List<String> sofar = new ArrayList<>(researched);
      for (final String nation : nations) {
        ScenarioPlay.enter(g, nation, "Purchase", round);
        rules.put(nation, heavyRules(g, nation));
        if (nation.equals(next)) {
          research(g, nation, round, researched);
        }
      }
      afterEach.add(ScenarioJson.obj().put("researched", sofar).put("rules", rules));
    }
    out.put("heavyRulesBeforeTech", before);
    out.put("heavyRulesAfterEachResearch", afterEach);
    out.put("withoutBuild", noBuild);
  }

  /** NATION researches Heavy Tank and Heavy Artillery at its research step of ROUND. */
  private static void research(final ScenarioGame g, final String nation, final int round, final List<String> done)
      throws Exception {
    ScenarioPlay.enter(g, nation, "Tech", round);
    ScenarioPlay.addTech(g, nation, "HeavyTankTech");
    if (!nation.equals(GE)) { // Germany has had Heavy Artillery since round 4
      ScenarioPlay.addTech(g, nation, "HeavyArtilleryTech");
    }
    done.add(nation);
  }

  /** An Essex bought and placed in ZONE in ROUND, and the carriers gained in every Essex zone. */
  private static ScenarioJson.Obj essexAt(final ScenarioGame g, final int round, final String zone) throws Exception {
    final String[] zones = {"10 Sea Zone", "54 Sea Zone", "55 Sea Zone"};
    final Map<String, Integer> carriers = new TreeMap<>();
    for (final String z : zones) {
      carriers.put(z, g.count(z, "carrier", US));
    }
    final ScenarioJson.Obj out = singleBuild(g, round, US, "buyEssex", "essexCarrier", zone, "carrier");
    final ScenarioJson.Obj gained = ScenarioJson.obj();
    for (final String z : zones) {
      gained.put(z, g.count(z, "carrier", US) - carriers.get(z));
    }
    out.put("carriersGained", gained);
    return out;
  }
}
