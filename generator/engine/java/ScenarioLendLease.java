package forge;

import static forge.ScenarioNations.*;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Unit;

/**
 * Lend-lease tokens (expansion's "lendLease", aarhe's "lendLeaseCargo"): granted to the donor
 * after its placement, paid out to one recipient per sea zone after its non-combat move.
 *
 * <p>Each fact is given for every player or owner, so a trigger or condition that names the
 * wrong players (or none: then the engine takes the player it is attached to) shows: who is paid,
 * whose tokens are taken off the board, whose tokens appear. A turn's worth of a rival's tokens
 * (another Ally's, as Edit mode could put there) waits beside the donor's in each paying zone:
 * only the donor's pay. Round 2 plays the step again with only the rival's tokens at sea: nothing
 * is paid. A token does not fight: its strength in a land battle is 0.
 */
final class ScenarioLendLease {
  private ScenarioLendLease() {}

  // In both games the Americans give from Eastern United States and the British are the rival
  // Ally; a convoy off Archangel pays the Soviet Union, one off the United Kingdom pays Britain.
  private static final String DONOR = US;
  private static final String RIVAL = UK;
  private static final String GRANT_IN = "Eastern United States";
  private static final Map<String, String> RECIPIENT_BY_ZONE = recipients();

  private static Map<String, String> recipients() {
    final Map<String, String> byZone = new LinkedHashMap<>();
    byZone.put("4 Sea Zone", RU);
    byZone.put("34 Sea Zone", UK);
    return byZone;
  }

  /** What differs between the games' lend-lease: the token, how many a turn, the steps. */
  private static final class Route {
    final String token;
    final int tokensPerTurn;
    final String grantStep;
    final boolean grantNeedsHolding; // whether the tokens appear only while the donor holds GRANT_IN
    final String deliverStep;

    Route(final String token, final int tokensPerTurn, final String grantStep, final boolean grantNeedsHolding,
        final String deliverStep) {
      this.token = token;
      this.tokensPerTurn = tokensPerTurn;
      this.grantStep = grantStep;
      this.grantNeedsHolding = grantNeedsHolding;
      this.deliverStep = deliverStep;
    }
  }

  static ScenarioJson.Obj expansion(final String file) throws Exception {
    return play(file, new Route("lendLease", 1, "americanPlace", true, "americanNonCombatMove"));
  }

  static ScenarioJson.Obj aarhe(final String file) throws Exception {
    return play(file, new Route("lendLeaseCargo", 2, "americanTurnPlace", false, "americanTurnNonCombatMove"));
  }

  private static ScenarioJson.Obj play(final String file, final Route r) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    out.put("tokensPerTurn", r.tokensPerTurn);
    // Round 1: a turn's worth of the donor's tokens aboard its transports in each paying zone,
    // and one rival token there too.
    g.enter(r.deliverStep, 1);
    for (final String zone : RECIPIENT_BY_ZONE.keySet()) {
      g.addUnits(zone, "transport", DONOR, r.tokensPerTurn);
      g.addUnits(zone, r.token, DONOR, r.tokensPerTurn);
      g.addUnits(zone, "transport", RIVAL, r.tokensPerTurn);
      g.addUnits(zone, r.token, RIVAL, r.tokensPerTurn);
    }
    Map<String, Integer> pus = pus(g);
    g.leave();
    out.put("recipientByZone", RECIPIENT_BY_ZONE);
    out.put("tokenStrength", ScenarioExpansion.strength(g, DONOR, r.token, GRANT_IN, GE, "infantry"));
    out.put("paid", gained(pus, pus(g)));
    final ScenarioJson.Obj left = ScenarioJson.obj();
    for (final String zone : RECIPIENT_BY_ZONE.keySet()) {
      left.put(zone, tokensByOwner(g, zone, r.token));
    }
    out.put("tokensLeft", left);
    Map<String, Integer> before = tokensByOwner(g, GRANT_IN, r.token);
    g.enter(r.grantStep, 1);
    g.leave();
    out.put("granted", gained(before, tokensByOwner(g, GRANT_IN, r.token)));
    // Round 2: only the rival's tokens are at sea.
    g.enter(r.deliverStep, 2);
    pus = pus(g);
    g.leave();
    out.put("paidForRivalTokensAlone", gained(pus, pus(g)));
    if (r.grantNeedsHolding) {
      // The rival (an Ally) holds the donor's territory: no tokens appear there.
      g.enter(r.grantStep, 2);
      g.setOwner(GRANT_IN, RIVAL);
      before = tokensByOwner(g, GRANT_IN, r.token);
      g.leave();
      out.put("grantedWhileRivalHolds", gained(before, tokensByOwner(g, GRANT_IN, r.token)));
    }
    g.stop();
    return out;
  }

  private static Map<String, Integer> pus(final ScenarioGame g) {
    final Map<String, Integer> pus = new TreeMap<>();
    for (final PlayerID p : g.data.getPlayerList().getPlayers()) {
      pus.put(p.getName(), g.pus(p.getName()));
    }
    return pus;
  }

  private static Map<String, Integer> tokensByOwner(final ScenarioGame g, final String where, final String token) {
    final Map<String, Integer> counts = new TreeMap<>();
    for (final Unit u : g.territory(where).getUnits().getUnits()) {
      if (u.getType().getName().equals(token)) {
        counts.merge(u.getOwner().getName(), 1, Integer::sum);
      }
    }
    return counts;
  }

  /** What each key gained from BEFORE to AFTER, for the keys whose count changed. */
  private static Map<String, Integer> gained(final Map<String, Integer> before, final Map<String, Integer> after) {
    final Map<String, Integer> out = new TreeMap<>();
    final Map<String, Integer> all = new TreeMap<>(before);
    all.putAll(after);
    for (final String key : all.keySet()) {
      final int change = after.getOrDefault(key, 0) - before.getOrDefault(key, 0);
      if (change != 0) {
        out.put(key, change);
      }
    }
    return out;
  }
}
