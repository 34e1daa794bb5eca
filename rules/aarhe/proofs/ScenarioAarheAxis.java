package forge;

import static forge.ScenarioNations.*;

/**
 * AARHE Axis co-operation with Italy: Japan and Italy are allies whose land units may not enter
 * each other's land (the engine's co-belligerent relationship), as Japan and Germany are.
 */
final class ScenarioAarheAxis {
  private ScenarioAarheAxis() {}

  static ScenarioJson.Obj italy(final String file) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    final ScenarioGame g = new ScenarioGame(file);
    ScenarioPlay.enter(g, JP, "NonCombatMove", 1);
    out.put("relationItalyJapan",
        g.data.getRelationshipTracker().getRelationshipType(g.player(IT), g.player(JP)).getName());
    // A Japanese infantry in German Eastern Europe tries to walk into the Italian Balkans.
    g.addUnits("Eastern Europe", "infantry", JP, 1);
    out.put("japaneseIntoItaly", String.valueOf(ScenarioPlay.move(g, JP, "infantry", 1, "Eastern Europe", "Balkans")));
    g.stop();
    return out;
  }
}
