package forge;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import games.strategy.engine.data.CompositeChange;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.ProductionRule;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.UnitType;
import games.strategy.engine.data.IAttachment;
import games.strategy.engine.data.changefactory.ChangeFactory;
import games.strategy.triplea.attachments.AbstractUserActionAttachment;
import games.strategy.triplea.attachments.RulesAttachment;
import games.strategy.triplea.attachments.TechAttachment;
import games.strategy.triplea.attachments.TerritoryAttachment;
import games.strategy.triplea.attachments.UnitAttachment;
import games.strategy.triplea.attachments.UserActionAttachment;
import games.strategy.triplea.delegate.PurchaseDelegate;
import games.strategy.triplea.delegate.TechAdvance;
import games.strategy.triplea.delegate.TechTracker;
import games.strategy.triplea.delegate.UserActionDelegate;

/**
 * A national advantage declared and followed to round 3: everything it changes.
 *
 * <p>`declared` declares one advantage at the start of its nation's round-1 turn in a fresh game and
 * reports what differs from the state before the declaration (every player's PUs, production
 * frontier with costs and results, techs, condition switches, unit strengths, territory effects and
 * units on the map) after the declaration, at the nation's purchase, after each Mobilize and at the
 * start of rounds 2 and 3, with the actions offered at each step. At the first Mobilize (the nation
 * holding every place its advantage names) each action offered is tried alone (who got what), and
 * the step then ends with none taken; at the second the advantage's actions are taken; at the third
 * the nation has lost its territories. `undeclared` reports, for a game in which nobody declares,
 * the switches as it starts and what each nation's steps offer. Whatever part of an advantage's
 * plumbing (a trigger's players, a condition, a switch, an expiry) is changed shows here as another
 * fact.
 */
final class ScenarioAdvantages {
  private ScenarioAdvantages() {}

