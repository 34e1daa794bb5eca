package forge;

import static forge.ScenarioNations.*;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.triplea.util.TransportUtils;
import games.strategy.triplea.attachments.TechAttachment;
import games.strategy.triplea.attachments.TerritoryAttachment;
import games.strategy.triplea.attachments.UnitAttachment;
import games.strategy.triplea.delegate.EndRoundDelegate;

/**
 * Scenarios that prove AARHE rules (rules/aarhe and its earlier revisions) in the real engine.
 * Steps are found by player and suffix (ScenarioPlay.stepOf), so a scenario runs on every
 * revision whose turn it can find; facts a revision does not have are left out.
 */
final class ScenarioAarhe {
  private ScenarioAarhe() {}

  /** The Soviet opening turn, the nations' order, government in exile and research without a capital. */
  static ScenarioJson.Obj turnOrder(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    // Moscow falls during the German turn of round 1.
    ScenarioPlay.enter(g, GE, "Battle", 1);
    g.setOwner("Russia", GE);
    ScenarioPlay.enter(g, RU, "Purchase", 1);
    out.put("techCostWithoutCapital", techCost(g, RU));
    final int before = g.pus(RU);
    out.put("buyWithoutCapital", String.valueOf(ScenarioPlay.buy(g, "buyInfantry", 1)));
    out.put("spentWithoutCapital", before - g.pus(RU));
    // Income is collected as the income step starts.
    final int beforeIncome = g.pus(RU);
    ScenarioPlay.enter(g, RU, "EndTurn", 1);
    out.put("incomeWithoutCapital", g.pus(RU) - beforeIncome);
    out.put("productionWithoutCapital", production(g, RU));
    // Moscow is retaken before the next Soviet turn: research costs 5 again.
    ScenarioPlay.enter(g, UK, "Purchase", 1);
    g.setOwner("Russia", RU);
    ScenarioPlay.enter(g, RU, "Purchase", 2);
    out.put("techCostWithCapital", techCost(g, RU));
    final String endRound = endRoundStep(g);
    g.enter(endRound, 2);
    out.put("started", g.started);
    g.stop();
    out.put("exile", ScenarioAarheExile.exile(file));
    out.put("researchWithoutCapital", researchWithoutCapital(file));
    return out;
  }

  /**
   * In a game of its own, each nation in turn loses its capital alone just before its purchase of
   * rounds 3 and 5 (and has it back just after; in round 4 it holds it): the research cost it then pays. A nation's block
   * that watches another's capital, or that blocks once only, shows.
   */
  private static ScenarioJson.Obj researchWithoutCapital(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final java.util.Map<Integer, String> inTurnOrder = new java.util.TreeMap<>();
    for (final PlayerID p : g.data.getPlayerList().getPlayers()) {
      if (capitalOf(g, p) != null && TechAttachment.get(p) != null) {
        inTurnOrder.put(ScenarioPlay.indexOf(g, ScenarioPlay.stepOf(g, p.getName(), "Purchase")), p.getName());
      }
    }
    final ScenarioJson.Obj out = ScenarioJson.obj();
    // Round 2 played to its last purchase first: from the first nation's purchase of round 3 on,
    // each loses its capital only just before its own.
    final List<String> nations = new ArrayList<>(inTurnOrder.values());
    ScenarioPlay.enter(g, nations.get(nations.size() - 1), "Purchase", 2);
    for (final int round : new int[] {3, 4, 5}) {
      final boolean lost = round != 4; // round 4 with every capital held: research costs 5 again
      final ScenarioJson.Obj costs = ScenarioJson.obj();
      for (final String nation : inTurnOrder.values()) {
        final Territory capital = capitalOf(g, g.player(nation));
        if (lost) {
          g.setOwner(capital.getName(), enemyOf(g, nation));
        }
        ScenarioPlay.enter(g, nation, "Purchase", round);
        costs.put(nation, techCost(g, nation));
        g.setOwner(capital.getName(), nation);
      }
      out.put(String.valueOf(round), costs);
    }
    g.stop();
    return out;
  }

  /** PLAYER's capital (the first territory that names it so), or null. */
  private static Territory capitalOf(final ScenarioGame g, final PlayerID player) {
    for (final Territory t : g.data.getMap().getTerritories()) {
      final TerritoryAttachment ta = TerritoryAttachment.get(t);
      if (ta != null && player.getName().equals(ta.getCapital())) {
        return t;
      }
    }
    return null;
  }

