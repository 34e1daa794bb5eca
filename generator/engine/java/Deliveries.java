package forge;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import games.strategy.engine.data.CompositeChange;
import games.strategy.engine.data.GameData;
import games.strategy.engine.data.IAttachment;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Route;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.UnitType;
import games.strategy.engine.data.changefactory.ChangeFactory;
import games.strategy.engine.delegate.IDelegateBridge;
import games.strategy.triplea.TripleAUnit;
import games.strategy.triplea.attachments.RulesAttachment;
import games.strategy.triplea.attachments.TriggerAttachment;
import games.strategy.triplea.delegate.Matches;
import games.strategy.triplea.delegate.MoveDelegate;
import games.strategy.triplea.delegate.TransportTracker;
import games.strategy.util.Match;

/**
 * Deliveries the rules pay for, made as a player would make them: a trigger that grants a
 * resource when a player's unit of some type stands in a named territory (expansion's lend-lease:
 * a "lendLease" token in sea zone 4 pays the Soviet Union) is a delivery order. The 1.9 AIs treat
 * such tokens as land units and walk them about, so the convoy is the harness's: while the AI
 * moves, the tokens and the transports of the convoy count as already moved (hold; the nearest
 * empty transport joins the convoy when it has none), and at the start of the player's non-combat
 * move (release, deliver, hold again) the harness ships one token towards each zone. A token
 * aboard a transport sails on; a token ashore boards a convoy transport in a sea zone next to it
 * (the AI's units the AI loaded aboard are put ashore first; the transport is sent there when it
 * is elsewhere), and the loaded transport sails as far as it can. Each move is one the engine
 * validates; one it refuses is left undone.
 */
final class Deliveries {
  /** Units of {@code type} that {@code player} brings to {@code zone} get paid for there. */
  record Order(PlayerID player, UnitType type, Territory zone) {
    String name() {
      return "deliver " + type.getName() + " to " + zone.getName();
    }
  }

  private Deliveries() {}

  /** The orders of the game: the conditions of resource-granting triggers asking for units in a place. */
  static List<Order> orders(final GameData data) {
    final List<Order> out = new ArrayList<>();
    final Set<String> seen = new TreeSet<>();
    for (final PlayerID holder : data.getPlayerList().getPlayers()) {
      for (final IAttachment a : holder.getAttachments().values()) {
        if (!(a instanceof TriggerAttachment) || ((TriggerAttachment) a).getResource() == null
            || ((TriggerAttachment) a).getResourceCount() <= 0) {
          continue;
        }
        for (final RulesAttachment condition : ((TriggerAttachment) a).getConditions()) {
          final String[] zones = condition.getDirectPresenceTerritories();
          if (zones == null || condition.getUnitPresence() == null) {
            continue;
          }
          final List<PlayerID> players = new ArrayList<>(condition.getPlayers());
          for (final String typeName : condition.getUnitPresence().keySet()) {
            final UnitType type = data.getUnitTypeList().getUnitType(typeName);
            for (final String zoneName : zones) {
              final Territory zone = data.getMap().getTerritory(zoneName);
              for (final PlayerID player : players) {
                if (type != null && zone != null && seen.add(player.getName() + "|" + typeName + "|" + zoneName)) {
                  out.add(new Order(player, type, zone));
                }
              }
            }
          }
        }
      }
    }
    out.sort(Comparator.comparing(Order::name));
    return out;
  }

  /**
   * Moves one unit towards each of the player's orders; the orders it had a unit for (open) and
   * those whose unit reached its zone (done) are added to the two lists.
   */
  static void deliver(final GameData data, final MoveDelegate delegate, final PlayerID player,
      final List<Order> orders, final Set<Unit> convoy, final List<String> open, final List<String> done) {
    final Set<Unit> used = new HashSet<>();
    hold(data, delegate.getBridge(), player, orders, convoy, false); // claims a transport if it has none
    for (final Unit transport : new ArrayList<>(convoy)) {
      unloadOthers(data, delegate, player, transport, orders);
    }
    // The zone nearest to the player's tokens first: one convoy delivers sooner there.
    final List<Order> nearestFirst = new ArrayList<>(orders);
    nearestFirst.sort(Comparator.comparingInt((Order o) -> nearestToken(data, o)).thenComparing(Order::name));
    for (final Order order : nearestFirst) {
      if (!order.player().equals(player)) {
        continue;
      }
      final List<Unit> cargo = new ArrayList<>();
      for (final Territory t : data.getMap().getTerritories()) {
        for (final Unit u : t.getUnits().getUnits()) {
          if (u.getType().equals(order.type()) && player.equals(u.getOwner()) && !used.contains(u)) {
            cargo.add(u);
          }
        }
      }
      if (cargo.isEmpty()) {
        continue;
      }
      open.add(order.name());
      if (order.zone().getUnits().getUnits().stream().anyMatch(cargo::contains)) {
        continue; // one there already: it is paid at the end of this move
      }
      cargo.sort(Comparator.comparingInt((Unit u) -> distance(data, where(data, u), order.zone()))
          .thenComparing(u -> where(data, u).getName()));
      for (final Unit token : cargo) {
        if (ship(data, delegate, player, token, order.zone(), used, convoy)) {
          used.add(token);
          if (order.zone().getUnits().getUnits().contains(token)) {
            done.add(order.name());
          }
          break;
        }
      }
    }
  }

