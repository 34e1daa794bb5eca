package forge;

import static forge.ScenarioNations.*;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import games.strategy.engine.data.Territory;
import games.strategy.triplea.delegate.BattleTracker;
import games.strategy.triplea.delegate.DelegateFinder;
import games.strategy.triplea.delegate.IBattle;
import games.strategy.triplea.delegate.MustFightBattle;

/**
 * AARHE retreats and aircraft without a landing place: where the engine lets an attack retreat
 * (the territories its land units came from, not one only its aircraft came from), and the
 * aircraft it removes at the end of the non-combat move for having nowhere to land.
 */
final class ScenarioAarheRetreat {
  private ScenarioAarheRetreat() {}

  static ScenarioJson.Obj retreat(final String file) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    final ScenarioGame g = new ScenarioGame(file);
    // Germany attacks Belorussia: infantry from Eastern Europe, a fighter from Ukraine.
    ScenarioPlay.enter(g, GE, "CombatMove", 1);
    g.addUnits("Belorussia", "infantry", RU, 1);
    g.addUnits("Eastern Europe", "infantry", GE, 1);
    g.addUnits("Ukraine S.S.R.", "fighter", GE, 1);
    out.put("infantryAttack", String.valueOf(ScenarioPlay.move(g, GE, "infantry", 1, "Eastern Europe", "Belorussia")));
    out.put("fighterAttack", String.valueOf(ScenarioPlay.move(g, GE, "fighter", 1, "Ukraine S.S.R.", "Belorussia")));
    final BattleTracker tracker = DelegateFinder.battleDelegate(g.data).getBattleTracker();
    final IBattle battle = tracker.getPendingBattle(g.territory("Belorussia"), false, IBattle.BattleType.NORMAL);
    final Method retreats = MustFightBattle.class.getDeclaredMethod("getAttackerRetreatTerritories");
    retreats.setAccessible(true);
    @SuppressWarnings("unchecked")
    final Collection<Territory> to = (Collection<Territory>) retreats.invoke(battle);
    final List<String> names = new ArrayList<>(ScenarioGame.names(to));
    names.sort(null);
    out.put("retreatTo", names);
    // Non-combat move: a fighter left in a sea zone without a carrier, another over its own land.
    ScenarioPlay.enter(g, GE, "NonCombatMove", 1);
    final int atSea = g.count("5 Sea Zone", "fighter", GE);
    final int atHome = g.count("Germany", "fighter", GE);
    g.addUnits("5 Sea Zone", "fighter", GE, 1);
    g.addUnits("Germany", "fighter", GE, 1);
    g.leave();
    out.put("fightersLeftAtSea", g.count("5 Sea Zone", "fighter", GE) - atSea);
    out.put("fightersLeftAtHome", g.count("Germany", "fighter", GE) - atHome);
    g.stop();
    return out;
  }
}