  /** The first player at war with NATION. */
  private static String enemyOf(final ScenarioGame g, final String nation) {
    for (final PlayerID p : g.data.getPlayerList().getPlayers()) {
      if (g.data.getRelationshipTracker().isAtWar(g.player(nation), p)) {
        return p.getName();
      }
    }
    throw new IllegalStateException(nation + " is at war with no one");
  }

  private static int techCost(final ScenarioGame g, final String player) {
    return TechAttachment.get(g.player(player)).getTechCost();
  }

  static int production(final ScenarioGame g, final String player) {
    int total = 0;
    for (final Territory t : g.data.getMap().getTerritories()) {
      if (t.getOwner().equals(g.player(player)) && TerritoryAttachment.get(t) != null) {
        total += TerritoryAttachment.get(t).getProduction();
      }
    }
    return total;
  }

  static String endRoundStep(final ScenarioGame g) {
    for (final GameStep step : g.data.getSequence()) {
      if (step.getDelegate() instanceof EndRoundDelegate) {
        return step.getName();
      }
    }
    throw new IllegalStateException("no end-of-round step");
  }

  /** A lone fighter attacks a complex with an AA gun: the ID dice the engine rolls. */
  static ScenarioJson.Obj aaDice(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    ScenarioPlay.enter(g, UK, "CombatMove", 1);
    g.addUnits("5 Sea Zone", "fighter", UK, 1);
    out.put("germany", g.unitsOf("Germany", GE));
    out.put("attack", String.valueOf(ScenarioPlay.move(g, UK, "fighter", 1, "5 Sea Zone", "Germany")));
    out.put("pendingAfterMove", String.valueOf(games.strategy.triplea.delegate.DelegateFinder.battleDelegate(g.data)
        .getBattleTracker().getPendingBattleSites(false)));
    // The battle step fights the battle as it starts (no choice is left to the players).
    final int from = g.rolls.size();
    ScenarioPlay.enter(g, UK, "Battle", 1);
    out.put("pendingAfterBattleStep", String.valueOf(games.strategy.triplea.delegate.DelegateFinder.battleDelegate(g.data)
        .getBattleTracker().getPendingBattleSites(false)));
    final List<ScenarioJson.Obj> aa = new ArrayList<>();
    for (final ScenarioJson.Obj roll : g.rolls.subList(from, g.rolls.size())) {
      if (Integer.valueOf(36).equals(roll.get("sides"))) {
        aa.add(roll);
      }
    }
    out.put("aaRolls", aa);
    // The order of the battle's dice (their sides): the ID dice open every round.
    final List<Object> order = new ArrayList<>();
    for (final ScenarioJson.Obj roll : g.rolls.subList(from, g.rolls.size())) {
      order.add(roll.get("sides"));
    }
    out.put("battleDiceSides", order);
    g.stop();
    return out;
  }


