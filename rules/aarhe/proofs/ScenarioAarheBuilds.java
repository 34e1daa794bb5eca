package forge;

import static forge.ScenarioNations.*;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import games.strategy.engine.data.Territory;

/**
 * AARHE's national builds, each converted on its own: in a game of their own, a nation's built
 * units are put in one of their places at its placement, one tier at a time (1, then 2, then 3
 * Patriots), each place of a build alone, and all of it again in later turns; what each
 * placement's end converts, in every place of the build, is reported. A conversion that watches
 * another tier, another place or another unit, or that converts once only, shows.
 */
final class ScenarioAarheBuilds {
  private ScenarioAarheBuilds() {}

  /** One build: who builds it, its unit, what it becomes, and its places. */
  private static final class Build {
    final String player;
    final String unit;
    final String becomes;
    final String[] places;

    Build(final String player, final String unit, final String becomes, final String... places) {
      this.player = player;
      this.unit = unit;
      this.becomes = becomes;
      this.places = places;
    }
  }

  private static final Build[] BUILDS = {
    new Build(JP, "patriotInfantry", "infantry", "Japan"),
    new Build(RU, "t34Armour", "armour", "Russia"),
    new Build(UK, "spitfire", "fighter", "United Kingdom"),
    new Build(US, "essexCarrier", "carrier", "10 Sea Zone", "54 Sea Zone", "55 Sea Zone"),
    new Build(GE, "typeVIISubmarine", "submarine", "5 Sea Zone"),
    new Build(IT, "regiaBattleship", "battleship", "14 Sea Zone"),
    new Build(IT, "regiaDestroyer", "destroyer", "14 Sea Zone"),
    new Build(IT, "regiaCarrier", "carrier", "14 Sea Zone"),
  };

  /**
   * What is put where, turn after turn: (build index, place, how many), by nation. Each tier of a
   * build alone (1, then 2, then 3 Patriots), each of its places alone; then all of it again, a
   * turn later (a conversion of one use shows), the full tier once more.
   */
  private static Map<String, List<int[]>> tries(final ScenarioGame g) {
    final Map<String, List<int[]>> once = new LinkedHashMap<>();
    final Map<String, List<int[]>> again = new LinkedHashMap<>();
    for (int b = 0; b < BUILDS.length; b++) {
      final Build build = BUILDS[b];
      if (g.unitType(build.unit) == null || g.player(build.player) == null) {
        continue;
      }
      final List<int[]> first = once.computeIfAbsent(build.player, k -> new ArrayList<>());
      final List<int[]> second = again.computeIfAbsent(build.player, k -> new ArrayList<>());
      final int tiers = build.unit.equals("patriotInfantry") ? 3 : build.unit.equals("t34Armour") ? 2 : 1;
      for (int n = 1; n <= tiers; n++) {
        first.add(new int[] {b, 0, n});
      }
      second.add(new int[] {b, 0, tiers});
      for (int p = 1; p < build.places.length; p++) {
        if (g.territory(build.places[p]) != null) {
          first.add(new int[] {b, p, 1});
          second.add(new int[] {b, p, 1});
        }
      }
    }
    for (final Map.Entry<String, List<int[]>> e : once.entrySet()) {
      e.getValue().addAll(again.get(e.getKey()));
    }
    return once;
  }

  static ScenarioJson.Obj conversions(final String file) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    final Map<String, List<int[]>> tries = tries(g);
    final Map<Integer, String> inTurnOrder = new TreeMap<>();
    for (final String nation : tries.keySet()) {
      inTurnOrder.put(ScenarioPlay.indexOf(g, ScenarioPlay.stepOf(g, nation, "Place")), nation);
    }
    final ScenarioJson.Obj out = ScenarioJson.obj();
    final Map<String, List<Object>> byNation = new TreeMap<>();
    int rounds = 0;
    for (final List<int[]> t : tries.values()) {
      rounds = Math.max(rounds, t.size());
    }
    for (int turn = 0; turn < rounds; turn++) {
      final int round = 2 + turn; // after the opening round, where some nations place twice
      for (final String nation : inTurnOrder.values()) {
        if (turn >= tries.get(nation).size()) {
          continue;
        }
        final int[] t = tries.get(nation).get(turn);
        final Build build = BUILDS[t[0]];
        final String at = build.places[t[1]];
        ScenarioPlay.enter(g, nation, "Place", round);
        final Map<String, Integer> before = counts(g, build);
        g.addUnits(at, build.unit, nation, t[2]);
        g.leave();
        final Map<String, Integer> after = counts(g, build);
        final ScenarioJson.Obj gained = ScenarioJson.obj();
        for (final String key : after.keySet()) {
          gained.put(key, after.get(key) - before.get(key));
        }
        byNation.computeIfAbsent(nation, k -> new ArrayList<>()).add(ScenarioJson.obj()
            .put("round", round).put("unit", build.unit).put("at", at).put("count", t[2])
            .put("becomes", build.becomes).put("gained", gained));
      }
    }
    out.put("converted", byNation);
    out.put("placedOffItsPlaces", placedOffItsPlaces(g, 2 + rounds));
    g.stop();
    return out;
  }

  /**
   * A Type VII placed in sea zone 1, beside a German complex in Eastern Canada: refused, for the
   * build's units go to its own place only; a place list naming that zone lets it through to the
   * engine's next test, which says another thing.
   */
  private static ScenarioJson.Obj placedOffItsPlaces(final ScenarioGame g, final int round) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    if (g.unitType("typeVIISubmarine") == null) {
      return out;
    }
    ScenarioPlay.enter(g, GE, "Place", round);
    g.setOwner("Eastern Canada", GE);
    final List<games.strategy.engine.data.Unit> complex = g.addUnits("Eastern Canada", "factory", GE, 1);
    final List<games.strategy.engine.data.Unit> typeVII = g.unitType("typeVIISubmarine").create(1, g.player(GE));
    g.change(games.strategy.engine.data.changefactory.ChangeFactory.addUnits(g.player(GE), typeVII));
    final games.strategy.triplea.delegate.AbstractPlaceDelegate delegate = g.delegate();
    out.put("typeVIISubmarine", String.valueOf(delegate.placeUnits(typeVII, g.territory("1 Sea Zone"),
        games.strategy.triplea.delegate.remote.IAbstractPlaceDelegate.BidMode.NOT_BID)));
    g.change(games.strategy.engine.data.changefactory.ChangeFactory.removeUnits(g.territory("Eastern Canada"), complex));
    g.setOwner("Eastern Canada", UK);
    return out;
  }

  /** The build's units and what they become, in each of its places: "place/unit" -> count. */
  private static Map<String, Integer> counts(final ScenarioGame g, final Build build) {
    final Map<String, Integer> counts = new TreeMap<>();
    for (final String place : build.places) {
      final Territory t = g.territory(place);
      if (t != null) {
        counts.put(place + "/" + build.unit, g.count(place, build.unit, build.player));
        counts.put(place + "/" + build.becomes, g.count(place, build.becomes, build.player));
      }
    }
    return counts;
  }
}
