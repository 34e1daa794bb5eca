package forge;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import games.strategy.engine.data.CompositeChange;
import games.strategy.engine.data.GameData;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.changefactory.ChangeFactory;
import games.strategy.engine.delegate.IDelegateBridge;
import games.strategy.triplea.TripleAUnit;
import games.strategy.triplea.delegate.TransportTracker;

/**
 * The harness's convoy: the transports that carry the rules' deliveries, the warships escorting
 * them, and the cargo. While the AI moves, they count as moved to the full (held), so the AI
 * leaves them be; what each had really moved is kept and given back before the harness moves
 * them again in the same turn (release), so no unit moves further than its movement.
 */
final class Convoy {
  final Set<Unit> transports = new LinkedHashSet<>();
  /** Escort -> the transport it sails with. */
  final Map<Unit, Unit> escorts = new LinkedHashMap<>();
  /** Loaded transport -> the paying zone it makes for (kept from turn to turn: Deliveries). */
  final Map<Unit, Territory> goals = new LinkedHashMap<>();
  private final Map<Unit, Integer> realMoves = new HashMap<>();
  private String heldIn = ""; // the turn (round and player) the moves above belong to

  /**
   * Forgets what was sunk, gives empty transports back (the nearest is claimed again when cargo
   * waits), and escorts whose transport is gone or has nothing left to carry.
   */
  void tidy(final GameData data) {
    transports.removeIf(u -> Deliveries.where(data, u) == null || !TransportTracker.isTransporting(u));
    goals.keySet().removeIf(u -> !transports.contains(u));
    escorts.entrySet().removeIf(e -> Deliveries.where(data, e.getKey()) == null
        || !transports.contains(e.getValue()) || !TransportTracker.isTransporting(e.getValue()));
  }

  /** Every unit of the convoy and the cargo of the player, as the engine sees them now. */
  private List<Unit> units(final GameData data, final PlayerID player, final List<Deliveries.Order> orders) {
    final List<Unit> out = new ArrayList<>(transports);
    out.addAll(escorts.keySet());
    out.addAll(Deliveries.tokens(data, player, orders));
    out.removeIf(u -> !player.equals(u.getOwner()));
    return out;
  }

  /**
   * The AI is about to move (or to plan its moves): every unit of the convoy counts as moved to the
   * full. Before the turn's first move ({@code beforeMoves}) what they really moved is nothing.
   */
  void hold(final GameData data, final IDelegateBridge bridge, final PlayerID player,
      final List<Deliveries.Order> orders, final boolean beforeMoves) {
    if (!heldIn.equals(turn(data, player))) {
      realMoves.clear(); // a new turn: what was held before is the engine's to reset
    }
    heldIn = turn(data, player);
    final CompositeChange change = new CompositeChange();
    for (final Unit u : units(data, player, orders)) {
      final TripleAUnit unit = TripleAUnit.get(u);
      if (beforeMoves) {
        realMoves.put(u, 0);
      } else {
        realMoves.putIfAbsent(u, unit.getAlreadyMoved());
      }
      change.add(ChangeFactory.unitPropertyChange(u, unit.getMaxMovementAllowed(), TripleAUnit.ALREADY_MOVED));
    }
    if (!change.isEmpty()) {
      bridge.addChange(change);
    }
  }

  /**
   * The harness moves next. At the first move of a turn the engine has already reset every
   * unit's moves: nothing to give back then.
   */
  void release(final GameData data, final IDelegateBridge bridge, final PlayerID player) {
    final CompositeChange change = new CompositeChange();
    if (heldIn.equals(turn(data, player))) {
      realMoves.forEach((u, moved) -> {
        if (Deliveries.where(data, u) != null) {
          change.add(ChangeFactory.unitPropertyChange(u, moved, TripleAUnit.ALREADY_MOVED));
        }
      });
    }
    realMoves.clear();
    if (!change.isEmpty()) {
      bridge.addChange(change);
    }
  }

  private static String turn(final GameData data, final PlayerID player) {
    return data.getSequence().getRound() + " " + player.getName();
  }
}
