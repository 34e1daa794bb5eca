package forge;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.changefactory.ChangeFactory;
import games.strategy.engine.delegate.IDelegateBridge;
import games.strategy.triplea.attachments.TerritoryAttachment;
import games.strategy.triplea.delegate.AbstractEndTurnDelegate;

/**
 * Convoy raids, sea zone by sea zone and nation by nation: on a board emptied of units, each
 * nation in turn is given the land around one sea zone, an enemy submarine is put in the zone,
 * and the engine's own income step reckons what the nation loses to it (and the dice it rolls,
 * where raids roll for their cost). Which zones are convoy zones and who is immune is then what
 * the engine does, not what the game file says.
 */
final class ScenarioConvoyZones {
  private ScenarioConvoyZones() {}

  /**
   * CALL with the engine's pauses skipped: it waits 100 ms before each raid's dice (a guard for
   * the internet dice servers of play by e-mail, which a scenario does not use), and its pause
   * returns at once on an interrupted thread. The thread is interrupted for the call alone.
   */
  private static <T> T withoutPause(final Callable<T> call) throws Exception {
    Thread.currentThread().interrupt();
    try {
      return call.call();
    } finally {
      Thread.interrupted();
    }
  }

  static ScenarioJson.Obj zones(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    g.enter(firstIncomeStep(g), 1);
    final AbstractEndTurnDelegate delegate = g.delegate();
    final IDelegateBridge bridge = delegate.getBridge();
    // The loss the income step takes off a nation's income (private in the engine: called as the
    // step's start calls it, with the step's own bridge and dice).
    final Method loss = AbstractEndTurnDelegate.class.getDeclaredMethod(
        "getBlockadeProductionLoss", PlayerID.class, GameData.class, IDelegateBridge.class, StringBuilder.class);
    loss.setAccessible(true);
    clearBoard(g);
    final Map<String, Object> losses = new TreeMap<>();
    for (final PlayerID victim : g.data.getPlayerList().getPlayers()) {
      final PlayerID raider = enemyOf(g, victim);
      if (raider == null) {
        continue;
      }
      final Map<String, Object> byZone = new TreeMap<>();
      for (final Territory zone : g.data.getMap().getTerritories()) {
        final List<Territory> land = incomeLandNextTo(g, zone);
        if (!zone.isWater() || land.isEmpty()) {
          continue;
        }
        final Map<Territory, PlayerID> owners = new LinkedHashMap<>();
        for (final Territory t : land) {
          owners.put(t, t.getOwner());
          g.change(ChangeFactory.changeOwner(t, victim));
        }
        final List<Unit> sub = g.addUnits(zone.getName(), "submarine", raider.getName(), 1);
        final int rolled = g.rolls.size();
        final int lost = withoutPause(() -> (Integer) loss.invoke(delegate, victim, g.data, bridge, new StringBuilder()));
        int dice = 0;
        for (final ScenarioJson.Obj roll : g.rolls.subList(rolled, g.rolls.size())) {
          dice += (Integer) roll.get("count");
        }
        if (lost > 0 || dice > 0) {
          byZone.put(zone.getName(), ScenarioJson.obj().put("loss", lost).put("dice", dice));
        }
        g.change(ChangeFactory.removeUnits(zone, sub));
        for (final Map.Entry<Territory, PlayerID> e : owners.entrySet()) {
          g.change(ChangeFactory.changeOwner(e.getKey(), e.getValue()));
        }
      }
      losses.put(victim.getName(), byZone);
    }
    g.stop();
    return ScenarioJson.obj().put("losses", losses).put("zonesWithIncomeLand", zonesWithIncomeLand(g));
  }

  private static String firstIncomeStep(final ScenarioGame g) {
    for (final GameStep step : g.data.getSequence()) {
      if (step.getDelegate() instanceof AbstractEndTurnDelegate && step.getPlayerId() != null) {
        return step.getName();
      }
    }
    throw new IllegalStateException("no income step");
  }

  /** Every unit off the board: only the submarine put in a zone can raid, and no land is contested. */
  private static void clearBoard(final ScenarioGame g) {
    for (final Territory t : g.data.getMap().getTerritories()) {
      final List<Unit> units = new ArrayList<>(t.getUnits().getUnits());
      if (!units.isEmpty()) {
        g.change(ChangeFactory.removeUnits(t, units));
      }
    }
  }

  /** The first player at war with VICTIM, in the game's order (null when it is at war with nobody). */
  private static PlayerID enemyOf(final ScenarioGame g, final PlayerID victim) {
    for (final PlayerID other : g.data.getPlayerList().getPlayers()) {
      if (g.data.getRelationshipTracker().isAtWar(victim, other)) {
        return other;
      }
    }
    return null;
  }

  /** The land next to ZONE that yields income. */
  private static List<Territory> incomeLandNextTo(final ScenarioGame g, final Territory zone) {
    final List<Territory> land = new ArrayList<>();
    for (final Territory t : g.data.getMap().getNeighbors(zone)) {
      final TerritoryAttachment ta = TerritoryAttachment.get(t);
      if (!t.isWater() && ta != null && ta.getProduction() > 0) {
        land.add(t);
      }
    }
    return land;
  }

  private static List<String> zonesWithIncomeLand(final ScenarioGame g) {
    final List<String> zones = new ArrayList<>();
    for (final Territory zone : g.data.getMap().getTerritories()) {
      if (zone.isWater() && !incomeLandNextTo(g, zone).isEmpty()) {
        zones.add(zone.getName());
      }
    }
    zones.sort(null);
    return zones;
  }
}
