package forge;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

import games.strategy.engine.data.IAttachment;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.changefactory.ChangeFactory;
import games.strategy.triplea.attachments.TriggerAttachment;
import games.strategy.triplea.attachments.UserActionAttachment;
import games.strategy.triplea.delegate.Matches;
import games.strategy.util.Match;
import games.strategy.util.Tuple;

/**
 * AARHE scorched earth for every nation: in its user actions step of round 1 a nation is offered
 * to destroy its complex in a territory exactly when it has one there (at the start, with one more
 * complex in each other territory alone, and with one everywhere). The territory of an action
 * is the one its activated trigger removes units from, so no action is known by its name.
 */
final class ScenarioAarheScorch {
  private ScenarioAarheScorch() {}

  static ScenarioJson.Obj scorch(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final Map<Integer, String> nationsInTurnOrder = new TreeMap<>();
    for (final PlayerID p : g.data.getPlayerList().getPlayers()) {
      if (!scorchActions(g, p).isEmpty()) {
        final String step = ScenarioPlay.stepOf(g, p.getName(), "UserActions");
        nationsInTurnOrder.put(ScenarioPlay.indexOf(g, step), p.getName());
      }
    }
    final ScenarioJson.Obj out = ScenarioJson.obj();
    for (final String nation : nationsInTurnOrder.values()) {
      ScenarioPlay.enter(g, nation, "UserActions", 1);
      final PlayerID player = g.player(nation);
      final Map<String, String> territoryByAction = scorchActions(g, player);
      final ScenarioJson.Obj facts = ScenarioJson.obj();
      facts.put("actionTerritories", new TreeSet<>(territoryByAction.values()));
      facts.put("ownComplexes", complexes(g, player, territoryByAction.values()));
      facts.put("offered", offered(g, territoryByAction));
      // A complex of the nation's own in one more territory alone: its action is offered beside
      // those of the nation's complexes (an action testing another territory's complex shows).
      final Map<String, Object> withOne = new TreeMap<>();
      for (final String territory : new TreeSet<>(territoryByAction.values())) {
        if (complexes(g, player, List.of(territory)).isEmpty()) {
          final List<Unit> complex = g.addUnits(territory, "factory", nation, 1);
          withOne.put(territory, offered(g, territoryByAction));
          g.change(ChangeFactory.removeUnits(g.territory(territory), complex));
        }
      }
      facts.put("offeredWithOneMoreComplex", withOne);
      // A complex of the nation's own in every such territory: each action is offered.
      final Map<String, List<Unit>> added = new TreeMap<>();
      for (final String territory : new TreeSet<>(territoryByAction.values())) {
        if (complexes(g, player, List.of(territory)).isEmpty()) {
          added.put(territory, g.addUnits(territory, "factory", nation, 1));
        }
      }
      facts.put("offeredWithAComplexEverywhere", offered(g, territoryByAction));
      for (final Map.Entry<String, List<Unit>> e : added.entrySet()) {
        g.change(ChangeFactory.removeUnits(g.territory(e.getKey()), e.getValue()));
      }
      out.put(nation, facts);
    }
    g.stop();
    return out;
  }

  /** The territories of the actions offered now, sorted. */
  private static List<String> offered(final ScenarioGame g, final Map<String, String> territoryByAction) {
    final TreeSet<String> out = new TreeSet<>();
    for (final String action : g.validActions()) {
      if (territoryByAction.containsKey(action)) {
        out.add(territoryByAction.get(action));
      }
    }
    return new ArrayList<>(out);
  }

  /** Of TERRITORIES, those where PLAYER has a complex (a unit that builds), sorted. */
  private static List<String> complexes(final ScenarioGame g, final PlayerID player,
      final java.util.Collection<String> territories) {
    final TreeSet<String> out = new TreeSet<>();
    for (final String name : territories) {
      final Territory t = g.territory(name);
      if (t.getUnits().anyMatch(Match.allOf(Matches.unitIsOwnedBy(player), Matches.unitCanProduceUnits()))) {
        out.add(name);
      }
    }
    return new ArrayList<>(out);
  }

  /** PLAYER's user actions that destroy units, by name, with the territory they destroy them in. */
  private static Map<String, String> scorchActions(final ScenarioGame g, final PlayerID player) {
    final Map<String, String> out = new TreeMap<>();
    for (final UserActionAttachment action : UserActionAttachment.getUserActionAttachments(player)) {
      for (final Tuple<String, String> activated : action.getActivateTrigger()) {
        final TriggerAttachment trigger = trigger(g, activated.getFirst());
        if (trigger != null && !trigger.getRemoveUnits().isEmpty()) {
          out.put(action.getName(), trigger.getRemoveUnits().keySet().iterator().next().getName());
        }
      }
    }
    return out;
  }

  private static TriggerAttachment trigger(final ScenarioGame g, final String name) {
    for (final PlayerID p : g.data.getPlayerList().getPlayers()) {
      final IAttachment a = p.getAttachment(name);
      if (a instanceof TriggerAttachment) {
        return (TriggerAttachment) a;
      }
    }
    return null;
  }
}
