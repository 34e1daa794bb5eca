package forge;

import static forge.ScenarioNations.*;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;

import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.triplea.delegate.IBattle;

/**
 * AARHE aircraft in the air: dogfights (the air battle option, which players may switch on),
 * British naval fighters and dive bombers attacking German ones, each side's aircraft fighting
 * the air battle with their dogfight values before the battle (loaded dice: the British dogfight
 * dice hit, the German miss); defensive air support (scrambling); interception and escort.
 */
final class ScenarioAarheAirBattle {
  private ScenarioAarheAirBattle() {}

  private static final String[] AIRCRAFT = {"navalFighter", "diveBomber"};

  static ScenarioJson.Obj airBattle(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    ScenarioPlay.setProperty(g, "Battles May Be Preceeded By Air Battles", Boolean.TRUE);
    // All the defender's aircraft take off (a computer defender would keep every one grounded).
    ScenarioPlay.setProperty(g, "Air Battle Defenders Can Retreat", Boolean.FALSE);
    ScenarioPlay.enter(g, UK, "CombatMove", 1);
    final String[] pair = ScenarioAarheAntiAir.stage(g, new HashSet<>(), false, (site, from) -> {
      g.addUnits(site, "infantry", GE, 1);
      final List<Unit> attackers = new ArrayList<>();
      for (final String plane : AIRCRAFT) {
        g.addUnits(site, plane, GE, 1);
        attackers.addAll(g.addUnits(from, plane, UK, 1));
      }
      return ScenarioPlay.moveWith(g, attackers, java.util.Collections.emptyMap(), from, site);
    });
    out.put("move", pair[2]);
    final String site = pair[0];
    g.loadDice(ScenarioGame.DiceScript.hitsWhere("Attackers Fire"));
    final int start = g.rolls.size();
    ScenarioPlay.enter(g, UK, "Battle", 1);
    out.put("airBattle", String.valueOf(g.asPlayer(() -> g.<games.strategy.triplea.delegate.BattleDelegate>delegate()
        .fightBattle(g.territory(site), false, IBattle.BattleType.AIR_BATTLE))));
    // The dogfight dice of each side (one per aircraft with a dogfight value).
    out.put("attackersDice", diceOf(g, start, "Attackers Fire"));
    out.put("defendersDice", diceOf(g, start, "Defenders Fire"));
    out.put("germanAircraftLeft", g.count(site, AIRCRAFT[0], GE) + g.count(site, AIRCRAFT[1], GE));
    g.stop();
    out.put("scramble", scramble(file));
    out.put("raid", raid(file));
    return out;
  }

  /**
   * Defensive air support (a game of its own, every player an EagerDefender): a British fighter
   * attacks German land; German naval fighters and dive bombers wait at complexes one and two
   * spaces away. Those that scramble stand in the battle when the battle step has started (the
   * battle, the only one, is fought then: the German dice hit, the British miss).
   */
  static ScenarioJson.Obj scramble(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file, true);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    ScenarioPlay.enter(g, UK, "CombatMove", 1);
    final Territory[] places = scramblePlaces(g);
    final Territory site = places[0];
    for (final Territory t : g.data.getMap().getNeighbors(site, 3)) {
      clear(g, t);
    }
    clear(g, site);
    g.setOwner(site.getName(), GE);
    g.setOwner(places[1].getName(), GE);
    g.setOwner(places[2].getName(), GE);
    g.setOwner(places[3].getName(), UK);
    g.addUnits(site.getName(), "infantry", GE, 1);
    for (final Territory base : new Territory[] {places[1], places[2]}) {
      g.addUnits(base.getName(), "factory", GE, 1);
      for (final String plane : AIRCRAFT) {
        g.addUnits(base.getName(), plane, GE, 1);
      }
    }
    g.addUnits(places[3].getName(), "fighter", UK, 1);
    out.put("places", ScenarioJson.obj().put("battle", site.getName()).put("oneAway", places[1].getName())
        .put("twoAway", places[2].getName()));
    out.put("move", String.valueOf(ScenarioPlay.move(g, UK, "fighter", 1, places[3].getName(), site.getName())));
    g.loadDice(ScenarioGame.DiceScript.missesWhere(UK));
    ScenarioPlay.enter(g, UK, "Battle", 1);
    for (final String plane : AIRCRAFT) {
      out.put(plane + "InBattle", g.count(site.getName(), plane, GE));
    }
    g.stop();
    return out;
  }

  /** {battle site, a space next to it, a space two away, the British start} on land. */
  private static Territory[] scramblePlaces(final ScenarioGame g) {
    for (final Territory site : g.data.getMap().getTerritories()) {
      if (!ScenarioAarheAntiAir.usable(site, java.util.Collections.emptySet(), false)) {
        continue;
      }
      final Collection<Territory> near = g.data.getMap().getNeighbors(site);
      for (final Territory one : near) {
        for (final Territory two : g.data.getMap().getNeighbors(one)) {
          for (final Territory from : near) {
            if (!one.isWater() && !two.isWater() && !two.equals(site) && !near.contains(two) && !from.equals(one)
                && !one.getOwner().isNull() && !two.getOwner().isNull()
                && ScenarioAarheAntiAir.usable(from, java.util.Collections.emptySet(), false)) {
              return new Territory[] {site, one, two, from};
            }
          }
        }
      }
    }
    throw new IllegalStateException("no place for the scramble");
  }

  /**
   * Interception and escort (a game of its own, every player an EagerDefender; raids may be
   * preceded by air battles): a British bomber with a naval fighter raids a German complex
   * guarded by a German naval fighter. The dogfight dice tell who took part.
   */
  static ScenarioJson.Obj raid(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file, true);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    ScenarioPlay.setProperty(g, "Raids May Be Preceeded By Air Battles", Boolean.TRUE);
    ScenarioPlay.enter(g, UK, "CombatMove", 1);
    final String[] pair = ScenarioAarheAntiAir.stage(g, new HashSet<>(), false, (site, from) -> {
      g.addUnits(site, "factory", GE, 1);
      g.addUnits(site, "navalFighter", GE, 1);
      final List<Unit> raiders = new ArrayList<>(g.addUnits(from, "bomber", UK, 1));
      raiders.addAll(g.addUnits(from, "navalFighter", UK, 1));
      return ScenarioPlay.moveWith(g, raiders, java.util.Collections.emptyMap(), from, site);
    });
    out.put("move", pair[2]);
    g.loadDice(ScenarioGame.DiceScript.hitsWhere("Attackers Fire"));
    final int start = g.rolls.size();
    ScenarioPlay.enter(g, UK, "Battle", 1);
    out.put("raids", String.valueOf(games.strategy.triplea.delegate.DelegateFinder.battleDelegate(g.data)
        .getBattleTracker().getPendingBattleSites(true)));
    out.put("attackersDice", diceOf(g, start, "Attackers Fire"));
    out.put("defendersDice", diceOf(g, start, "Defenders Fire"));
    g.stop();
    return out;
  }

  private static void clear(final ScenarioGame g, final Territory t) {
    final List<Unit> there = new ArrayList<>(t.getUnits().getUnits());
    if (!there.isEmpty()) {
      g.change(games.strategy.engine.data.changefactory.ChangeFactory.removeUnits(t, there));
    }
  }

  private static List<Object> diceOf(final ScenarioGame g, final int from, final String title) {
    final List<Object> counts = new ArrayList<>();
    for (final ScenarioJson.Obj roll : g.rolls.subList(from, g.rolls.size())) {
      if (String.valueOf(roll.get("annotation")).startsWith(title)) {
        counts.add(roll.get("count"));
      }
    }
    return counts;
  }
}
