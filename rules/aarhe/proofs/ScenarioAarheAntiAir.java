package forge;

import static forge.ScenarioNations.*;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.changefactory.ChangeFactory;
import games.strategy.triplea.attachments.TerritoryAttachment;
import games.strategy.triplea.delegate.DelegateFinder;

/**
 * AARHE anti-aircraft fire, unit type by unit type, on loaded dice. Each battle stands alone on
 * the map (its site's neighbours cleared) and lasts two rounds: the British attacker
 * misses in the first and hits with every die in the second; the German dice always miss; the
 * anti-aircraft dice show 2, 5 and 36 in turn (capped at the die's sides). So the anti-aircraft
 * hits tell the value hit at (1 in 36 hits none, 2 or 4 one, 5 two; 1 in 6 none, 2 one), the
 * dice tell how many fire, on which die, in which rounds, under which anti-aircraft type.
 */
final class ScenarioAarheAntiAir {
  private ScenarioAarheAntiAir() {}

  private static final int[] AA_FACES = {2, 5, 36};
  /** Units that fire at aircraft attacking their territory. */
  private static final String[] LAND_AA = {"aaGun", "factory", "factory5", "factory10"};
  /** Ships that fire at defending aircraft when they attack. */
  private static final String[] SHIP_AA = {"battleship", "carrier", "destroyer", "cruiser"};
  /** Aircraft in the large attack: more than any anti-aircraft unit's dice can hit. */
  private static final int MANY = 8;

