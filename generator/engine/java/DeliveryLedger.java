package forge;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;

/**
 * What became of every unit a delivery order pays for (lend-lease tokens, free
 * cargo), whoever moved it: granted (it appeared on the board), delivered (it left the board from
 * a zone its order pays in, during its owner's non-combat move: the trigger that pays removes it),
 * lost (it left the board any other way: its transport was sunk) or still waiting at the end.
 * The board is looked at when each step starts and after the harness's own deliveries, so the
 * counts hold under every action policy, "none" included.
 *
 * <p>Rendered as the report's "deliveries": [{unit, player, granted, at, fate, round, where, atSea,
 * trail}], trail being where it stood each time its owner's non-combat move began, atSea whether
 * where it was last seen is a sea zone (a token still waiting there is at sea, not ashore).
 */
final class DeliveryLedger {
  private static final class Token {
    final String type;
    final String player;
    final int granted;
    final String at;
    final List<String> trail = new ArrayList<>();
    Territory where;
    boolean inPayingMove; // last seen during its owner's non-combat move
    String fate = "waiting";
    int round;

    Token(final Unit unit, final int round, final Territory where) {
      this.type = unit.getType().getName();
      this.player = unit.getOwner().getName();
      this.granted = round;
      this.at = where.getName();
      this.where = where;
    }
  }

  private final Map<Unit, Token> tokens = new LinkedHashMap<>();

  /** Looks at the board: new tokens are granted, vanished ones delivered or lost. */
  void observe(final GameData data, final GameStep step, final List<Deliveries.Order> orders) {
    if (orders.isEmpty()) {
      return;
    }
    final int round = data.getSequence().getRound();
    final PlayerID mover = step.getPlayerId();
    final boolean paying = step.getName().endsWith("NonCombatMove");
    final Map<Unit, Territory> seen = new LinkedHashMap<>();
    for (final Territory t : data.getMap().getTerritories()) {
      for (final Unit u : t.getUnits().getUnits()) {
        if (isToken(u, orders)) {
          seen.put(u, t);
        }
      }
    }
    for (final Map.Entry<Unit, Token> e : tokens.entrySet()) {
      final Token token = e.getValue();
      if (token.fate.equals("waiting") && !seen.containsKey(e.getKey())) {
        token.fate = token.inPayingMove && paidIn(e.getKey(), token.where, orders) ? "delivered" : "lost";
        token.round = round;
      }
    }
    seen.forEach((unit, where) -> {
      final Token token = tokens.computeIfAbsent(unit, u -> new Token(u, round, where));
      token.where = where;
      token.inPayingMove = paying && unit.getOwner().equals(mover);
      final String mark = round + ": " + where.getName();
      if (token.inPayingMove && (token.trail.isEmpty() || !token.trail.get(token.trail.size() - 1).equals(mark))) {
        token.trail.add(mark);
      }
    });
  }

  /** The report's "deliveries" list. */
  String render() {
    final List<String> out = new ArrayList<>();
    for (final Token t : tokens.values()) {
      final List<String> trail = new ArrayList<>();
      t.trail.forEach(mark -> trail.add(Json.str(mark)));
      out.add(new Json.Obj().putStr("unit", t.type).putStr("player", t.player).putNum("granted", t.granted)
          .putStr("at", t.at).putStr("fate", t.fate).putNum("round", t.round).putStr("where", t.where.getName())
          .putBool("atSea", t.where.isWater())
          .put("trail", Json.arr(trail)).toString());
    }
    return Json.arr(out);
  }

  private static boolean isToken(final Unit u, final List<Deliveries.Order> orders) {
    for (final Deliveries.Order o : orders) {
      if (o.type().equals(u.getType()) && o.player().equals(u.getOwner())) {
        return true;
      }
    }
    return false;
  }

  private static boolean paidIn(final Unit u, final Territory where, final List<Deliveries.Order> orders) {
    for (final Deliveries.Order o : orders) {
      if (o.type().equals(u.getType()) && o.player().equals(u.getOwner()) && o.zone().equals(where)) {
        return true;
      }
    }
    return false;
  }
}
