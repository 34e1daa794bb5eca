package forge;

import static forge.ScenarioNations.*;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Route;
import games.strategy.engine.data.Territory;
import games.strategy.triplea.delegate.MoveValidator;
import games.strategy.triplea.delegate.dataObjects.MoveValidationResult;

/**
 * AARHE's uneasy alliances in the engine: Stalinist xenophobia (the Western Allies kept out of
 * Soviet land until the Axis hold Moscow) and the Axis distrust ending when the Allies take Japan.
 */
final class ScenarioAarheAlliances {
  private ScenarioAarheAlliances() {}

  private static final String[] WESTERN_ALLIES = {"British", US};

  /**
   * The land territories the British and the Americans may not move into or over, at the start
   * and once the Axis hold Russia at the start of a British turn.
   */
  static ScenarioJson.Obj xenophobia(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    ScenarioPlay.enter(g, GE, "Purchase", 1);
    out.put("restrictedAtStart", restricted(g));
    // After the Soviet turn (whose units in Russia would take it back).
    ScenarioPlay.enter(g, "British", "Purchase", 1);
    g.setOwner("Russia", GE);
    ScenarioPlay.enter(g, "British", "CombatMove", 1);
    out.put("restrictedOnceAxisHoldRussia", restricted(g));

    g.stop();
    return out;
  }

  /**
   * The Allies take Japan before a German turn: from that turn Germany and Italy are Japan's
   * ordinary allies. A Japanese fighter may not fly over German land before.
   */
  static ScenarioJson.Obj distrust(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    ScenarioPlay.enter(g, JP, "NonCombatMove", 1);
    g.addUnits("Eastern Europe", "fighter", JP, 1);
    out.put("japaneseFighterIntoGermany",
        String.valueOf(ScenarioPlay.move(g, JP, "fighter", 1, "Eastern Europe", "Germany")));
    out.put("relationsBefore", relations(g));
    ScenarioPlay.enter(g, GE, "Purchase", 2);
    g.setOwner("Japan", US);
    ScenarioPlay.enter(g, GE, "CombatMove", 2);
    out.put("relationsAfterJapanFalls", relations(g));
    g.stop();
    return out;
  }

  private static ScenarioJson.Obj relations(final ScenarioGame g) {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    for (final String partner : new String[] {GE, IT}) {
      if (g.player(partner) != null) {
        out.put(partner, g.data.getRelationshipTracker().getRelationshipType(g.player(partner), g.player(JP)).getName());
      }
    }
    return out;
  }

  /** For each Western Ally, the land territories the engine's move validation refuses it. */
  private static ScenarioJson.Obj restricted(final ScenarioGame g) throws Exception {
    // The check every move makes (MoveValidator.validateBasic) on each territory of the route.
    final Method check = MoveValidator.class.getDeclaredMethod("validateMovementRestrictedByTerritory",
        GameData.class, Route.class, PlayerID.class, MoveValidationResult.class);
    check.setAccessible(true);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    for (final String ally : WESTERN_ALLIES) {
      final List<String> refused = new ArrayList<>();
      for (final Territory t : g.data.getMap().getTerritories()) {
        if (t.isWater()) {
          continue;
        }
        final MoveValidationResult result =
            (MoveValidationResult) check.invoke(null, g.data, new Route(t), g.player(ally), new MoveValidationResult());
        if (result.getError() != null) {
          refused.add(t.getName());
        }
      }
      refused.sort(null);
      out.put(ally, refused);
    }
    return out;
  }
}
