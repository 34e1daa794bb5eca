package forge;

import games.strategy.triplea.attachments.TechAttachment;

/** AARHE government in exile for every nation: buying, income and research without the capital. */
final class ScenarioAarheExile {
  private ScenarioAarheExile() {}

  /** Each nation, its capital, and the enemy that holds it in this scenario. */
  private static final String[][] CAPITALS = {
      {"Germans", "Germany", "Russians"}, {"Japanese", "Japan", "Americans"},
      {"Italians", "Southern Europe", "British"}, {"Russians", "Russia", "Germans"},
      {"British", "United Kingdom", "Germans"}, {"Americans", "Eastern United States", "Japanese"}};

  /**
   * A game of its own: every capital falls in round 1 after the last nation has bought; in round 2
   * each nation buys an artillery, collects its income and prices its research without it; in
   * round 3, its capital retaken, it prices its research as in round 1.
   */
  static ScenarioJson.Obj exile(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    // Round 1: every nation holds its capital, so it may research at the usual price.
    final ScenarioJson.Obj holding = ScenarioJson.obj();
    for (final String[] c : CAPITALS) {
      ScenarioPlay.enter(g, c[0], "Purchase", 1);
      holding.put(c[0], TechAttachment.get(g.player(c[0])).getTechCost());
    }
    out.put("techCostHoldingCapital", holding);
    ScenarioPlay.enter(g, "Americans", "Tech", 1);
    final ScenarioJson.Obj nations = ScenarioJson.obj();
    for (final String[] c : CAPITALS) {
      g.setOwner(c[1], c[2]);
    }
    for (final String[] c : CAPITALS) {
      final ScenarioJson.Obj nation = ScenarioJson.obj();
      ScenarioPlay.enter(g, c[0], "Purchase", 2);
      nation.put("capitalOwner", g.territory(c[1]).getOwner().getName());
      nation.put("techCost", TechAttachment.get(g.player(c[0])).getTechCost());
      final int pus = g.pus(c[0]);
      nation.put("buy", String.valueOf(ScenarioPlay.buy(g, "buyArtillery", 1)));
      nation.put("spent", pus - g.pus(c[0]));
      final int beforeIncome = g.pus(c[0]);
      ScenarioPlay.enter(g, c[0], "EndTurn", 2);
      nation.put("income", g.pus(c[0]) - beforeIncome);
      nations.put(c[0], nation);
    }
    out.put("nations", nations);
    // Every capital is retaken before round 3: research costs the usual price again.
    for (final String[] c : CAPITALS) {
      g.setOwner(c[1], c[0]);
    }
    final ScenarioJson.Obj retaken = ScenarioJson.obj();
    for (final String[] c : CAPITALS) {
      ScenarioPlay.enter(g, c[0], "Purchase", 3);
      retaken.put(c[0], TechAttachment.get(g.player(c[0])).getTechCost());
    }
    out.put("techCostCapitalRetaken", retaken);
    g.stop();
    return out;
  }
}