  /** Stalinist xenophobia, Axis co-operation, naval fighters on carriers, bombers carrying infantry. */
  static ScenarioJson.Obj movement(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    // Japanese infantry next to German land may not enter it while the Axis distrust each other.
    ScenarioPlay.enter(g, JP, "NonCombatMove", 1);
    g.addUnits("Eastern Europe", "infantry", JP, 1);
    out.put("relationGermanyJapan", relation(g, GE, JP));
    out.put("japaneseIntoGermany", String.valueOf(ScenarioPlay.move(g, JP, "infantry", 1, "Eastern Europe", "Germany")));
    // Only naval fighters land on carriers.
    g.addUnits("Japan", "fighter", JP, 1);
    g.addUnits("Japan", "navalFighter", JP, 1);
    g.addUnits("60 Sea Zone", "carrier", JP, 1);
    out.put("fighterOntoCarrier", String.valueOf(ScenarioPlay.move(g, JP, "fighter", 1, "Japan", "60 Sea Zone")));
    out.put("navalFighterOntoCarrier",
        String.valueOf(ScenarioPlay.move(g, JP, "navalFighter", 1, "Japan", "60 Sea Zone")));
    // The engine lets aircraft end the move at sea and removes those that cannot land when it ends.
    g.leave();
    out.put("atSeaAfterMove", g.unitsOf("60 Sea Zone", JP));
    // British units may not enter Soviet land while the Axis have not taken Moscow.
    ScenarioPlay.enter(g, UK, "NonCombatMove", 1);
    g.addUnits("Persia", "infantry", UK, 1);
    out.put("britishIntoCaucasus", String.valueOf(ScenarioPlay.move(g, UK, "infantry", 1, "Persia", "Caucasus")));
    // A bomber carries a marine two territories, where a marine alone cannot go; it has room for
    // one: with two marines, the one left behind cannot follow.
    ScenarioPlay.enter(g, US, "NonCombatMove", 1);
    out.put("marinesInEasternUsAtStart", g.count("Eastern United States", "marine", US));
    out.put("carryOne", carry(g, "marine", 1, "Western United States", "Central United States", "Eastern United States"));
    out.put("marinesInEasternUs", g.count("Eastern United States", "marine", US));
    out.put("carryTwo", carry(g, "marine", 2, "Alaska", "Western Canada", "Western United States"));
    // An infantry flies too (the marine is the American infantry; the others' infantry is this one).
    out.put("infantryInCentralUsAtStart", g.count("Central United States", "infantry", US));
    out.put("carryInfantry", carry(g, "infantry", 1, "Eastern Canada", "Eastern United States", "Central United States"));
    out.put("infantryInCentralUs", g.count("Central United States", "infantry", US));
    out.put("marinesInWesternUs", g.count("Western United States", "marine", US));
    g.addUnits("Central United States", "marine", US, 1);
    out.put("marineAloneTwoSpaces", String.valueOf(ScenarioPlay.move(g, US, "marine", 1, "Central United States",
        "Western United States", "Western Canada")));
    // Round 2: the Axis hold Moscow when the British turn begins, the Allies hold Germany when the
    // German turn begins: both bans end.
    ScenarioPlay.enter(g, GE, "Purchase", 2);
    g.setOwner("Germany", RU);
    ScenarioPlay.enter(g, GE, "CombatMove", 2);
    out.put("relationAfterGermanyFalls", relation(g, GE, JP));
    ScenarioPlay.enter(g, UK, "Purchase", 2);
    g.setOwner("Russia", GE);
    ScenarioPlay.enter(g, UK, "NonCombatMove", 2);
    out.put("britishIntoCaucasusLater",
        String.valueOf(ScenarioPlay.move(g, UK, "infantry", 1, "Persia", "Caucasus")));
    g.stop();
    out.put("ferryRange", ferryRange(file));
    out.put("xenophobia", ScenarioAarheAlliances.xenophobia(file));
    out.put("distrust", ScenarioAarheAlliances.distrust(file));
    return out;
  }

  /** Six spaces from the Eastern US to British Africa, over friendly land and open sea. */
  private static final String[] SIX_SPACES = {"Eastern United States", "Panama", "19 Sea Zone", "18 Sea Zone",
      "17 Sea Zone", "French West Africa", "French Equatorial Africa"};

  /**
   * Ferry range (a game of its own): the aircraft's movement in each non-combat move step of
   * round 1 and right after it; an American fighter flying six spaces in round 2's combat move
   * and non-combat move.
   */
  private static ScenarioJson.Obj ferryRange(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    final ScenarioJson.Obj during = ScenarioJson.obj();
    final ScenarioJson.Obj after = ScenarioJson.obj();
    final List<String> steps = new ArrayList<>();
    for (final GameStep step : g.data.getSequence()) {
      if (step.getName().endsWith("NonCombatMove")) {
        steps.add(step.getName());
      }
    }
    final ScenarioJson.Obj disembark = ScenarioJson.obj();
    out.put("atStart", movements(g, g.player(RU)));
    for (final String step : steps) {
      g.enter(step, 1);
      during.put(step, movements(g, g.step().getPlayerId()));
      final ScenarioJson.Obj atSea = cargoAtSea(g, g.step().getPlayerId().getName());
      g.leave();
      after.put(step, movements(g, g.step().getPlayerId()));
      atSea.put("landUnitsAtSeaAfter", landUnitsAtSea(g));
      atSea.put("cargoAfter", g.count("1 Sea Zone", "lendLeaseCargo", g.step().getPlayerId().getName()));
      atSea.put("transportsAfter", g.count("1 Sea Zone", "transport", g.step().getPlayerId().getName()));
      disembark.put(step, atSea);
    }
    out.put("duringNonCombatMove", during);
    out.put("afterNonCombatMove", after);
    out.put("disembark", disembark);
    ScenarioPlay.enter(g, US, "CombatMove", 2);
    g.addUnits(SIX_SPACES[0], "fighter", US, 1);
    out.put("sixSpacesInCombatMove", String.valueOf(ScenarioPlay.move(g, US, "fighter", 1, SIX_SPACES)));
    ScenarioPlay.enter(g, US, "NonCombatMove", 2);
    out.put("sixSpacesInNonCombatMove", String.valueOf(ScenarioPlay.move(g, US, "fighter", 1, SIX_SPACES)));
    out.put("fighterArrived", g.count(SIX_SPACES[SIX_SPACES.length - 1], "fighter", US));
    // The triggers that change the aircraft do not stop the engine copying the game data (every AI
    // purchase does).
    out.put("cloneable", ScenarioPlay.cloneable(g.data));
    g.stop();
    return out;
  }

