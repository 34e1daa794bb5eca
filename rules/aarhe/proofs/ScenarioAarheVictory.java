package forge;

import static forge.ScenarioNations.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Territory;
import games.strategy.triplea.attachments.AbstractConditionsAttachment;
import games.strategy.triplea.attachments.ICondition;
import games.strategy.triplea.attachments.TerritoryAttachment;
import games.strategy.triplea.attachments.TriggerAttachment;
import games.strategy.triplea.delegate.EndRoundDelegate;

/**
 * AARHE's victory in the engine: Total Victory (one side holds every territory) and City Victory
 * (victory city points), at the end of a round.
 */
final class ScenarioAarheVictory {
  private ScenarioAarheVictory() {}

  /** Total Victory (holding everything) and City Victory (victory city points) at the end of a round. */
  static ScenarioJson.Obj victory(final String file) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    out.put("everything", victoryCase(file, "Allies", true, 0));
    out.put("everythingButOne", victoryCase(file, "Allies", true, 1));
    out.put("axisEverything", victoryCase(file, "Axis", true, 0));
    out.put("alliesCityBelow", victoryCase(file, "Allies", false, -1));
    out.put("alliesCityAt", victoryCase(file, "Allies", false, 0));
    out.put("axisCityBelow", victoryCase(file, "Axis", false, -1));
    out.put("axisCityAt", victoryCase(file, "Axis", false, 0));
    return out;
  }

  /**
   * One end of round 1. ALL: the side takes every territory owned by the other (but SPARE of them),
   * with the victory city option off. Otherwise it takes the other side's victory cities, largest
   * first, until it reaches its threshold (SPARE 0) or stays just below it (SPARE -1).
   */
  private static ScenarioJson.Obj victoryCase(final String file, final String side, final boolean all, final int spare)
      throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final String endRound = ScenarioAarhe.endRoundStep(g);
    final int index = ScenarioPlay.indexOf(g, endRound);
    g.enter(g.data.getSequence().getStep(index - 1).getName(), 1);
    final String taker = side.equals("Allies") ? UK : GE;
    final List<Territory> others = new ArrayList<>();
    for (final Territory t : g.data.getMap().getTerritories()) {
      if (!t.isWater() && !t.getOwner().isNull() && !alliance(g, t.getOwner()).equals(side)) {
        others.add(t);
      }
    }
    if (all) {
      ScenarioPlay.setProperty(g, "Total Victory", Boolean.FALSE);

      for (int i = spare; i < others.size(); i++) {
        g.setOwner(others.get(i).getName(), taker);
      }
    } else {
      final int threshold = g.data.getProperties().get(side + " Total Victory VCs", 0);
      others.removeIf(t -> TerritoryAttachment.get(t) == null || TerritoryAttachment.get(t).getVictoryCity() == 0);
      others.sort((a, b) -> TerritoryAttachment.get(b).getVictoryCity() - TerritoryAttachment.get(a).getVictoryCity());
      for (final Territory t : others) {
        final int now = victoryCities(g).getOrDefault(side, 0);
        final int next = now + TerritoryAttachment.get(t).getVictoryCity();
        if (now >= threshold || (spare < 0 && next >= threshold)) {
          continue;
        }
        g.setOwner(t.getName(), taker);
      }
    }
    final ScenarioJson.Obj run = ScenarioJson.obj();
    if (all && spare > 0) {
      run.put("notTaken", others.get(0).getName());
    }
    if (all && spare == 0) {
      run.put("victoriesHoldingEverything", victoriesNow(g));
      run.put("stillWonWithout", stillWonWithout(g, side.equals("Allies") ? GE : UK));
    }
    run.put("victoryCities", victoryCities(g));
    run.put("cityVictoryOption", g.data.getProperties().get("Total Victory", true));
    run.put("threshold", g.data.getProperties().get(side + " Total Victory VCs", 0));
    g.leave();
    g.enter(endRound, 1);
    final EndRoundDelegate delegate = g.delegate();
    run.put("gameOver", g.gameOver());
    run.put("winners", delegate.getWinners() == null ? null : new TreeSet<>(ScenarioGame.names(delegate.getWinners())));
    g.stop();
    return run;
  }

  private static String alliance(final ScenarioGame g, final PlayerID player) {
    return g.data.getAllianceTracker().getAlliancesPlayerIsIn(player).iterator().next();
  }

  static Map<String, Integer> victoryCities(final ScenarioGame g) {
    final Map<String, Integer> byAlliance = new TreeMap<>();
    for (final Territory t : g.data.getMap().getTerritories()) {
      final TerritoryAttachment ta = TerritoryAttachment.get(t);
      if (ta == null || ta.getVictoryCity() == 0 || t.getOwner().isNull()) {
        continue;
      }
      byAlliance.merge(alliance(g, t.getOwner()), ta.getVictoryCity(), Integer::sum);
    }
    return byAlliance;
  }

  /** The victory triggers whose conditions hold now, by name, with the players each declares winners. */
  private static Map<String, List<String>> victoriesNow(final ScenarioGame g) {
    final HashSet<TriggerAttachment> victories = new HashSet<>();
    for (final PlayerID p : g.data.getPlayerList().getPlayers()) {
      for (final games.strategy.engine.data.IAttachment a : p.getAttachments().values()) {
        if (a instanceof TriggerAttachment && ((TriggerAttachment) a).getVictory() != null) {
          victories.add((TriggerAttachment) a);
        }
      }
    }
    final HashMap<ICondition, Boolean> tested = AbstractConditionsAttachment.testAllConditionsRecursive(
        AbstractConditionsAttachment.getAllConditionsRecursive(new HashSet<>(victories), null), null,
        g.delegate().getBridge());
    final Map<String, List<String>> out = new TreeMap<>();
    for (final TriggerAttachment t : victories) {
      if (t.isSatisfied(tested)) {
        out.put(t.getName(), new ArrayList<>(new TreeSet<>(ScenarioGame.names(t.getPlayers()))));
      }
    }
    return out;
  }

  /**
   * Holding everything, the land territories (of those with an owner) that the side may lose, one
   * at a time, to ENEMY and still have a victory trigger's conditions hold: none, when Total
   * Victory needs every territory.
   */
  private static List<String> stillWonWithout(final ScenarioGame g, final String enemy) {
    final Map<String, List<String>> holding = victoriesNow(g);
    final List<String> out = new ArrayList<>();
    for (final Territory t : g.data.getMap().getTerritories()) {
      if (t.isWater() || t.getOwner().isNull()) {
        continue;
      }
      final String owner = t.getOwner().getName();
      g.setOwner(t.getName(), enemy);
      if (victoriesNow(g).keySet().stream().anyMatch(holding::containsKey)) {
        out.add(t.getName());
      }
      g.setOwner(t.getName(), owner);
    }
    return out;
  }
}