  /** Two games (the map has too little room for every battle at once): guns, then raids and ships. */
  static ScenarioJson.Obj antiAir(final String file) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    final ScenarioJson.Obj moves = ScenarioJson.obj();
    final ScenarioJson.Obj results = ScenarioJson.obj();
    play(file, true, moves, results);
    play(file, false, moves, results);
    return out.put("moves", moves).put("battles", results);
  }

  /** One game of British battles: against each gun type (GUNS), or raids on complexes and ships attacking. */
  private static void play(final String file, final boolean guns, final ScenarioJson.Obj moves,
      final ScenarioJson.Obj results) throws Exception {
    final ScenarioGame g = new ScenarioGame(file);
    ScenarioPlay.enter(g, UK, "CombatMove", 1);
    final Set<Territory> used = new HashSet<>();
    // battle name -> {site, side of the aircraft, aircraft type, aircraft count}
    final Map<String, String[]> battles = new java.util.LinkedHashMap<>();
    // One aircraft: a dive bomber where the game has it (it must fly, not walk, to meet the guns).
    final String lone = g.data.getUnitTypeList().getUnitType("diveBomber") != null ? "diveBomber" : "fighter";
    for (final String gun : LAND_AA) {
      if (!guns || g.data.getUnitTypeList().getUnitType(gun) == null) {
        continue;
      }
      for (final int aircraft : new int[] {1, MANY}) {
        final String plane = aircraft == 1 ? lone : "fighter";
        final String name = gun + " defending against " + aircraft;
        final String[] pair = stage(g, used, false, (site, from) -> {
          g.addUnits(site, gun, GE, 1);
          g.addUnits(site, "infantry", GE, 1);
          g.addUnits(from, plane, UK, aircraft);
          return ScenarioPlay.move(g, UK, plane, aircraft, from, site);
        });
        moves.put(name, pair[2]);
        battles.put(name, new String[] {pair[0], UK, plane, String.valueOf(aircraft)});
      }
    }
    // A lone bomber raids each complex type (the weak AI bombs when it can).
    for (final String gun : LAND_AA) {
      if (guns || g.data.getUnitTypeList().getUnitType(gun) == null || !gun.startsWith("factory")) {
        continue;
      }
      final String name = gun + " raided by 1 bomber";
      final String[] pair = stage(g, used, false, (site, from) -> {
        g.addUnits(site, gun, GE, 1);
        g.addUnits(from, "bomber", UK, 1);
        return ScenarioPlay.move(g, UK, "bomber", 1, from, site);
      });
      moves.put(name, pair[2]);
      battles.put(name, new String[] {pair[0], UK, "bomber", "1"});
    }
    for (final String ship : SHIP_AA) {
      if (guns || g.data.getUnitTypeList().getUnitType(ship) == null) {
        continue;
      }
      final String name = ship + " attacking 1 fighter";
      final String[] pair = stage(g, used, true, (site, from) -> {
        g.addUnits(site, "fighter", GE, 1);
        g.addUnits(from, ship, UK, 1);
        return ScenarioPlay.move(g, UK, ship, 1, from, site);
      });
      moves.put(name, pair[2]);
      battles.put(name, new String[] {pair[0], GE, "fighter", "1"});
    }
    g.loadDice(new TwoRounds());
    // Raids are flown as the battle step starts; the other battles are fought one by one.
    final int start = g.rolls.size();
    ScenarioPlay.enter(g, UK, "Battle", 1);
    for (final Map.Entry<String, String[]> battle : battles.entrySet()) {
      final String site = battle.getValue()[0];
      final boolean pending = DelegateFinder.battleDelegate(g.data).getBattleTracker().getPendingBattleSites(false)
          .contains(g.territory(site));
      final ScenarioJson.Obj result = ScenarioJson.obj();
      result.put("fight", pending ? String.valueOf(g.asPlayer(() -> ScenarioPlay.fight(g, site))) : "not pending");
      result.put("antiAir", antiAirRolls(g, start, site));
      result.put("britishRolls", ScenarioPlay.rollsSince(g, start, UK + " roll dice for").stream()
          .filter(r -> String.valueOf(r.get("annotation")).contains(" in " + site + ",")).count());
      final String[] v = battle.getValue();
      result.put("aircraftLost", Integer.parseInt(v[3]) - g.count(site, v[2], v[1].equals(UK) ? UK : GE));
      results.put(battle.getKey(), result);
    }
    g.stop();
  }

  /** Anti-aircraft dice rolled since FROM in SITE: their type (from the roll's title), sides and count. */
  private static List<ScenarioJson.Obj> antiAirRolls(final ScenarioGame g, final int from, final String site) {
    final List<ScenarioJson.Obj> found = new ArrayList<>();
    for (final ScenarioJson.Obj roll : g.rolls.subList(from, g.rolls.size())) {
      final String title = String.valueOf(roll.get("annotation"));
      if (title.startsWith("Roll ") && title.endsWith(" in " + site)) {
        found.add(ScenarioJson.obj().put("type", title.substring(5, title.length() - site.length() - 4))
            .put("sides", roll.get("sides")).put("count", roll.get("count")));
      }
    }
    return found;
  }

  interface Setup {
    String apply(String site, String from) throws Exception;
  }

  /**
   * A battle site (a sea zone if AT_SEA, else land) and the space next to it the British come
   * from, the site cleared with its neighbours, both given to the Germans and the British, then set
   * up and moved by SETUP. The first candidate whose move the engine accepts is kept:
   * {site, from, move result}.
   */
  static String[] stage(final ScenarioGame g, final Set<Territory> used, final boolean atSea,
      final Setup setup) throws Exception {
    String last = "no space for the battle";
    for (final Territory site : g.data.getMap().getTerritories()) {
      if (!usable(site, used, atSea)) {
        continue;
      }
      for (final Territory from : g.data.getMap().getNeighbors(site)) {
        if (!usable(from, used, atSea)) {
          continue;
        }
        used.add(site);
        used.add(from);
        used.addAll(g.data.getMap().getNeighbors(site));
        clear(g, site);
        for (final Territory n : g.data.getMap().getNeighbors(site)) {
          clear(g, n);
        }
        if (!atSea) {
          g.setOwner(site.getName(), GE);
          g.setOwner(from.getName(), UK);
        }
        last = String.valueOf(setup.apply(site.getName(), from.getName()));
        if (last.equals("null")) {
          return new String[] {site.getName(), from.getName(), last};
        }
        break;
      }
    }
    throw new IllegalStateException("no battle could be set up: " + last);
  }

  static boolean usable(final Territory t, final Set<Territory> used, final boolean atSea) {
    if (used.contains(t) || t.isWater() != atSea) {
      return false;
    }
    if (atSea) {
      return true;
    }
    // Soviet land is closed to the British (xenophobia) for the whole first round.
    final TerritoryAttachment ta = TerritoryAttachment.get(t);
    return !t.getOwner().isNull() && !t.getOwner().getName().equals(RU) && ta != null && !ta.getIsImpassable();
  }

  /** Removes every unit from T. */
  private static void clear(final ScenarioGame g, final Territory t) {
    final List<Unit> there = new ArrayList<>(t.getUnits().getUnits());
    if (!there.isEmpty()) {
      g.change(ChangeFactory.removeUnits(t, there));
    }
  }

  /**
   * The loaded dice: anti-aircraft dice show AA_FACES in turn; each battle's first British roll
   * misses and its later ones hit; German dice miss.
   */
  static final class TwoRounds implements ScenarioGame.DiceScript {
    private final Map<String, Integer> britishRolls = new HashMap<>();

    @Override
    public int[] faces(final int sides, final int count, final String annotation) {
      final int[] faces = new int[count];
      final boolean anti = annotation.startsWith("Roll ");
      final boolean british = annotation.startsWith(UK + " roll dice for ") && annotation.contains(", round ");
      final String site = british
          ? annotation.substring(annotation.lastIndexOf(" in ") + 4, annotation.lastIndexOf(", round ")) : "";
      final boolean hit = british && britishRolls.merge(site, 1, Integer::sum) > 1;
      for (int i = 0; i < count; i++) {
        faces[i] = anti ? Math.min(AA_FACES[i % AA_FACES.length], sides) : hit ? 1 : sides;
      }
      return faces;
    }
  }
}
