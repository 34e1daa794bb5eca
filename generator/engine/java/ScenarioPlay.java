package forge;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.ProductionRule;
import games.strategy.engine.data.Route;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.TerritoryEffect;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.changefactory.ChangeFactory;
import games.strategy.engine.delegate.IDelegate;
import games.strategy.engine.framework.GameDataUtils;
import games.strategy.triplea.delegate.AbstractPlaceDelegate;
import games.strategy.triplea.delegate.BattleDelegate;
import games.strategy.triplea.delegate.DiceRoll;
import games.strategy.triplea.delegate.IBattle;
import games.strategy.triplea.delegate.Matches;
import games.strategy.triplea.delegate.MoveDelegate;
import games.strategy.triplea.delegate.PurchaseDelegate;
import games.strategy.triplea.delegate.TechAdvance;
import games.strategy.triplea.delegate.TechTracker;
import games.strategy.triplea.delegate.TerritoryEffectHelper;
import games.strategy.triplea.delegate.remote.IAbstractPlaceDelegate;
import games.strategy.util.IntegerMap;
import games.strategy.util.Match;
import games.strategy.util.Tuple;

/**
 * What a player does in a step, done through the step's own delegate as the player's UI would:
 * buy, place, move, fight a battle, plus setup helpers (a tech, a game option, damage). Each
 * action returns the engine's error message, or null when the engine accepted it.
 */
final class ScenarioPlay {
  private ScenarioPlay() {}

  /** The last step of the sequence played by PLAYER whose name ends with SUFFIX. */
  static String stepOf(final ScenarioGame g, final String player, final String suffix) {
    String found = null;
    for (final GameStep step : g.data.getSequence()) {
      final String name = step.getName();
      // "CombatMove" means the combat move, not the non-combat move that also ends with it.
      final boolean other = suffix.equals("CombatMove") && name.endsWith("NonCombatMove");
      if (step.getPlayerId() != null && step.getPlayerId().getName().equals(player) && name.endsWith(suffix) && !other) {
        found = name;
      }
    }
    if (found == null) {
      throw new IllegalArgumentException("no step of " + player + " ending with " + suffix);
    }
    return found;
  }

  /** Enters the step of PLAYER ending with SUFFIX in ROUND. */
  /** The position of the step named STEP in the game's sequence. */
  static int indexOf(final ScenarioGame g, final String step) {
    for (int i = 0; i < g.data.getSequence().size(); i++) {
      if (g.data.getSequence().getStep(i).getName().equals(step)) {
        return i;
      }
    }
    throw new IllegalArgumentException(step);
  }

  static void enter(final ScenarioGame g, final String player, final String suffix, final int round) throws Exception {
    g.enter(stepOf(g, player, suffix), round);
  }

  /** Buys QUANTITY of production rule RULE in the current purchase step. */
  static String buy(final ScenarioGame g, final String rule, final int quantity) {
    final ProductionRule found = g.data.getProductionRuleList().getProductionRule(rule);
    final IntegerMap<ProductionRule> order = new IntegerMap<>();
    order.put(found, quantity);
    return ((PurchaseDelegate) (IDelegate) g.delegate()).purchase(order);
  }

  /** Places N of the current player's bought units of type UNIT in TERRITORY. */
  static String place(final ScenarioGame g, final String unit, final int n, final String territory) {
    final PlayerID player = g.step().getPlayerId();
    final List<Unit> units = new ArrayList<>(player.getUnits().getMatches(Matches.unitIsOfType(g.unitType(unit))));
    if (units.size() < n) {
      return "only " + units.size() + " " + unit + " to place";
    }
    final AbstractPlaceDelegate delegate = g.delegate();
    return delegate.placeUnits(new ArrayList<>(units.subList(0, n)), g.territory(territory),
        IAbstractPlaceDelegate.BidMode.NOT_BID);
  }

  /** N units of type UNIT owned by OWNER in the first territory of ROUTE, moved along it. */
  static String move(final ScenarioGame g, final String owner, final String unit, final int n, final String... route) {
    return moveWith(g, units(g, route[0], owner, unit, n), Collections.emptyMap(), route);
  }

  /** Moves UNITS along ROUTE, each carrier taking its DEPENDENTS (air transport cargo). */
  static String moveWith(final ScenarioGame g, final List<Unit> units, final Map<Unit, Collection<Unit>> dependents,
      final String... route) {
    final List<Territory> steps = new ArrayList<>();
    for (final String t : route) {
      steps.add(g.territory(t));
    }
    final List<Unit> all = new ArrayList<>(units);
    for (final Collection<Unit> carried : dependents.values()) {
      all.addAll(carried);
    }
    final MoveDelegate delegate = g.delegate();
    return delegate.move(all, new Route(steps), Collections.emptyList(), new HashMap<>(dependents));
  }

  static List<Unit> units(final ScenarioGame g, final String territory, final String owner, final String unit,
      final int n) {
    final List<Unit> found = g.territory(territory).getUnits().getMatches(
        Match.allOf(Matches.unitIsOfType(g.unitType(unit)), Matches.unitIsOwnedBy(g.player(owner))));
    if (found.size() < n) {
      throw new IllegalStateException("only " + found.size() + " " + unit + " of " + owner + " in " + territory);
    }
    return new ArrayList<>(found.subList(0, n));
  }

  /** Fights the battle in TERRITORY in the current battle step (the players' AIs answer). */
  static String fight(final ScenarioGame g, final String territory) {
    final BattleDelegate delegate = g.delegate();
    return delegate.fightBattle(g.territory(territory), false, IBattle.BattleType.NORMAL);
  }

