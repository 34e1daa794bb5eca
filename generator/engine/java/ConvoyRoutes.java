package forge;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Route;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.triplea.attachments.UnitAttachment;
import games.strategy.triplea.delegate.Matches;
import games.strategy.util.IntegerMap;
import games.strategy.util.Match;

/**
 * Where a convoy should stop, as a player plans a lend-lease run: a transport is attacked only
 * where it ends a turn, so the route is a chain of stops (each within one turn's movement, never
 * through a zone with enemy units) chosen so that the stops are out of the enemy's reach, or
 * covered by friendly ships; the zone where the cargo is paid is never at risk (it is paid at the
 * end of the move that reaches it). The risk of a stop is the enemy attack that can reach it in
 * one turn (sea units by water, aircraft by any way, each within its movement) against that plus
 * the defence of the friendly units there: 0 when no enemy can come, near 1 when the stop is bare.
 */
final class ConvoyRoutes {
  /** How many turns a stop at full risk is worth avoiding: a detour of a few turns beats a sinking. */
  private static final double RISK_IN_TURNS = 2.0;

  private final GameData data;
  private final PlayerID player;
  private final List<Territory> sea;
  private final Map<Territory, Double> threat = new HashMap<>();

  ConvoyRoutes(final GameData data, final PlayerID player) {
    this.data = data;
    this.player = player;
    this.sea = new ArrayList<>(data.getMap().getTerritories());
    this.sea.removeIf(t -> !t.isWater());
    this.sea.sort(Comparator.comparing(Territory::getName));
    measureThreat();
  }

  /** A stop plan: the zone to make for this turn and what the whole route costs, in turns. */
  record Plan(Territory next, double cost, int turns) {}

  /**
   * The cheapest chain of stops from {@code from} (this turn {@code movesNow} steps, then
   * {@code moves} a turn) to {@code goal}, with {@code escort} defence sailing along; null when
   * the goal cannot be reached.
   */
  Plan plan(final Territory from, final int movesNow, final int moves, final Territory goal, final double escort) {
    final Map<Territory, Double> cost = new HashMap<>();
    final Map<Territory, Territory> first = new HashMap<>();
    final Map<Territory, Integer> turns = new HashMap<>();
    final PriorityQueue<Territory> queue = new PriorityQueue<>(
        Comparator.comparingDouble((Territory t) -> cost.get(t)).thenComparing(Territory::getName));
    cost.put(from, 0.0);
    turns.put(from, 0);
    queue.add(from);
    while (!queue.isEmpty()) {
      final Territory at = queue.poll();
      if (at.equals(goal)) {
        return new Plan(first.get(goal), cost.get(goal), turns.get(goal));
      }
      final int reach = at.equals(from) ? movesNow : moves;
      for (final Territory stop : reachable(at, reach)) {
        final double c = cost.get(at) + 1 + (stop.equals(goal) ? 0 : RISK_IN_TURNS * risk(stop, escort));
        if (c < cost.getOrDefault(stop, Double.MAX_VALUE)) {
          queue.remove(stop);
          cost.put(stop, c);
          turns.put(stop, turns.get(at) + 1);
          first.put(stop, at.equals(from) ? stop : first.get(at));
          queue.add(stop);
        }
      }
    }
    return null;
  }

  /** 0 (no enemy can reach the zone) to 1 (nothing there to defend it). */
  double risk(final Territory zone, final double escort) {
    final double attack = threat.getOrDefault(zone, 0.0);
    if (attack <= 0) {
      return 0;
    }
    return attack / (attack + defence(zone) + escort);
  }

  /** Water zones a ship in {@code from} reaches in up to {@code steps} moves, never passing enemy units. */
  List<Territory> reachable(final Territory from, final int steps) {
    final List<Territory> out = new ArrayList<>();
    if (steps <= 0) {
      return out;
    }
    final IntegerMap<Territory> distance = data.getMap().getDistance(from, sea, clearWater());
    for (final Territory t : sea) {
      final int d = distance.getInt(t);
      if (!t.equals(from) && d > 0 && d <= steps) {
        out.add(t);
      }
    }
    return out;
  }

  /** The shortest water route that passes no zone with enemy units; null when there is none. */
  Route safeRoute(final Territory from, final Territory to) {
    return data.getMap().getRoute(from, to, clearWater());
  }

  private Match<Territory> clearWater() {
    return Match.allOf(Matches.territoryIsWater(), Matches.territoryHasNoEnemyUnits(player, data));
  }

  /** Defence of the units of the player and its allies standing in {@code zone}. */
  double defence(final Territory zone) {
    double sum = 0;
    for (final Unit u : zone.getUnits().getUnits()) {
      if (data.getRelationshipTracker().isAllied(player, u.getOwner())) {
        sum += strength(u, false);
      }
    }
    return sum;
  }

  /** What a unit adds in a sea fight: its attack or defence times its hit points. */
  static double strength(final Unit u, final boolean attacking) {
    final UnitAttachment ua = UnitAttachment.get(u.getType());
    final int value = attacking ? ua.getAttack(u.getOwner()) : ua.getDefense(u.getOwner());
    return value * Math.max(1, ua.getHitPoints());
  }

  /** Per sea zone: the attack of enemy ships and aircraft that can reach it in one turn. */
  private void measureThreat() {
    final Collection<Territory> all = data.getMap().getTerritories();
    for (final Territory t : all) {
      double ships = 0;
      int shipMoves = 0;
      double planes = 0;
      int planeMoves = 0;
      for (final Unit u : t.getUnits().getUnits()) {
        if (!data.getRelationshipTracker().isAtWar(player, u.getOwner())) {
          continue;
        }
        final UnitAttachment ua = UnitAttachment.get(u.getType());
        if (ua.getIsSea()) {
          ships += strength(u, true);
          shipMoves = Math.max(shipMoves, ua.getMovement(u.getOwner()));
        } else if (ua.getIsAir()) {
          planes += strength(u, true);
          planeMoves = Math.max(planeMoves, ua.getMovement(u.getOwner()));
        }
      }
      if (ships > 0) {
        final IntegerMap<Territory> d = data.getMap().getDistance(t, sea, Matches.territoryIsWater());
        for (final Territory z : sea) {
          if (z.equals(t) || (d.getInt(z) > 0 && d.getInt(z) <= shipMoves)) {
            threat.merge(z, ships, Double::sum);
          }
        }
      }
      if (planes > 0) {
        final IntegerMap<Territory> d = data.getMap().getDistance(t, sea, Matches.always());
        for (final Territory z : sea) {
          // An aircraft must also land: half its movement out is the reach that brings it back.
          if (z.equals(t) || (d.getInt(z) > 0 && d.getInt(z) <= Math.max(1, planeMoves - 1))) {
            threat.merge(z, planes, Double::sum);
          }
        }
      }
    }
  }
}
