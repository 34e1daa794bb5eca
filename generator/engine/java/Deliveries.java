package forge;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.IAttachment;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Route;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.UnitType;
import games.strategy.triplea.TripleAUnit;
import games.strategy.triplea.attachments.UnitAttachment;
import games.strategy.triplea.attachments.RulesAttachment;
import games.strategy.triplea.attachments.TriggerAttachment;
import games.strategy.triplea.delegate.Matches;
import games.strategy.triplea.delegate.MoveDelegate;
import games.strategy.triplea.delegate.TransportTracker;

/**
 * Deliveries the rules pay for, made as a player would make them: a trigger that grants a
 * resource when a player's unit of some type stands in a named territory (lend-lease on the
 * Revised map: a "lendLease" token in sea zone 4 pays the Soviet Union, in 34 the UK; cargo likewise)
 * is a delivery order. The 1.9 AIs treat such tokens as land units and walk them about, so the
 * convoy is the harness's (Convoy): at the start of the player's non-combat move it loads the
 * cargo onto empty transports next to it and sails each loaded transport one turn along the
 * safest chain of stops to whichever paying zone is best (ConvoyRoutes), with warships as escort
 * when a stop is within the enemy's reach; it holds the convoy while the AI moves, and while the
 * AI buys (when the Pro AI plans its assaults: else it lands the cargo in them). A convoy
 * that is sunk is forgotten and the next cargo plans afresh from the board as it is. Each move is
 * one the engine validates; one it refuses is left undone.
 */
final class Deliveries {
  /** Units of {@code type} that {@code player} brings to {@code zone} get paid for there. */
  record Order(PlayerID player, UnitType type, Territory zone) {
    String name() {
      return "deliver " + type.getName() + " to " + zone.getName();
    }
  }

  /** At most this many warships sail with one transport (the rest stay the AI's). */
  private static final int MAX_ESCORTS = 2;
  /** A stop this likely to be attacked (ConvoyRoutes.risk) needs no more escorts. */
  private static final double ACCEPTED_RISK = 0.3;
  /**
   * Transports the convoy may take from the AI: one a turn of cargo on a route of about three
   * turns (the lend-lease routes to sea zones 4 and 34 of the Revised map), so the cargo does not pile up.
   */
  private static final int MAX_TRANSPORTS = 3;
  /** Turns another paying zone must save before a loaded transport turns to it from its own. */
  private static final double CHANGE_OF_GOAL = 2.0;

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
   * Moves the player's cargo towards where its orders pay for it, and logs the orders it had cargo
   * for (open) and those whose cargo reached a paying zone (done). Cargo aboard sails on; cargo
   * ashore boards an empty transport next to it (one is sent there when none is), and each loaded
   * transport makes for the stop that ConvoyRoutes finds best over every zone that pays for it,
   * taking escorts along from where it starts when the stop is within the enemy's reach.
   */
  static void deliver(final GameData data, final MoveDelegate delegate, final PlayerID player,
      final List<Order> orders, final Convoy convoy, final List<String> open, final List<String> done) {
    convoy.tidy(data);
    final List<Order> mine = new ArrayList<>(orders);
    mine.removeIf(o -> !o.player().equals(player));
    final List<Unit> cargo = tokens(data, player, mine);
    if (cargo.isEmpty()) {
      return;
    }
    for (final Order o : mine) {
      if (cargo.stream().anyMatch(u -> u.getType().equals(o.type()))) {
        open.add(o.name());
      }
    }
    for (final Unit transport : new ArrayList<>(convoy.transports)) {
      unloadOthers(data, delegate, player, transport, mine);
    }
    final ConvoyRoutes routes = new ConvoyRoutes(data, player);
    final Set<Unit> used = new HashSet<>();
    final List<Territory> waiting = new ArrayList<>();
    // Cargo already at sea first: its transport is spoken for.
    cargo.sort(Comparator.comparing((Unit u) -> TripleAUnit.get(u).getTransportedBy() == null)
        .thenComparing(u -> where(data, u).getName()));
    for (final Unit token : cargo) {
      if (mine.stream().anyMatch(o -> o.type().equals(token.getType()) && o.zone().equals(where(data, token)))) {
        continue; // in a paying zone: paid at the end of this turn's non-combat move
      }
      Unit carrier = TripleAUnit.get(token).getTransportedBy();
      if (carrier == null) {
        final Territory ashore = where(data, token);
        carrier = transportNear(data, player, ashore, token, used);
        if (carrier == null) {
          waiting.add(ashore);
          continue;
        }
        if (delegate.move(List.of(token), new Route(ashore, where(data, carrier)), List.of(carrier)) != null) {
          continue;
        }
        convoy.transports.add(carrier);
      }
      if (!used.add(carrier) || TripleAUnit.get(carrier).getMovementLeft() <= 0) {
        continue;
      }
      final Territory goal = sailTowardsBest(data, delegate, player, carrier, token, mine, routes, convoy, used);
      if (goal != null && goal.equals(where(data, token))) {
        done.add(new Order(player, token.getType(), goal).name());
      }
    }
    for (final Territory ashore : waiting) {
      sendTransport(data, delegate, player, ashore, used, convoy, routes);
    }
  }

