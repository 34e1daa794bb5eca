package forge;

import static forge.ScenarioNations.*;

import java.util.ArrayList;
import java.util.List;

import games.strategy.engine.data.UnitType;
import games.strategy.triplea.delegate.AbstractPlaceDelegate;

import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.changefactory.ChangeFactory;
import games.strategy.triplea.attachments.TerritoryAttachment;
import games.strategy.triplea.delegate.Matches;

/** AARHE variable complex costs: a complex type per price, each placed only where its price applies. */
final class ScenarioAarheComplexes {
  private ScenarioAarheComplexes() {}

  // Land territories the Germans are given for the test; one of each kind is picked by its
  // victory city value in the game at hand (the revisions value the cities differently).
  private static final String[] CANDIDATES = {"Western Europe", "Eastern Europe", "Ukraine S.S.R.", "Norway",
      "West Russia", "Kazakh S.S.R.", "Archangel", "Algeria", "Finland Norway", "Trans-Jordan", "Persia"};

  /**
   * In ROUND's German turn: the price of each complex type, and each type placed in a city of 2+
   * points, a 1-point city and a territory without a victory city.
   */
  static ScenarioJson.Obj complexes(final ScenarioGame g, final int round) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    final String major = pick(g, 2, 99);
    final String minor = pick(g, 1, 1);
    final String plain = pick(g, 0, 0);
    out.put("places", ScenarioJson.obj().put("major", major).put("minor", minor).put("plain", plain));
    ScenarioPlay.enter(g, GE, "Purchase", round);
    g.change(ChangeFactory.changeResourcesChange(g.player(GE), g.data.getResourceList().getResource("PUs"), 60));
    for (final String t : new String[] {major, minor, plain}) {
      final List<Unit> there = new ArrayList<>(g.territory(t).getUnits().getUnits());
      if (!there.isEmpty()) {
        g.change(ChangeFactory.removeUnits(g.territory(t), there));
      }
      g.setOwner(t, GE);
    }
    final ScenarioJson.Obj prices = ScenarioJson.obj();
    for (final String rule : new String[] {"buyFactory", "buyFactory5", "buyFactory10"}) {
      final int before = g.pus(GE);
      final String bought = ScenarioPlay.buy(g, rule, 1);
      prices.put(rule, "null".equals(String.valueOf(bought)) ? before - g.pus(GE) : -1);
    }
    out.put("prices", prices);
    ScenarioPlay.enter(g, GE, "Place", round);
    // Every wrong place first: a complex placed by mistake would block the next attempt there.
    final String[][] attempts = {
        {"factory", major}, {"factory", minor}, {"factory5", minor}, {"factory5", plain},
        {"factory10", major}, {"factory10", plain}, {"factory", plain}, {"factory5", major}, {"factory10", minor}};
    final ScenarioJson.Obj placed = ScenarioJson.obj();
    for (final String[] attempt : attempts) {
      placed.put(attempt[0] + " in " + attempt[1], String.valueOf(ScenarioPlay.place(g, attempt[0], 1, attempt[1])));
    }
    out.put("placed", placed);
    return out;
  }

  /** The first candidate worth LOW..HIGH victory city points that holds no complex. */
  private static String pick(final ScenarioGame g, final int low, final int high) {
    for (final String name : CANDIDATES) {
      final Territory t = g.data.getMap().getTerritory(name);
      if (t == null || t.isWater() || t.getUnits().anyMatch(Matches.unitCanProduceUnits())) {
        continue;
      }
      final TerritoryAttachment ta = TerritoryAttachment.get(t);
      final int points = ta == null ? 0 : ta.getVictoryCity();
      if (points >= low && points <= high && (ta == null || !ta.getIsImpassable())) {
        return name;
      }
    }
    throw new IllegalStateException("no candidate territory worth " + low + ".." + high + " victory city points");
  }

  /**
   * Where each complex type may be placed: every land territory but the neutrals is given to the
   * Germans in their purchase (its complexes taken off), one complex of each type is handed to them, and in
   * their placement each type is tried in each territory, every accepted placement undone. Each
   * territory's victory city points, production and whether it held a complex go with it.
   */
  static ScenarioJson.Obj places(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final ScenarioJson.Obj out = ScenarioJson.obj();
    ScenarioPlay.enter(g, GE, "Purchase", 1);
    final List<Territory> lands = new ArrayList<>();
    final ScenarioJson.Obj facts = ScenarioJson.obj();
    for (final Territory t : g.data.getMap().getTerritories()) {
      final TerritoryAttachment ta = TerritoryAttachment.get(t);
      if (t.isWater() || t.getOwner().isNull() || ta == null || ta.getIsImpassable()) {
        continue;
      }
      lands.add(t);
      g.setOwner(t.getName(), GE);
      facts.put(t.getName(), ScenarioJson.obj().put("victoryCity", ta.getVictoryCity())
          .put("production", ta.getProduction()).put("complex", t.getUnits().anyMatch(Matches.unitCanProduceUnits())));
      // A complex destroyed in the game (scorched earth) leaves the place open again.
      final List<Unit> standing = t.getUnits().getMatches(Matches.unitCanProduceUnits());
      if (!standing.isEmpty()) {
        g.change(ChangeFactory.removeUnits(t, standing));
      }
    }
    out.put("lands", facts);
    final List<String> complexes = new ArrayList<>();
    for (final UnitType type : g.data.getUnitTypeList()) {
      if (type.getName().startsWith("factory")) {
        complexes.add(type.getName());
        g.change(ChangeFactory.addUnits(g.player(GE), type.create(1, g.player(GE))));
      }
    }
    ScenarioPlay.enter(g, GE, "Place", 1);
    final AbstractPlaceDelegate delegate = g.delegate();
    final ScenarioJson.Obj placeable = ScenarioJson.obj();
    for (final String complex : complexes) {
      final List<String> where = new ArrayList<>();
      for (final Territory t : lands) {
        if (ScenarioPlay.place(g, complex, 1, t.getName()) == null) {
          where.add(t.getName());
          delegate.undoMove(delegate.getMovesMade().size() - 1);
        }
      }
      placeable.put(complex, where);
    }
    out.put("placeable", placeable);
    g.stop();
    return out;
  }
}