  /** A game in which nobody declares: the switches as it starts, what each nation's steps offer. */
  static ScenarioJson.Obj undeclared(final String file) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    final ScenarioGame g = new ScenarioGame(file);
    out.put("switchesAtStart", switches(g));
    final Map<String, String[]> steps = new java.util.LinkedHashMap<>();
    for (final PlayerID p : g.data.getPlayerList().getPlayers()) {
      final String[] mine = steps(g, p.getName());
      if (mine != null) {
        steps.put(p.getName(), mine);
      }
    }
    // The steps in the order the game plays them: each nation's declaration step, then its Mobilize.
    final List<String[]> order = new ArrayList<>();
    for (final GameStep step : g.data.getSequence()) {
      for (final Map.Entry<String, String[]> e : steps.entrySet()) {
        for (final String name : e.getValue()) {
          if (name.equals(step.getName())) {
            order.add(new String[] {e.getKey(), name});
          }
        }
      }
    }
    final ScenarioJson.Obj offered = ScenarioJson.obj();
    for (int round = 1; round <= 2; round++) {
      for (final String[] step : order) {
        g.enter(step[1], round);
        offered.put(round + ":" + step[1], g.validActions());
      }
    }
    g.stop();
    out.put("offered", offered);
    return out;
  }

  /**
   * One national advantage (its user action ACTION) declared in round 1 and followed to round 3: its
   * nation's purchase after declaring; every action its first Mobilize offers, each tried from the
   * same state (the advantage is re-armed after each, so that the step ends with none taken); the
   * second Mobilize, taking its actions; the third, with the nation's territories all lost.
   */
  static ScenarioJson.Obj declared(final String file, final String action) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    String nation = null;
    for (final PlayerID p : g.data.getPlayerList().getPlayers()) {
      if (p.getAttachment(action) != null) {
        nation = p.getName();
      }
    }
    if (nation == null) {
      throw new IllegalArgumentException("no user action " + action);
    }
    final String[] steps = steps(g, nation);
    final ScenarioJson.Obj run = ScenarioJson.obj();
    g.enter(steps[0], 1);
    final Map<String, Object> before = state(g);
    g.act(action);
    run.put("declared", diff(before, state(g)));
    run.put("offeredAfterDeclaring", g.validActions());
    // The frontier the nation buys from after declaring (a first-purchase price is there).
    g.enter(purchaseStep(g, nation), 1);
    run.put("atPurchase1", diff(before, state(g)));
    g.enter(steps[1], 1);
    holdAll(g, nation, action);
    run.put("offeredAtMobilize1", g.validActions());
    run.put("tried1", tryEach(g));
    g.leave(); // the step's "after" triggers: a right not used at this Mobilize ends here
    run.put("afterMobilize1", diff(before, state(g)));
    g.enter(steps[0], 2);
    run.put("start2", g.validActions());
    run.put("atStart2", diff(before, state(g)));
    g.enter(steps[1], 2);
    run.put("offeredAtMobilize2", g.validActions());
    run.put("mobilize2", takeAll(g, action));
    g.leave();
    run.put("afterMobilize2", diff(before, state(g)));
    g.enter(steps[0], 3);
    run.put("start3", g.validActions());
    run.put("atStart3", diff(before, state(g)));
    // Round 3: the nation has lost every territory (to an enemy) when its Mobilize comes.
    g.enter(steps[1], 3);
    loseAll(g, nation);
    final Map<String, Object> lost = state(g);
    run.put("offeredAtMobilize3WithoutTerritories", g.validActions());
    g.leave();
    run.put("afterMobilize3WithoutTerritories", diff(lost, state(g)));
    g.stop();
    return run;
  }

  /** The nation's purchase step (not its bid). */
  private static String purchaseStep(final ScenarioGame g, final String nation) {
    for (final GameStep step : g.data.getSequence()) {
      final PlayerID player = step.getPlayerId();
      if (player != null && player.getName().equals(nation) && step.getDelegate().getClass() == PurchaseDelegate.class) {
        return step.getName();
      }
    }
    throw new IllegalStateException("no purchase step for " + nation);
  }

  /**
   * Each action the step offers, taken from the same state: what it changed and what was offered
   * after it. Between (and after) the tries the switches, attempts and techs it changed are set
   * back, so each try starts, and the step ends, as if none had been taken (units placed stay).
   */
  private static Map<String, Object> tryEach(final ScenarioGame g) {
    final Map<String, Object> tried = new TreeMap<>();
    for (final String a : g.validActions()) {
      final Map<String, Object> armed = state(g);
      final Map<String, Object> rearm = rearmable(g);
      g.act(a);
      final Map<String, Object> after = state(g);
      tried.put(a, ScenarioJson.obj().put("changed", diff(armed, after)).put("offeredAfter", g.validActions()));
      restore(g, rearm);
      for (final Map.Entry<String, Object> e : diff(armed, state(g)).entrySet()) {
        if (!e.getKey().startsWith("units/")) {
          throw new IllegalStateException("trying " + a + " left " + e.getKey() + " changed");
        }
      }
    }
    return tried;
  }

  /** The attachment properties an action may change that can be set back: switches, attempts, techs. */
  private static Map<String, Object> rearmable(final ScenarioGame g) {
    final Map<String, Object> values = new java.util.HashMap<>();
    for (final PlayerID p : g.data.getPlayerList().getPlayers()) {
      for (final IAttachment a : p.getAttachments().values()) {
        if (a instanceof RulesAttachment) {
          values.put(p.getName() + "/" + a.getName(), ((RulesAttachment) a).getSwitch());
        } else if (a instanceof UserActionAttachment) {
          values.put(p.getName() + "/" + a.getName(), ((UserActionAttachment) a).getAttemptsLeftThisTurn());
        }
      }
      final TechAttachment techs = TechAttachment.get(p);
      if (techs != null) {
        for (final TechAdvance t : TechAdvance.getTechAdvances(g.data)) {
          values.put(p.getName() + "/tech/" + t.getProperty(), t.hasTech(techs));
        }
      }
    }
    return values;
  }

  private static void restore(final ScenarioGame g, final Map<String, Object> values) {
    final Map<String, Object> now = rearmable(g);
    final CompositeChange change = new CompositeChange();
    for (final PlayerID p : g.data.getPlayerList().getPlayers()) {
      for (final IAttachment a : p.getAttachments().values()) {
        final String key = p.getName() + "/" + a.getName();
        if (values.containsKey(key) && !values.get(key).equals(now.get(key))) {
          final String property = a instanceof RulesAttachment ? "switch" : AbstractUserActionAttachment.ATTEMPTS_LEFT_THIS_TURN;
          change.add(ChangeFactory.attachmentPropertyChange(a, values.get(key), property));
        }
      }
      final TechAttachment techs = TechAttachment.get(p);
      if (techs != null) {
        for (final TechAdvance t : TechAdvance.getTechAdvances(g.data)) {
          final String key = p.getName() + "/tech/" + t.getProperty();
          if (!values.get(key).equals(now.get(key))) {
            change.add(ChangeFactory.attachmentPropertyChange(techs, values.get(key), t.getProperty()));
          }
        }
      }
    }
    if (!change.isEmpty()) {
      g.change(change);
    }
  }

  /**
   * NATION takes every territory an action of the advantage (DECLARATION) needs it to hold, so that
   * each of its places is offered (some start in enemy hands: Kwantung, the Philippines).
   */
  private static void holdAll(final ScenarioGame g, final String nation, final String declaration) {
    for (final UserActionAttachment a : UserActionAttachment.getUserActionAttachments(g.player(nation))) {
      if (!a.getName().startsWith(declaration) || a.getName().equals(declaration)) {
        continue;
      }
      for (final RulesAttachment condition : a.getConditions()) {
        if (condition.getDirectOwnershipTerritories() != null) {
          for (final String t : condition.getDirectOwnershipTerritories()) {
            if (g.territory(t) != null) {
              g.setOwner(t, nation);
            }
          }
        }
      }
    }
  }

  /** Every territory NATION owns passes to the first player at war with it. */
  private static void loseAll(final ScenarioGame g, final String nation) {
    final PlayerID owner = g.player(nation);
    PlayerID enemy = null;
    for (final PlayerID p : g.data.getPlayerList().getPlayers()) {
      if (enemy == null && g.data.getRelationshipTracker().isAtWar(owner, p)) {
        enemy = p;
      }
    }
    for (final Territory t : g.data.getMap().getTerritories()) {
      if (owner.equals(t.getOwner())) {
        g.setOwner(t.getName(), enemy.getName());
      }
    }
  }

  /** The nation's declaration step and its Mobilize user-action step, by name (null: it has none). */
  private static String[] steps(final ScenarioGame g, final String nation) {
    String declare = null;
    String mobilize = null;
    for (final GameStep step : g.data.getSequence()) {
      final PlayerID player = step.getPlayerId();
      if (player == null || !player.getName().equals(nation) || !(step.getDelegate() instanceof UserActionDelegate)) {
        continue;
      }
      if (step.getName().contains("Mobilize")) {
        mobilize = mobilize == null ? step.getName() : mobilize;
      } else {
        declare = declare == null ? step.getName() : declare;
      }
    }
    if (declare == null || mobilize == null) {
      return null;
    }
    return new String[] {declare, mobilize};
  }

  /**
   * Takes each action of the advantage (named after its declaration) the step offers, first first,
   * until none is left (or one changes nothing); other declarations offered stay untaken.
   */
  private static List<String> takeAll(final ScenarioGame g, final String declaration) {
    final List<String> taken = new ArrayList<>();
    List<String> offered = mine(g.validActions(), declaration);
    for (int guard = 0; !offered.isEmpty() && guard < 8; guard++) {
      g.act(offered.get(0));
      taken.add(offered.get(0));
      final List<String> now = mine(g.validActions(), declaration);
      if (now.equals(offered)) {
        break;
      }
      offered = now;
    }
    return taken;
  }

  private static List<String> mine(final List<String> actions, final String declaration) {
    final List<String> found = new ArrayList<>();
    for (final String a : actions) {
      if (a.startsWith(declaration) && !a.equals(declaration)) {
        found.add(a);
      }
    }
    return found;
  }

  private static Map<String, Object> switches(final ScenarioGame g) {
    final Map<String, Object> on = new TreeMap<>();
    for (final PlayerID p : g.data.getPlayerList().getPlayers()) {
      for (final Map.Entry<String, IAttachment> a : p.getAttachments().entrySet()) {
        if (a.getValue() instanceof RulesAttachment) {
          on.put(p.getName() + "/" + a.getKey(), ((RulesAttachment) a.getValue()).getSwitch());
        }
      }
    }
    return on;
  }

  /** Everything an advantage may change, by a key naming it. */
  private static Map<String, Object> state(final ScenarioGame g) {
    final Map<String, Object> s = new TreeMap<>();
    for (final Map.Entry<String, Object> e : switches(g).entrySet()) {
      s.put("switch/" + e.getKey(), e.getValue());
    }
    for (final PlayerID p : g.data.getPlayerList().getPlayers()) {
      final String n = p.getName();
      s.put("pus/" + n, g.pus(n));
      if (p.getProductionFrontier() != null) {
        for (final ProductionRule r : p.getProductionFrontier().getRules()) {
          s.put("frontier/" + n + "/" + r.getName(), r.getCosts() + " -> " + r.getResults());
        }
      }
      for (final TechAdvance t : TechTracker.getCurrentTechAdvances(p, g.data)) {
        s.put("tech/" + n + "/" + t.getName(), true);
      }
      for (final UnitType t : g.data.getUnitTypeList()) {
        final UnitAttachment ua = UnitAttachment.get(t);
        s.put("strength/" + n + "/" + t.getName(), ua.getAttack(p) + "/" + ua.getDefense(p) + "/" + ua.getMovement(p));
      }
    }
    for (final Territory t : g.data.getMap().getTerritories()) {
      final TerritoryAttachment ta = TerritoryAttachment.get(t);
      if (ta != null && !ta.getTerritoryEffect().isEmpty()) {
        s.put("effects/" + t.getName(), ScenarioGame.names(ta.getTerritoryEffect()).toString());
      }
      for (final Unit u : t.getUnits().getUnits()) {
        final String key = "units/" + t.getName() + "/" + u.getOwner().getName() + "/" + u.getType().getName();
        s.put(key, (Integer) s.getOrDefault(key, 0) + 1);
      }
    }
    return s;
  }

  /** AFTER's values that differ from BEFORE's (null: gone). */
  private static Map<String, Object> diff(final Map<String, Object> before, final Map<String, Object> after) {
    final Map<String, Object> changed = new TreeMap<>();
    for (final Map.Entry<String, Object> e : after.entrySet()) {
      if (!e.getValue().equals(before.get(e.getKey()))) {
        changed.put(e.getKey(), e.getValue());
      }
    }
    for (final String key : before.keySet()) {
      if (!after.containsKey(key)) {
        changed.put(key, null);
      }
    }
    return changed;
  }
}