  /** Sails a loaded transport one turn along the best plan over the zones that pay for its cargo. */
  private static Territory sailTowardsBest(final GameData data, final MoveDelegate delegate, final PlayerID player,
      final Unit carrier, final Unit token, final List<Order> orders, final ConvoyRoutes routes, final Convoy convoy,
      final Set<Unit> used) {
    final Territory from = where(data, carrier);
    final int now = TripleAUnit.get(carrier).getMovementLeft();
    final int full = TripleAUnit.get(carrier).getMaxMovementAllowed();
    ConvoyRoutes.Plan best = null;
    Territory goal = null;
    double bestCost = Double.MAX_VALUE;
    final Territory before = convoy.goals.get(carrier);
    for (final Order o : orders) {
      if (!o.type().equals(token.getType())) {
        continue;
      }
      final ConvoyRoutes.Plan plan = routes.plan(from, now, full, o.zone(), 0);
      // Keep to the zone chosen before unless another is clearly nearer: a threat that moves
      // would otherwise turn the convoy from one zone to the other and back, and it arrives at neither.
      final double cost = plan == null ? Double.MAX_VALUE
          : plan.cost() + (before != null && !before.equals(o.zone()) ? CHANGE_OF_GOAL : 0);
      if (plan != null && plan.next() != null && cost < bestCost) {
        best = plan;
        goal = o.zone();
        bestCost = cost;
      }
    }
    if (best == null) {
      return null;
    }
    convoy.goals.put(carrier, goal);
    sail(data, delegate, carrier, best.next(), routes, convoy, used);
    return goal;
  }

  /**
   * Moves a transport (with what it carries) to {@code stop} along a clear route, as far as the
   * engine allows; when the stop is within the enemy's reach, the player's warships in the same
   * zone that can keep up sail with it, the strongest first, until the stop is covered.
   */
  private static void sail(final GameData data, final MoveDelegate delegate, final Unit transport,
      final Territory stop, final ConvoyRoutes routes, final Convoy convoy, final Set<Unit> used) {
    final Territory from = where(data, transport);
    final Route full = routes.safeRoute(from, stop);
    if (full == null || full.numberOfSteps() == 0) {
      return;
    }
    final List<Unit> escort = escorts(data, transport, from, stop, full.numberOfSteps(), routes, convoy, used);
    final List<Unit> loaded = new ArrayList<>(List.of(transport));
    loaded.addAll(TripleAUnit.get(transport).getTransporting());
    final List<Territory> path = full.getAllTerritories();
    for (int steps = Math.min(TripleAUnit.get(transport).getMovementLeft(), path.size() - 1); steps > 0; steps--) {
      final Route route = new Route(new ArrayList<>(path.subList(0, steps + 1)));
      final List<Unit> together = new ArrayList<>(loaded);
      together.addAll(escort);
      // With its cargo named, as the game's own move panel does; else without the escort; else alone.
      if (!escort.isEmpty() && delegate.move(together, route) == null) {
        escort.forEach(e -> convoy.escorts.put(e, transport));
        used.addAll(escort);
        return;
      }
      if (delegate.move(loaded, route) == null || delegate.move(List.of(transport), route) == null) {
        return;
      }
    }
  }

