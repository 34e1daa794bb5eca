package forge;

import static forge.ScenarioNations.*;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.changefactory.ChangeFactory;
import games.strategy.triplea.delegate.DiceRoll;
import games.strategy.triplea.delegate.TerritoryEffectHelper;
import games.strategy.util.Tuple;

/** Expansion Edition rules in the engine: Italy's turn, free units, the treaty, units. */
final class ScenarioExpansion {
  private ScenarioExpansion() {}

  /** Italy's turn after Germany's, the free units of round 1, SS Panzers placed in Germany only. */
  static ScenarioJson.Obj turn(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    g.enter("germanPlace", 1);
    out.put("germanyBeforeFreeUnits", g.unitsOf("Germany", GE));
    out.put("sz5BeforeFreeUnits", g.unitsOf("5 Sea Zone", GE));
    g.leave();
    out.put("germanyAfterFreeUnits", g.unitsOf("Germany", GE));
    out.put("sz5AfterFreeUnits", g.unitsOf("5 Sea Zone", GE));
    g.enter("italianPurchase", 1);
    out.put("italianFrontier", g.frontier(IT));
    final int pus = g.pus(IT);
    out.put("italianBuy", String.valueOf(ScenarioPlay.buy(g, "buyInfantry", 2)));
    out.put("italianSpent", pus - g.pus(IT));
    g.enter("italianPlace", 1);
    final int infantry = g.count("Southern Europe", "infantry", IT);
    out.put("italianPlace", String.valueOf(ScenarioPlay.place(g, "infantry", 2, "Southern Europe")));
    g.leave();
    // Italy's free mechanized infantry come after its placement.
    out.put("southernEuropeInfantryGained", g.count("Southern Europe", "infantry", IT) - infantry);
    out.put("southernEuropeMechInfantry", g.count("Southern Europe", "mechInfantry", IT));
    // Round 2: an SS Panzer may be placed in Germany, not at a complex elsewhere.
    g.enter("germanPurchase", 2);
    g.addUnits("Western Europe", "factory", GE, 1);
    out.put("buySsPanzers", String.valueOf(ScenarioPlay.buy(g, "buySSPanzer", 2)));
    g.enter("germanPlace", 2);
    out.put("placeSsPanzerInWesternEurope", String.valueOf(ScenarioPlay.place(g, "ssPanzer", 1, "Western Europe")));
    out.put("placeSsPanzerInGermany", String.valueOf(ScenarioPlay.place(g, "ssPanzer", 1, "Germany")));
    out.put("started", g.started);
    g.stop();
    return out;
  }

  /**
   * Every nation's free units of round 1: what each placement step of round 1 (and of round 2,
   * where nothing comes) adds to the places the units go, by territory, owner and unit. Gains are
   * given for every owner, so units placed for the wrong player show.
   */
  static ScenarioJson.Obj freeUnits(final String file) throws Exception {
    final String[][] turns = {
      {RU, "russianPlace", "Russia"},
      {GE, "germanPlace", "Germany", "5 Sea Zone"},
      {IT, "italianPlace", "Southern Europe"},
      {UK, "britishPlace", "United Kingdom", "2 Sea Zone"},
      {JP, "japanesePlace", "Japan", "60 Sea Zone"},
      {US, "americanPlace", "Eastern United States", "55 Sea Zone", "Western United States"},
    };
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    for (int round = 1; round <= 2; round++) {
      final ScenarioJson.Obj gains = ScenarioJson.obj();
      for (final String[] turn : turns) {
        final List<String> places = java.util.Arrays.asList(turn).subList(2, turn.length);
        g.enter(turn[1], round);
        final Map<String, Map<String, Integer>> before = unitsByOwner(g, places);
        g.leave();
        gains.put(turn[0], gained(before, unitsByOwner(g, places)));
      }
      out.put("round" + round, gains);
    }
    g.stop();
    return out;
  }

  /** "territory/owner" -> unit -> count, for PLACES. */
  private static Map<String, Map<String, Integer>> unitsByOwner(final ScenarioGame g, final List<String> places) {
    final Map<String, Map<String, Integer>> out = new java.util.TreeMap<>();
    for (final String place : places) {
      for (final Unit u : g.territory(place).getUnits().getUnits()) {
        out.computeIfAbsent(place + "/" + u.getOwner().getName(), k -> new java.util.TreeMap<>())
            .merge(u.getType().getName(), 1, Integer::sum);
      }
    }
    return out;
  }