  /** Gives PLAYER the tech TECH (spec name), as a successful research roll would. */
  static void addTech(final ScenarioGame g, final String player, final String tech) {
    TechAdvance advance = g.data.getTechnologyFrontier().getAdvanceByProperty(tech);
    if (advance == null) {
      advance = g.data.getTechnologyFrontier().getAdvanceByName(tech);
    }
    TechTracker.addAdvance(g.player(player), ((games.strategy.triplea.delegate.AbstractDelegate) (IDelegate) g.delegate())
        .getBridge(), advance);
  }

  /** Sets a game option as the game's setup screen does (before the game, not through a change). */
  static void setProperty(final ScenarioGame g, final String name, final Object value) {
    // An editable option's value lives in its editable property, which the engine reads first.
    for (final games.strategy.engine.data.properties.IEditableProperty p : g.data.getProperties()
        .getEditableProperties()) {
      if (p.getName().equals(name)) {
        p.setValue(value);
        return;
      }
    }
    g.data.getProperties().set(name, value);
  }

  static void damage(final ScenarioGame g, final Unit unit, final int hits) {
    final IntegerMap<Unit> map = new IntegerMap<>();
    map.put(unit, hits);
    g.change(ChangeFactory.unitsHit(map));
  }

  /** Attack and defence strength of one PLAYER unit of type UNIT fighting in WHERE, its terrain included. */
  static ScenarioJson.Obj strengths(final ScenarioGame g, final String player, final String unit, final String where,
      final boolean amphibious) {
    final Unit u = g.unitType(unit).create(g.player(player));
    if (amphibious) {
      ((games.strategy.triplea.TripleAUnit) u).setWasAmphibious(true);
    }
    final List<Unit> units = new ArrayList<>(Collections.singletonList(u));
    final Territory t = g.territory(where);
    final Collection<TerritoryEffect> effects = TerritoryEffectHelper.getEffects(t);
    // A marine's bonus counts for attackers that landed from a transport in an amphibious battle.
    final Collection<Unit> landed = amphibious ? units : Collections.emptyList();
    final Map<Unit, Tuple<Integer, Integer>> attack = DiceRoll.getUnitPowerAndRollsForNormalBattles(units,
        new ArrayList<>(), false, false, g.data, t, effects, amphibious, landed);
    final Map<Unit, Tuple<Integer, Integer>> defence = DiceRoll.getUnitPowerAndRollsForNormalBattles(units,
        new ArrayList<>(), true, false, g.data, t, effects, false, Collections.emptyList());
    return ScenarioJson.obj().put("attack", attack.get(u).getFirst()).put("defence", defence.get(u).getFirst());
  }

  /** The dice recorded since index FROM whose annotation contains TEXT. */
  static List<ScenarioJson.Obj> rollsSince(final ScenarioGame g, final int from, final String text) {
    final List<ScenarioJson.Obj> out = new ArrayList<>();
    for (final ScenarioJson.Obj roll : g.rolls.subList(from, g.rolls.size())) {
      if (String.valueOf(roll.get("annotation")).contains(text)) {
        out.add(roll);
      }
    }
    return out;
  }

  /** The strength of a PLAYER unit in WHERE facing ENEMY units of types ENEMY_UNITS (none: alone). */
  static ScenarioJson.Obj strength(final ScenarioGame g, final String player, final String unit,
      final String where, final String enemy, final String... enemyUnits) {
    final Unit u = g.unitType(unit).create(g.player(player));
    final List<Unit> units = new ArrayList<>(Collections.singletonList(u));
    final List<Unit> enemies = new ArrayList<>();
    for (final String enemyUnit : enemyUnits) {
      enemies.add(g.unitType(enemyUnit).create(g.player(enemy)));
    }
    final Territory t = g.territory(where);
    final Map<Unit, Tuple<Integer, Integer>> attack = DiceRoll.getUnitPowerAndRollsForNormalBattles(units, enemies,
        false, false, g.data, t, TerritoryEffectHelper.getEffects(t), false, Collections.emptyList());
    final Map<Unit, Tuple<Integer, Integer>> defence = DiceRoll.getUnitPowerAndRollsForNormalBattles(units, enemies,
        true, false, g.data, t, TerritoryEffectHelper.getEffects(t), false, Collections.emptyList());
    return ScenarioJson.obj().put("attack", attack.get(u).getFirst()).put("defence", defence.get(u).getFirst());
  }

  /**
   * Japanese infantry from Manchuria try to attack Buryatia in combat move (the Revised map's
   * Russia-Japan border, which a treaty closes); "allowed" when the engine takes the move.
   */
  static String attackBuryatia(final ScenarioGame g) {
    final List<Unit> units = g.territory("Manchuria").getUnits().getMatches(
        games.strategy.util.Match.allOf(Matches.unitIsOfType(g.unitType("infantry")), Matches.unitIsOwnedBy(g.player(ScenarioNations.JP))));
    final Route route = new Route(g.territory("Manchuria"), g.territory("Buryatia S.S.R."));
    final String error = ((MoveDelegate) g.delegate()).move(units, route, Collections.emptyList(), new HashMap<>());
    return error == null ? "allowed" : error;
  }

  /** True when the game data survives the copy the engine (and every AI purchase) makes. */
  static boolean cloneable(final GameData data) {
    data.acquireReadLock();
    try {
      return GameDataUtils.cloneGameData(data, true) != null;
    } finally {
      data.releaseReadLock();
    }
  }
}