  private static List<Unit> escorts(final GameData data, final Unit transport, final Territory from,
      final Territory stop, final int steps, final ConvoyRoutes routes, final Convoy convoy, final Set<Unit> used) {
    final List<Unit> out = new ArrayList<>();
    if (routes.risk(stop, 0) <= 0) {
      return out;
    }
    final List<Unit> ships = new ArrayList<>();
    for (final Unit u : from.getUnits().getUnits()) {
      if (transport.getOwner().equals(u.getOwner()) && Matches.unitIsSea().match(u)
          && !Matches.unitIsTransport().match(u) && !used.contains(u)
          && (!convoy.escorts.containsKey(u) || convoy.escorts.get(u).equals(transport))
          && TripleAUnit.get(u).getMovementLeft() >= steps && ConvoyRoutes.strength(u, false) > 0) {
        ships.add(u);
      }
    }
    ships.sort(Comparator.comparingDouble((Unit u) -> -ConvoyRoutes.strength(u, false))
        .thenComparing(Unit::toString));
    double defence = 0;
    for (final Unit ship : ships) {
      if (out.size() >= MAX_ESCORTS || routes.risk(stop, defence) <= ACCEPTED_RISK) {
        break;
      }
      out.add(ship);
      defence += ConvoyRoutes.strength(ship, false);
    }
    return out;
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

  /** An empty transport of the player with moves left and room for {@code token}, next to {@code land}. */
  private static Unit transportNear(final GameData data, final PlayerID player, final Territory land,
      final Unit token, final Set<Unit> used) {
    final int cost = UnitAttachment.get(token.getType()).getTransportCost();
    for (final Territory sea : sorted(data.getMap().getNeighbors(land, Matches.territoryIsWater()))) {
      for (final Unit u : sea.getUnits().getUnits()) {
        if (player.equals(u.getOwner()) && Matches.unitIsTransport().match(u) && !used.contains(u)
            && !TransportTracker.isTransporting(u) && TripleAUnit.get(u).getMovementLeft() > 0
            && TransportTracker.getAvailableCapacity(u) >= cost) {
          return u;
        }
      }
    }
    return null;
  }

  /**
   * Sends the player's nearest empty transport towards the safest sea zone next to {@code land}
   * (it joins the convoy) while the convoy is under its size.
   */
  private static void sendTransport(final GameData data, final MoveDelegate delegate, final PlayerID player,
      final Territory land, final Set<Unit> used, final Convoy convoy, final ConvoyRoutes routes) {
    final List<Territory> coast = sorted(data.getMap().getNeighbors(land, Matches.territoryIsWater()));
    coast.sort(Comparator.comparingDouble((Territory t) -> routes.risk(t, 0)));
    if (coast.isEmpty()) {
      return;
    }
    final Territory dock = coast.get(0);
    Unit best = null;
    if (convoy.transports.size() < MAX_TRANSPORTS) {
      for (final Territory sea : sorted(data.getMap().getTerritories())) {
        for (final Unit u : sea.getUnits().getUnits()) {
          if (idle(u, player, used) && (best == null || distance(data, sea, dock) < distance(data, where(data, best), dock))) {
            best = u;
          }
        }
      }
    }
    if (best == null) {
      return;
    }
    used.add(best);
    convoy.transports.add(best);
    final ConvoyRoutes.Plan plan = routes.plan(where(data, best), TripleAUnit.get(best).getMovementLeft(),
        TripleAUnit.get(best).getMaxMovementAllowed(), dock, 0);
    if (plan != null && plan.next() != null) {
      sail(data, delegate, best, plan.next(), routes, convoy, used);
    }
  }

  private static boolean idle(final Unit u, final PlayerID player, final Set<Unit> used) {
    return player.equals(u.getOwner()) && Matches.unitIsTransport().match(u) && !used.contains(u)
        && !TransportTracker.isTransporting(u) && TripleAUnit.get(u).getMovementLeft() > 0;
  }

  /** The player's units its orders pay for, wherever they stand. */
  static List<Unit> tokens(final GameData data, final PlayerID player, final List<Order> orders) {
    final List<Unit> out = new ArrayList<>();
    for (final Territory t : sorted(data.getMap().getTerritories())) {
      for (final Unit u : t.getUnits().getUnits()) {
        if (player.equals(u.getOwner()) && orders.stream().anyMatch(o -> o.player().equals(player)
            && o.type().equals(u.getType()))) {
          out.add(u);
        }
      }
    }
    return out;
  }

  static Territory where(final GameData data, final Unit unit) {
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