  /**
   * Sea transport: one of PLAYER's land units of every type a transport carries (the lend-lease
   * cargo aside) put in every sea zone, with a transport and a cargo in zone 1, as if left aboard
   * at the end of the move.
   */
  private static ScenarioJson.Obj cargoAtSea(final ScenarioGame g, final String player) {
    final List<String> carried = new ArrayList<>();
    for (final games.strategy.engine.data.UnitType type : g.data.getUnitTypeList()) {
      final UnitAttachment ua = UnitAttachment.get(type);
      if (!ua.getIsSea() && !ua.getIsAir() && ua.getTransportCost() > 0 && !type.getName().equals("lendLeaseCargo")) {
        carried.add(type.getName());
      }
    }
    for (final Territory zone : g.data.getMap().getTerritories()) {
      if (zone.isWater()) {
        for (final String unit : carried) {
          g.addUnits(zone.getName(), unit, player, 1);
        }
      }
    }
    g.addUnits("1 Sea Zone", "transport", player, 1);
    g.addUnits("1 Sea Zone", "lendLeaseCargo", player, 1);
    return ScenarioJson.obj().put("carried", carried).put("landUnitsAtSeaBefore", landUnitsAtSea(g))
        .put("cargoBefore", g.count("1 Sea Zone", "lendLeaseCargo", player))
        .put("transportsBefore", g.count("1 Sea Zone", "transport", player));
  }

  /** Land units of any owner in any sea zone, the lend-lease cargo aside. */
  private static int landUnitsAtSea(final ScenarioGame g) {
    int found = 0;
    for (final Territory zone : g.data.getMap().getTerritories()) {
      if (zone.isWater()) {
        for (final Unit u : zone.getUnits().getUnits()) {
          final UnitAttachment ua = UnitAttachment.get(u.getType());
          found += !ua.getIsSea() && !ua.getIsAir() && !u.getType().getName().equals("lendLeaseCargo") ? 1 : 0;
        }
      }
    }
    return found;
  }

  /** Movement of every unit type for PLAYER (none with a movement tech here). */
  private static Map<String, Integer> movements(final ScenarioGame g, final PlayerID player) {
    final Map<String, Integer> found = new TreeMap<>();
    for (final games.strategy.engine.data.UnitType type : g.data.getUnitTypeList()) {
      found.put(type.getName(), UnitAttachment.get(type).getMovement(player));
    }
    return found;
  }

  private static String relation(final ScenarioGame g, final String a, final String b) {
    return g.data.getRelationshipTracker().getRelationshipType(g.player(a), g.player(b)).getName();
  }

  /**
   * A new bomber takes COUNT new land units of type CARGO from ROUTE[0] two territories on, loaded
   * as the move panel loads them: the engine picks the cargo the bomber's capacity holds
   * (TransportUtils); the rest must walk, which they cannot.
   */
  private static String carry(final ScenarioGame g, final String cargoType, final int count, final String... route) {
    final List<Unit> cargo = g.addUnits(route[0], cargoType, US, count);
    final List<Unit> bombers = g.addUnits(route[0], "bomber", US, 1);
    final Map<Unit, Unit> loads = TransportUtils.mapTransportsToLoad(
        TransportUtils.findUnitsToLoadOnAirTransports(cargo, bombers), bombers);
    final Map<Unit, Collection<Unit>> dependents = new HashMap<>();
    for (final Map.Entry<Unit, Unit> load : loads.entrySet()) {
      dependents.computeIfAbsent(load.getValue(), k -> new ArrayList<>()).add(load.getKey());
    }
    final List<Unit> moving = new ArrayList<>(bombers);
    for (final Unit marine : cargo) {
      if (!loads.containsKey(marine)) {
        moving.add(marine);
      }
    }
    return String.valueOf(ScenarioPlay.moveWith(g, moving, dependents, route));
  }
}
