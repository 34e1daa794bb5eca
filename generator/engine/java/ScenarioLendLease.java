package forge;

import static forge.ScenarioNations.*;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Unit;

/**
 * Lend-lease tokens on the Revised map (a token unit type of the game's, given by the proofs of
 * each variant that has them as a Route): granted to the donor after its placement, paid out to
 * one recipient per sea zone after its non-combat move.
 *
 * <p>Each fact is given for every player or owner, so a trigger or condition that names the
 * wrong players (or none: then the engine takes the player it is attached to) shows: who is paid,
 * whose tokens are taken off the board, whose tokens appear. Each paying zone is played alone (a
 * condition naming the other zone shows), with a turn's worth of a rival's tokens (another
 * Ally's, as Edit mode could put there) beside the donor's: only the donor's pay. Round 3 pays in
 * both zones again while the donor's own land is lost (a route paid once only, or unloaded only
 * while the donor holds its land, shows), and grants again; round 4 plays the step with only the
 * rival's tokens at sea: nothing is paid; round 5 with a single token of the donor's in each zone:
 * each is paid. A token does not fight: its strength in a land battle is 0.
 */
final class ScenarioLendLease {
  private ScenarioLendLease() {}

  // In the games with lend-lease the Americans give from Eastern United States and the British are the rival
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
  static final class Route {
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

  /** The facts of the lend-lease of the game FILE, whose tokens go by route R. */
  static ScenarioJson.Obj play(final String file, final Route r) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    out.put("tokensPerTurn", r.tokensPerTurn);
    out.put("recipientByZone", RECIPIENT_BY_ZONE);
    // Rounds 1 and 2: a turn's worth of the donor's tokens aboard its transports in one paying
    // zone alone, a rival token beside them: the zone's Ally alone is paid, for the donor's
    // tokens alone (a condition naming the other zone pays nothing here).
    final ScenarioJson.Obj paid = ScenarioJson.obj();
    final ScenarioJson.Obj left = ScenarioJson.obj();
    int round = 1;
    for (final String zone : RECIPIENT_BY_ZONE.keySet()) {
      g.enter(r.deliverStep, round);
      load(g, r, zone, DONOR);
      load(g, r, zone, RIVAL);
      final Map<String, Integer> pus = pus(g);
      g.leave();
      paid.put(zone, gained(pus, pus(g)));
      left.put(zone, tokensByOwner(g, zone, r.token));
      if (round == 1) {
        out.put("tokenStrength", ScenarioPlay.strength(g, DONOR, r.token, GRANT_IN, GE, "infantry"));
        out.put("granted", grant(g, r, round));
      } else if (r.grantNeedsHolding) {
        // The rival (an Ally) holds the donor's territory: no tokens appear there.
        g.enter(r.grantStep, round);
        g.setOwner(GRANT_IN, RIVAL);
        final Map<String, Integer> before = tokensByOwner(g, GRANT_IN, r.token);
        g.leave();
        out.put("grantedWhileRivalHolds", gained(before, tokensByOwner(g, GRANT_IN, r.token)));
      }
      round++;
    }
    out.put("paidForOneZoneAlone", paid);
    out.put("tokensLeftInThatZone", left);
    // Round 3: the donor's tokens in both zones at once while its own land is an Ally's: each Ally
    // is paid again (every round, not once), and the tokens leave the board all the same.
    g.enter(r.deliverStep, round);
    g.setOwner(GRANT_IN, RIVAL);
    for (final String zone : RECIPIENT_BY_ZONE.keySet()) {
      load(g, r, zone, DONOR);
    }
    final Map<String, Integer> pus = pus(g);
    g.leave();
    g.setOwner(GRANT_IN, DONOR);
    out.put("paidAgainWhileItsLandIsLost", gained(pus, pus(g)));
    final ScenarioJson.Obj leftAgain = ScenarioJson.obj();
    for (final String zone : RECIPIENT_BY_ZONE.keySet()) {
      leftAgain.put(zone, tokensByOwner(g, zone, r.token));
    }
    out.put("tokensLeftAfterPaidAgain", leftAgain);
    out.put("grantedAgain", grant(g, r, round));
    // Round 4: only the rival's tokens are at sea.
    g.enter(r.deliverStep, round + 1);
    final Map<String, Integer> before = pus(g);
    g.leave();
    out.put("paidForRivalTokensAlone", gained(before, pus(g)));
    // Round 5: a single token of the donor's in each zone (of a turn's worth of two, one) is paid.
    g.enter(r.deliverStep, round + 2);
    for (final String zone : RECIPIENT_BY_ZONE.keySet()) {
      g.addUnits(zone, "transport", DONOR, 1);
      g.addUnits(zone, r.token, DONOR, 1);
    }
    final Map<String, Integer> beforeOne = pus(g);
    g.leave();
    out.put("paidForOneTokenEach", gained(beforeOne, pus(g)));
    g.stop();
    return out;
  }

  /** A turn's worth of OWNER's tokens, aboard its transports, in ZONE. */
  private static void load(final ScenarioGame g, final Route r, final String zone, final String owner) {
    g.addUnits(zone, "transport", owner, r.tokensPerTurn);
    g.addUnits(zone, r.token, owner, r.tokensPerTurn);
  }

  /** The tokens that appear in the donor's land at the grant step of ROUND. */
  private static Map<String, Integer> grant(final ScenarioGame g, final Route r, final int round) throws Exception {
    g.enter(r.grantStep, round);
    final Map<String, Integer> before = tokensByOwner(g, GRANT_IN, r.token);
    g.leave();
    return gained(before, tokensByOwner(g, GRANT_IN, r.token));
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