  /** "territory/owner" -> unit -> count gained from BEFORE to AFTER, only where something was gained. */
  private static Map<String, Map<String, Integer>> gained(final Map<String, Map<String, Integer>> before,
      final Map<String, Map<String, Integer>> after) {
    final Map<String, Map<String, Integer>> out = new java.util.TreeMap<>();
    for (final Map.Entry<String, Map<String, Integer>> e : after.entrySet()) {
      final Map<String, Integer> was = before.getOrDefault(e.getKey(), Collections.emptyMap());
      for (final Map.Entry<String, Integer> unit : e.getValue().entrySet()) {
        final int change = unit.getValue() - was.getOrDefault(unit.getKey(), 0);
        if (change != 0) {
          out.computeIfAbsent(e.getKey(), k -> new java.util.TreeMap<>()).put(unit.getKey(), change);
        }
      }
    }
    return out;
  }

  /** The Russia-Japan treaty ended by Russia: war, and four infantry for Japan. */
  static ScenarioJson.Obj treaty(final String file) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    // While the treaty holds Japan may not attack Soviet land.
    final ScenarioGame a = new ScenarioGame(file);
    a.enter("japaneseCombatMove", 1);
    out.put("attackDuringTreaty", ScenarioPlay.attackBuryatia(a));
    // The treaty steps open each side's turn, before its research.
    final List<String> steps = new ArrayList<>();
    for (final games.strategy.engine.data.GameStep step : a.data.getSequence()) {
      steps.add(step.getName());
    }
    out.put("stepAfterRussianUserActions", steps.get(steps.indexOf("russianUserActions") + 1));
    out.put("stepAfterJapaneseUserActions", steps.get(steps.indexOf("japaneseUserActions") + 1));
    a.stop();
    // Russia ends it: war, four infantry for Japan (for Japan alone), and no more treaty to end.
    final ScenarioGame g = new ScenarioGame(file);
    g.enter("russianUserActions", 1);
    out.put("relationAtStart", relation(g));
    out.put("offered", g.validActions().contains("userActionAttachmentRuEndTreaty"));
    final int japan = g.count("Japan", "infantry", JP);
    final int others = g.notOwnedBy("Japan", JP);
    g.act("userActionAttachmentRuEndTreaty");
    out.put("relationAfter", relation(g));
    out.put("japanInfantryGained", g.count("Japan", "infantry", JP) - japan);
    out.put("othersGainedInJapan", g.notOwnedBy("Japan", JP) - others);
    out.put("offeredAfter", g.validActions().contains("userActionAttachmentRuEndTreaty"));
    // Later turns: the treaty is over, neither side can end it (and be paid) again; in the step it
    // was used the once-a-turn limit would hide that.
    g.enter("japaneseUserActions", 1);
    out.put("offeredToJapanAfterwards", g.validActions().contains("userActionAttachmentJpEndTreaty"));
    g.enter("russianUserActions", 2);
    out.put("offeredNextRound", g.validActions().contains("userActionAttachmentRuEndTreaty"));
    out.put("relationNextRound", relation(g));
    g.enter("japaneseCombatMove", 2);
    out.put("attackAfterTreaty", ScenarioPlay.attackBuryatia(g));
    g.stop();
    // Japan ends it: four infantry for the Soviet Union in Russia, for it alone.
    final ScenarioGame j = new ScenarioGame(file);
    j.enter("japaneseUserActions", 1);
    out.put("offeredToJapan", j.validActions().contains("userActionAttachmentJpEndTreaty"));
    final int russia = j.count("Russia", "infantry", RU);
    final int othersInRussia = j.notOwnedBy("Russia", RU);
    j.act("userActionAttachmentJpEndTreaty");
    out.put("relationAfterJapanEnds", relation(j));
    out.put("russiaInfantryGained", j.count("Russia", "infantry", RU) - russia);
    out.put("othersGainedInRussia", j.notOwnedBy("Russia", RU) - othersInRussia);
    j.enter("japaneseUserActions", 2);
    out.put("offeredToJapanNextRound", j.validActions().contains("userActionAttachmentJpEndTreaty"));
    j.stop();
    return out;
  }


  private static String relation(final ScenarioGame g) {
    return g.data.getRelationshipTracker().getRelationshipType(g.player(RU), g.player(JP)).getName();
  }

  /** Destroyers against submarines, and a tank taking an infantry along. */
  static ScenarioJson.Obj units(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    // A carrier gives a destroyer starting the turn with it one more move; one without stays at 2.
    for (final String zone : new String[] {"9 Sea Zone", "12 Sea Zone", "8 Sea Zone", "2 Sea Zone", "3 Sea Zone"}) {
      final List<Unit> there = new ArrayList<>(g.territory(zone).getUnits().getUnits());
      if (!there.isEmpty()) {
        g.change(ChangeFactory.removeUnits(g.territory(zone), there));
      }
    }
    final List<Unit> group = new ArrayList<>(g.addUnits("9 Sea Zone", "carrier", GE, 1));
    group.addAll(g.addUnits("9 Sea Zone", "destroyer", GE, 1));
    g.addUnits("12 Sea Zone", "destroyer", GE, 1);
    g.enter("germanCombatMove", 1);
    out.put("destroyerWithCarrierThreeZones", String.valueOf(ScenarioPlay.moveWith(g, group, Collections.emptyMap(),
        "9 Sea Zone", "8 Sea Zone", "2 Sea Zone", "3 Sea Zone")));
    out.put("destroyerAloneThreeZones", String.valueOf(ScenarioPlay.move(g, GE, "destroyer", 1, "12 Sea Zone",
        "8 Sea Zone", "2 Sea Zone", "3 Sea Zone")));
    out.put("destroyerAlone", ScenarioPlay.strength(g, UK, "destroyer", "7 Sea Zone", GE));
    out.put("destroyerAgainstSubmarine", ScenarioPlay.strength(g, UK, "destroyer", "7 Sea Zone", GE, "submarine"));
    // Every nation's submarines are hunted: an enemy destroyer against one, and against two (no more).
    final ScenarioJson.Obj hunted = ScenarioJson.obj();
    for (final String player : new String[] {RU, GE, IT, UK, JP, US}) {
      final String enemy = player.equals(GE) || player.equals(IT) || player.equals(JP) ? UK : GE;
      hunted.put(player, ScenarioJson.obj()
          .put("one", ScenarioPlay.strength(g, enemy, "destroyer", "7 Sea Zone", player, "submarine"))
          .put("two", ScenarioPlay.strength(g, enemy, "destroyer", "7 Sea Zone", player, "submarine", "submarine")));
    }
    out.put("destroyerAgainstSubmarinesOf", hunted);
    g.enter("germanNonCombatMove", 1);
    // A submarine may not pass a sea zone holding an enemy destroyer.
    g.addUnits("7 Sea Zone", "submarine", GE, 2);
    out.put("subThroughEmptyZone", String.valueOf(ScenarioPlay.move(g, GE, "submarine", 1, "7 Sea Zone", "6 Sea Zone",
        "5 Sea Zone")));
    g.addUnits("6 Sea Zone", "destroyer", UK, 1);
    out.put("subThroughDestroyer", String.valueOf(ScenarioPlay.move(g, GE, "submarine", 1, "7 Sea Zone", "6 Sea Zone",
        "5 Sea Zone")));
    // A tank takes one infantry two territories along.
    final List<Unit> tank = g.addUnits("Germany", "armour", GE, 1);
    final List<Unit> infantry = g.addUnits("Germany", "infantry", GE, 2);
    final Map<Unit, java.util.Collection<Unit>> carried = new HashMap<>();
    carried.put(tank.get(0), Collections.singletonList(infantry.get(0)));
    out.put("tankWithInfantry", String.valueOf(ScenarioPlay.moveWith(g, tank, carried, "Germany", "Eastern Europe",
        "Ukraine S.S.R.")));
    out.put("infantryAloneTwoSpaces", String.valueOf(ScenarioPlay.moveWith(g,
        Collections.singletonList(infantry.get(1)), Collections.emptyMap(), "Germany", "Eastern Europe", "Ukraine S.S.R.")));
    g.stop();
    out.put("tanksTakeInfantryAlong", tanksTakeInfantryAlong(file));
    return out;
  }

  /** The land route a tank takes an infantry along (two territories on). */
  private static final String[] ALONG = {"Germany", "Eastern Europe", "Ukraine S.S.R."};

  /**
   * In each nation's non-combat move of round 1, on the route ALONG given to it and cleared: each
   * kind of tank takes one infantry or mechanized infantry two territories on.
   */
  private static ScenarioJson.Obj tanksTakeInfantryAlong(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    for (final String player : new String[] {RU, GE, IT, UK, JP, US}) {
      ScenarioPlay.enter(g, player, "NonCombatMove", 1);
      final ScenarioJson.Obj moves = ScenarioJson.obj();
      for (final String tankType : new String[] {"armour", "heavyTank", "ssPanzer"}) {
        for (final String cargoType : new String[] {"infantry", "mechInfantry"}) {
          for (final String name : ALONG) {
            final List<Unit> there = new ArrayList<>(g.territory(name).getUnits().getUnits());
            if (!there.isEmpty()) {
              g.change(ChangeFactory.removeUnits(g.territory(name), there));
            }
            g.setOwner(name, player);
          }
          final List<Unit> tank = g.addUnits(ALONG[0], tankType, player, 1);
          final List<Unit> cargo = g.addUnits(ALONG[0], cargoType, player, 1);
          final Map<Unit, java.util.Collection<Unit>> carried = new HashMap<>();
          carried.put(tank.get(0), cargo);
          moves.put(tankType + " with " + cargoType, String.valueOf(ScenarioPlay.moveWith(g, tank, carried, ALONG)));
        }
      }
      out.put(player, moves);
    }
    g.stop();
    return out;
  }
}