  private static boolean ship(final GameData data, final MoveDelegate delegate, final PlayerID player,
      final Unit token, final Territory zone, final Set<Unit> used, final Set<Unit> convoy) {
    Unit carrier = TripleAUnit.get(token).getTransportedBy();
    if (carrier == null) {
      final Territory ashore = where(data, token);
      carrier = transportNear(data, player, ashore, used);
      if (carrier == null) {
        sendTransport(data, delegate, player, ashore, used, convoy);
        return false;
      }
      convoy.add(carrier);
      final String refused = delegate.move(List.of(token), new Route(ashore, where(data, carrier)), List.of(carrier));
      if (refused != null) {
        return false;
      }
    }
    used.add(carrier);
    sail(data, delegate, carrier, zone);
    return true;
  }

  /** Puts ashore, next to where it is, what the AI loaded aboard a convoy transport. */
  private static void unloadOthers(final GameData data, final MoveDelegate delegate, final PlayerID player,
      final Unit transport, final List<Order> orders) {
    final List<Unit> others = new ArrayList<>(TripleAUnit.get(transport).getTransporting());
    others.removeIf(u -> orders.stream().anyMatch(o -> o.type().equals(u.getType())));
    final Territory sea = where(data, transport);
    if (others.isEmpty() || sea == null) {
      return;
    }
    for (final Territory land : sorted(data.getMap().getNeighbors(sea, Matches.territoryIsLand()))) {
      if (player.equals(land.getOwner()) && delegate.move(others, new Route(sea, land)) == null) {
        return;
      }
    }
  }

  /** An empty transport of the player with moves left, in a sea zone next to {@code land}. */
  private static Unit transportNear(final GameData data, final PlayerID player, final Territory land,
      final Set<Unit> used) {
    for (final Territory sea : sorted(data.getMap().getNeighbors(land, Matches.territoryIsWater()))) {
      for (final Unit u : sea.getUnits().getUnits()) {
        if (player.equals(u.getOwner()) && Matches.unitIsTransport().match(u) && !used.contains(u)
            && !TransportTracker.isTransporting(u) && TripleAUnit.get(u).getMovementLeft() > 0
            && TransportTracker.getAvailableCapacity(u) > 0) {
          return u;
        }
      }
    }
    return null;
  }

  /** Sends the nearest empty transport of the player towards a sea zone next to {@code land}. */
  private static void sendTransport(final GameData data, final MoveDelegate delegate, final PlayerID player,
      final Territory land, final Set<Unit> used, final Set<Unit> convoy) {
    final List<Territory> coast = sorted(data.getMap().getNeighbors(land, Matches.territoryIsWater()));
    if (coast.isEmpty()) {
      return;
    }
    Unit best = convoy.stream().filter(u -> where(data, u) != null && !used.contains(u)
        && !TransportTracker.isTransporting(u)).findFirst().orElse(null);
    for (final Territory sea : best != null ? List.<Territory>of() : sorted(data.getMap().getTerritories())) {
      for (final Unit u : sea.getUnits().getUnits()) {
        if (player.equals(u.getOwner()) && Matches.unitIsTransport().match(u) && !used.contains(u)
            && !TransportTracker.isTransporting(u) && TripleAUnit.get(u).getMovementLeft() > 0
            && (best == null || distance(data, sea, coast.get(0)) < distance(data, where(data, best), coast.get(0)))) {
          best = u;
        }
      }
    }
    if (best != null) {
      used.add(best);
      convoy.add(best);
      sail(data, delegate, best, coast.get(0));
    }
  }

