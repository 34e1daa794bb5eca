package forge;

import java.util.Map;
import java.util.TreeMap;

import games.strategy.engine.data.GameSequence;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.properties.IEditableProperty;
import games.strategy.triplea.attachments.TerritoryAttachment;
import games.strategy.triplea.delegate.TechnologyDelegate;

/**
 * The turn as the engine plays it, for every variant: two rounds run without a move, recording
 * each step that ran (its round, player and delegate, its player's PUs before and after), so
 * which steps run, in what order, how often and for whom is what the engine did rather than what
 * the game file says; what each nation could gain by research; and the bids, entered in the game
 * options as players do.
 */
final class ScenarioTurn {
  private ScenarioTurn() {}

  /** The bid each Axis nation enters in the "bid" runs (any amount a player may type). */
  static final int BID = 7;

  static ScenarioJson.Obj steps(final String file) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    final ScenarioGame g = new ScenarioGame(file);
    out.put("victoryCityPoints", victoryCityPoints(g));
    final GameSequence sequence = g.data.getSequence();
    // The last step of the sequence in round 2: everything of rounds 1 and 2 has run before it.
    g.enter(sequence.getStep(sequence.size() - 1).getName(), 2);
    g.leave();
    out.put("steps", g.stepsRun);
    // What a successful research roll could give each nation: the engine's own list (its techs
    // not yet held, of its research categories).
    final Map<String, Integer> researchable = new TreeMap<>();
    for (final PlayerID player : g.data.getPlayerList().getPlayers()) {
      researchable.put(player.getName(), TechnologyDelegate.getAvailableTechs(player, g.data).size());
    }
    out.put("researchable", researchable);
    g.stop();
    out.put("bid", bidRound(file));
    return out;
  }

  /**
   * Two rounds with a bid of BID entered for every player whose game options have a bid: the
   * steps run (with each player's PUs) and whether the options took the amount. (Without a bid the
   * engine's game start skips the bid steps altogether.)
   */
  private static ScenarioJson.Obj bidRound(final String file) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    final ScenarioGame g = new ScenarioGame(file);
    final Map<String, Boolean> accepted = new TreeMap<>();
    for (final PlayerID player : g.data.getPlayerList().getPlayers()) {
      final IEditableProperty property = editable(g, player.getName() + " bid");
      if (property == null) {
        continue;
      }
      // What the game options dialog checks before it takes a number.
      final boolean valid = property.validate(BID);
      accepted.put(player.getName(), valid);
      if (valid) {
        property.setValue(BID);
      }
    }
    out.put("accepted", accepted);
    final GameSequence sequence = g.data.getSequence();
    g.enter(sequence.getStep(sequence.size() - 1).getName(), 2);
    g.leave();
    out.put("steps", g.stepsRun);
    g.stop();
    return out;
  }

  private static IEditableProperty editable(final ScenarioGame g, final String name) {
    for (final IEditableProperty property : g.data.getProperties().getEditableProperties()) {
      if (property.getName().equals(name)) {
        return property;
      }
    }
    return null;
  }

  /** Victory city points each player holds as the game starts. */
  static Map<String, Integer> victoryCityPoints(final ScenarioGame g) {
    final Map<String, Integer> points = new TreeMap<>();
    for (final Territory t : g.data.getMap().getTerritories()) {
      final TerritoryAttachment ta = TerritoryAttachment.get(t);
      if (ta != null && ta.getVictoryCity() > 0) {
        points.merge(t.getOwner().getName(), ta.getVictoryCity(), Integer::sum);
      }
    }
    return points;
  }
}
