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
import games.strategy.engine.delegate.IDelegateBridge;
import games.strategy.triplea.attachments.AbstractConditionsAttachment;
import games.strategy.triplea.attachments.AbstractUserActionAttachment;
import games.strategy.triplea.attachments.ICondition;
import games.strategy.triplea.attachments.RulesAttachment;
import games.strategy.triplea.attachments.TechAttachment;
import games.strategy.triplea.attachments.TerritoryAttachment;
import games.strategy.triplea.attachments.TriggerAttachment;
import games.strategy.triplea.attachments.UnitAttachment;
import games.strategy.triplea.attachments.UserActionAttachment;
import games.strategy.triplea.delegate.BaseTripleADelegate;
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
 * the nation has lost its territories. At the first Mobilize, too, the nation loses each place of
 * its actions alone (where their triggers place units, and what their conditions need held) and
 * the actions then offered are reported: a condition naming the wrong place shows there. `undeclared` reports, for a game in which nobody declares,
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
    final Map<String, Object> atStart = state(g);
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
    // What changed without a declaration, two rounds on (but the PUs of income and the switches
    // of the turn): a trigger of an advantage missing its switch would put units on the board,
    // change a price, a strength or a convoy zone here.
    final Map<String, Object> changed = diff(atStart, state(g));
    changed.keySet().removeIf(key -> key.startsWith("pus/") || key.startsWith("switch/"));
    out.put("changedWithoutDeclaring", changed);
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
    run.put("offeredAtMobilize1WithoutEachPlace", withoutEachPlace(g, nation, action));
    run.put("placingTriggersMetWithoutEachPlace", triggersWithoutEachPlace(g, nation, action));
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
    final String code = action.substring("userActionAttachment".length());
    if (trigger(g, "triggerAttachment" + code + "Expire") != null && trigger(g, "triggerAttachment" + code + "Refill") == null) {
      run.put("placesBackAfterMissingTheFirstMobilize", missedFirstMobilize(file, action));
    }
    return run;
  }

  /**
   * A one-time advantage (one with an Expire and no Refill) declared in a game of its own, its
   * nation without its territories at the first Mobilize (nothing can be taken) and with them back
   * at the second: what the second offers and what it changes. The right is gone for good: an
   * Expire that asks for a place, or a placement that waits for one, shows here.
   */
  private static ScenarioJson.Obj missedFirstMobilize(final String file, final String action) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    String nation = null;
    for (final PlayerID p : g.data.getPlayerList().getPlayers()) {
      if (p.getAttachment(action) != null) {
        nation = p.getName();
      }
    }
    final String[] steps = steps(g, nation);
    g.enter(steps[0], 1);
    g.act(action);
    g.enter(steps[1], 1);
    final List<String> held = new ArrayList<>();
    for (final Territory t : g.data.getMap().getTerritories()) {
      if (nation.equals(t.getOwner().getName())) {
        held.add(t.getName());
      }
    }
    loseAll(g, nation);
    g.leave();
    // Back at the start of its next turn (the "after" triggers of the Mobilize have fired by then).
    g.enter(steps[0], 2);
    for (final String t : held) {
      g.setOwner(t, nation);
    }
    g.enter(steps[1], 2);
    final Map<String, Object> before = state(g);
    final ScenarioJson.Obj out = ScenarioJson.obj().put("offered", mine(g.validActions(), action));
    final Map<String, Object> switches = new TreeMap<>(); // the advantage's own, as the second Mobilize starts
    final String code = action.substring("userActionAttachment".length());
    for (final Map.Entry<String, Object> e : switches(g).entrySet()) {
      if (e.getKey().contains("conditionAttachment" + code)) {
        switches.put(e.getKey(), e.getValue());
      }
    }
    out.put("switches", switches);
    g.leave();
    final Map<String, Object> changed = diff(before, state(g));
    changed.keySet().removeIf(key -> !key.startsWith("units/"));
    out.put("unitsPlaced", changed);
    g.stop();
    return out;
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
   * back, so each try starts, and the step ends, as if none had been taken (units placed stay, and
   * the convoy zones a complex placed makes).
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
        if (!e.getKey().startsWith("units/") && !e.getKey().startsWith("convoy/")) {
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

  /**
   * Each place of the advantage's actions on offer (a territory its triggers place units in, or one
   * its conditions need held), lost alone to the first enemy and given back: the advantage's
   * actions then offered, and those whose triggers place units there.
   */
  private static Map<String, Object> withoutEachPlace(final ScenarioGame g, final String nation, final String declaration) {
    final Map<String, List<String>> placing = new TreeMap<>(); // place -> the actions placing units there
    for (final String name : mine(g.validActions(), declaration)) {
      final UserActionAttachment a = (UserActionAttachment) g.player(nation).getAttachment(name);
      for (final games.strategy.util.Tuple<String, String> fired : a.getActivateTrigger()) {
        final TriggerAttachment trigger = trigger(g, fired.getFirst());
        if (trigger != null && trigger.getPlacement() != null) {
          for (final Territory t : trigger.getPlacement().keySet()) {
            placing.computeIfAbsent(t.getName(), k -> new ArrayList<>()).add(name);
          }
        }
      }
      for (final RulesAttachment condition : a.getConditions()) {
        for (final String t : condition.getDirectOwnershipTerritories() == null
            ? new String[0] : condition.getDirectOwnershipTerritories()) {
          placing.computeIfAbsent(t, k -> new ArrayList<>());
        }
      }
    }
    final PlayerID enemy = enemyOf(g, g.player(nation));
    final Map<String, Object> offered = new TreeMap<>();
    for (final Map.Entry<String, List<String>> place : placing.entrySet()) {
      final Territory t = g.territory(place.getKey());
      if (t == null || t.isWater() || !nation.equals(t.getOwner().getName())) {
        continue; // a sea zone is held by no one; a place held by another is lost already
      }
      g.setOwner(place.getKey(), enemy.getName());
      offered.put(place.getKey(), ScenarioJson.obj()
          .put("offered", mine(g.validActions(), declaration)).put("placingThere", place.getValue()));
      g.setOwner(place.getKey(), nation);
    }
    return offered;
  }

  /**
   * Each trigger of the advantage that places units (named after its declaration: a Mobilize
   * placement, one at the declaration) whether its conditions are met now, and with each land it
   * places in lost alone to the first enemy: a condition naming another place shows.
   */
  private static Map<String, Object> triggersWithoutEachPlace(final ScenarioGame g, final String nation,
      final String declaration) {
    final String prefix = "triggerAttachment" + declaration.substring("userActionAttachment".length());
    final IDelegateBridge bridge = ((BaseTripleADelegate) g.delegate()).getBridge();
    final PlayerID enemy = enemyOf(g, g.player(nation));
    final Map<String, Object> met = new TreeMap<>();
    for (final PlayerID p : g.data.getPlayerList().getPlayers()) {
      for (final IAttachment a : p.getAttachments().values()) {
        if (!(a instanceof TriggerAttachment) || !a.getName().startsWith(prefix)) {
          continue;
        }
        final TriggerAttachment trigger = (TriggerAttachment) a;
        if (trigger.getPlacement() == null || trigger.getPlacement().isEmpty()) {
          continue;
        }
        final ScenarioJson.Obj byPlace = ScenarioJson.obj().put("asIs", conditionsMet(trigger, bridge));
        for (final Territory t : trigger.getPlacement().keySet()) {
          if (!t.isWater() && nation.equals(t.getOwner().getName())) {
            g.setOwner(t.getName(), enemy.getName());
            byPlace.put(t.getName(), conditionsMet(trigger, bridge));
            g.setOwner(t.getName(), nation);
          }
        }
        met.put(trigger.getName(), byPlace);
      }
    }
    return met;
  }

  /** Whether TRIGGER's conditions are met now, as the engine tests them before firing it. */
  private static boolean conditionsMet(final TriggerAttachment trigger, final IDelegateBridge bridge) {
    final java.util.HashSet<ICondition> all =
        AbstractConditionsAttachment.getAllConditionsRecursive(new java.util.HashSet<>(trigger.getConditions()), null);
    return trigger.isSatisfied(AbstractConditionsAttachment.testAllConditionsRecursive(all, null, bridge));
  }

  /** The trigger called NAME, whichever player it is attached to. */
  private static TriggerAttachment trigger(final ScenarioGame g, final String name) {
    for (final PlayerID p : g.data.getPlayerList().getPlayers()) {
      if (p.getAttachment(name) instanceof TriggerAttachment) {
        return (TriggerAttachment) p.getAttachment(name);
      }
    }
    return null;
  }

  /** The first player at war with OWNER, in the game's order. */
  private static PlayerID enemyOf(final ScenarioGame g, final PlayerID owner) {
    for (final PlayerID p : g.data.getPlayerList().getPlayers()) {
      if (g.data.getRelationshipTracker().isAtWar(owner, p)) {
        return p;
      }
    }
    throw new IllegalStateException(owner.getName() + " is at war with no one");
  }

  /** Every territory NATION owns passes to the first player at war with it. */
  private static void loseAll(final ScenarioGame g, final String nation) {
    final PlayerID owner = g.player(nation);
    final PlayerID enemy = enemyOf(g, owner);
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
      if (ta != null && ta.getBlockadeZone()) { // a convoy zone (Colonial Garrison makes some)
        s.put("convoy/" + t.getName(), true);
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