  /** Moves a transport (and what it carries) along the water towards {@code zone}, as far as it can. */
  private static void sail(final GameData data, final MoveDelegate delegate, final Unit transport,
      final Territory zone) {
    final Territory from = where(data, transport);
    // Around enemy ships where the sea allows it, as a convoy would sail; else the shortest way.
    final PlayerID owner = transport.getOwner();
    final Route safe = data.getMap().getRoute(from, zone,
        Match.allOf(Matches.territoryIsWater(), Matches.territoryHasNoEnemyUnits(owner, data)));
    final Route full = safe != null ? safe : data.getMap().getRoute(from, zone, Matches.territoryIsWater());
    if (full == null || full.numberOfSteps() == 0) {
      return;
    }
    final List<Unit> loaded = new ArrayList<>(List.of(transport));
    loaded.addAll(TripleAUnit.get(transport).getTransporting());
    final List<Territory> path = full.getAllTerritories();
    for (int steps = Math.min(TripleAUnit.get(transport).getMovementLeft(), path.size() - 1); steps > 0; steps--) {
      final Route route = new Route(new ArrayList<>(path.subList(0, steps + 1)));
      // With its cargo named, as the game's own move panel does; else the transport alone.
      if (delegate.move(loaded, route) == null || delegate.move(List.of(transport), route) == null) {
        return;
      }
    }
  }

  /**
   * While the AI moves: the player's tokens of its orders and the transports of its convoy count
   * as moved to the full (hold), so the AI leaves them be; release gives their moves back.
   */
  static void hold(final GameData data, final IDelegateBridge bridge, final PlayerID player,
      final List<Order> orders, final Set<Unit> convoy, final boolean held) {
    convoy.removeIf(u -> where(data, u) == null); // sunk
    final List<Unit> tokens = new ArrayList<>();
    for (final Territory t : sorted(data.getMap().getTerritories())) {
      for (final Unit u : t.getUnits().getUnits()) {
        if (player.equals(u.getOwner()) && orders.stream().anyMatch(o -> o.player().equals(player)
            && o.type().equals(u.getType()))) {
          tokens.add(u);
        }
      }
    }
    if (!tokens.isEmpty() && convoy.stream().noneMatch(u -> player.equals(u.getOwner()))) {
      claim(data, player, where(data, tokens.get(0)), convoy);
    }
    final List<Unit> units = new ArrayList<>(convoy);
    units.addAll(tokens);
    final CompositeChange change = new CompositeChange();
    for (final Unit u : units) {
      if (player.equals(u.getOwner())) {
        change.add(ChangeFactory.unitPropertyChange(u, held ? TripleAUnit.get(u).getMaxMovementAllowed() : 0,
            TripleAUnit.ALREADY_MOVED));
      }
    }
    if (!change.isEmpty()) {
      bridge.addChange(change);
    }
  }

  /** Before the AI moves: the player's empty transport nearest {@code near} joins the convoy. */
  private static void claim(final GameData data, final PlayerID player, final Territory near,
      final Set<Unit> convoy) {
    Unit best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (final Territory sea : sorted(data.getMap().getTerritories())) {
      for (final Unit u : sea.getUnits().getUnits()) {
        final int d = distance(data, sea, near);
        if (player.equals(u.getOwner()) && Matches.unitIsTransport().match(u)
            && !TransportTracker.isTransporting(u) && d < bestDistance) {
          best = u;
          bestDistance = d;
        }
      }
    }
    if (best != null) {
      convoy.add(best);
    }
  }

  private static int nearestToken(final GameData data, final Order order) {
    int best = Integer.MAX_VALUE;
    for (final Territory t : data.getMap().getTerritories()) {
      if (t.getUnits().getUnits().stream().anyMatch(u -> u.getType().equals(order.type())
          && order.player().equals(u.getOwner()))) {
        best = Math.min(best, distance(data, t, order.zone()));
      }
    }
    return best;
  }

  private static Territory where(final GameData data, final Unit unit) {
    for (final Territory t : data.getMap().getTerritories()) {
      if (t.getUnits().getUnits().contains(unit)) {
        return t;
      }
    }
    return null;
  }

  private static int distance(final GameData data, final Territory from, final Territory to) {
    final int d = from == null ? -1 : data.getMap().getDistance(from, to);
    return d < 0 ? Integer.MAX_VALUE : d;
  }

  private static List<Territory> sorted(final Collection<Territory> territories) {
    final List<Territory> out = new ArrayList<>(territories);
    out.sort(Comparator.comparing(Territory::getName));
    return out;
  }
}
