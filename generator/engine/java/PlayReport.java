package forge;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.ProductionFrontier;
import games.strategy.engine.data.Resource;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.UnitType;
import games.strategy.engine.delegate.IDelegate;
import games.strategy.triplea.attachments.PoliticalActionAttachment;
import games.strategy.triplea.attachments.TerritoryAttachment;
import games.strategy.triplea.attachments.UserActionAttachment;
import games.strategy.triplea.delegate.AbstractEndTurnDelegate;
import games.strategy.triplea.delegate.AbstractPlaceDelegate;
import games.strategy.triplea.delegate.BidPlaceDelegate;
import games.strategy.triplea.delegate.BidPurchaseDelegate;
import games.strategy.triplea.delegate.EndRoundDelegate;
import games.strategy.triplea.delegate.NoPUPurchaseDelegate;
import games.strategy.triplea.delegate.PurchaseDelegate;
import games.strategy.triplea.delegate.dataObjects.BattleRecord;
import games.strategy.triplea.delegate.dataObjects.BattleRecords;
import games.strategy.triplea.util.TuvUtils;
import games.strategy.util.IntegerMap;

/**
 * What one play run saw, rendered as the "report" object of the play output:
 *
 * <pre>
 * {file, ai, seed, roundsRequested, roundsCompleted, gameOver, winners, stoppedAt,
 *  parse {ms, error, saxErrors}, steps (per round),
 *  players [{name, productionFrontier, frontierRules, purchaseSteps, placeSteps, steps, alliances}],
 *  start {player: SNAPSHOT}, rounds [{round, ms, players {player: SNAPSHOT}}],
 *  end {round, players {player: SNAPSHOT}} (the board when the game ended inside a round, else null),
 *  purchaseSteps [{round, step, player, pusBefore, pusAfter}], purchases [{round, step, player, units}],
 *  moves [{round, step, player, units, from, to}], placements [{round, step, player, territory, units}],
 *  unplaced [{round, step, player, units}], ownerChanges [{round, step, player, territory, from, to}],
 *  battles [{round, territory, type, attacker, defender, result, attackerLostTuv, defenderLostTuv}],
 *  actionsTaken [{round, step, player, action, kind (user|political), pusSpent, error}] (see ActionPolicy),
 *  actionsOpen [{round, step, player, action}] (each action open at a step where the policy acted),
 *  ruleActivity [{round, step, player, attachment, owner, kind, source, gives}] (triggers fired and national
 *  objectives paid, see RuleActivity; game.rules lists every such attachment, game.switches the properties they need),
 *  deliveries [{unit, player, granted, at, fate (delivered|lost|waiting), round, where, trail}] (DeliveryLedger),
 *  purchaseReplans [{round, step, player, refused, asked {unit: n}, bought {unit: n}}] (see ActionLog),
 *  placementReplans [{round, step, player, refused, asked (territory), placed (territory), units {unit: n}}],
 *  errors [ENTRY], warnings [ENTRY], timings {parseMs, setupMs, totalMs, cpuMs, rounds [ms], byDelegate {class: ms}},
 *  peakHeapMb}
 * SNAPSHOT = {resources {name: n}, income, territories, victoryCities, tuv, units {type: n}, unplaced {type: n}}
 * ENTRY = {channel, message, detail, round, step, player}
 * </pre>
 */
final class PlayReport {
  final ActionLog actions = new ActionLog();
  final RuleActivity rules = new RuleActivity();
  String parseError;
  String saxErrors = "[]";
  long parseMs;
  long setupMs;
  long totalMs;
  String stoppedAt;
  boolean gameOver;

  private final String path;
  private final int rounds;
  private final String ai;
  private final long seed;
  private final List<String> actionsTaken;
  private final List<String> actionsOpen;
  private final DeliveryLedger deliveries;
  private final Json.Obj game = new Json.Obj();
  private String start;
  private String end = Json.NULL;
  private final List<String> roundReports = new ArrayList<>();
  private final List<String> roundMs = new ArrayList<>();
  private final List<String> purchaseSteps = new ArrayList<>();
  private final List<String> unplaced = new ArrayList<>();
  private final List<String> ownerChanges = new ArrayList<>();
  private final Map<String, Long> delegateNanos = new TreeMap<>();
  private final Map<Territory, PlayerID> owners = new HashMap<>();
  private int pusBefore;

  PlayReport(final String path, final int rounds, final String ai, final long seed, final List<String> actionsTaken,
      final List<String> actionsOpen, final DeliveryLedger deliveries) {
    this.deliveries = deliveries;
    this.path = path;
    this.rounds = rounds;
    this.ai = ai;
    this.seed = seed;
    this.actionsTaken = actionsTaken;
    this.actionsOpen = actionsOpen;
  }

  /** Static facts the checks need to explain a failure (frontiers, which steps buy and place). */
  void describeGame(final GameData data) {
    final List<String> players = new ArrayList<>();
    for (final PlayerID p : data.getPlayerList().getPlayers()) {
      final ProductionFrontier frontier = p.getProductionFrontier();
      final List<String> buy = new ArrayList<>();
      final List<String> place = new ArrayList<>();
      int steps = 0;
      for (final GameStep s : data.getSequence()) {
        steps += p.equals(s.getPlayerId()) ? 1 : 0;
        if (p.equals(s.getPlayerId()) && isPurchase(s.getDelegate())) {
          buy.add(Json.str(s.getName()));
        } else if (p.equals(s.getPlayerId()) && isPlace(s.getDelegate())) {
          place.add(Json.str(s.getName()));
        }
      }
      players.add(new Json.Obj().putStr("name", p.getName())
          .putStr("productionFrontier", frontier == null ? null : frontier.getName())
          .putNum("frontierRules", frontier == null ? 0 : frontier.getRules().size())
          .put("purchaseSteps", Json.arr(buy)).put("placeSteps", Json.arr(place)).putNum("steps", steps)
          .put("alliances", alliances(data, p)).toString());
    }
    game.putStr("name", data.getGameName()).put("players", Json.arr(players))
        .putNum("steps", data.getSequence().size()).put("actions", actions(data)).put("unitCosts", unitCosts(data))
        .put("rules", rules.describe(data)).put("switches", RuleActivity.switches(data));
  }

  /** {player: {unit type: PUs}}: the prices the engine counts TUV with, as the game starts. */
  private static String unitCosts(final GameData data) {
    final Map<String, String> out = new TreeMap<>();
    for (final PlayerID p : data.getPlayerList().getPlayers()) {
      final Map<String, Integer> costs = new TreeMap<>();
      final IntegerMap<UnitType> prices = TuvUtils.getCostsForTuv(p, data);
      for (final UnitType type : prices.keySet()) {
        costs.put(type.getName(), prices.getInt(type));
      }
      out.put(p.getName(), ActionLog.counts(costs));
    }
    return Json.obj(out);
  }

  /** Every user and political action of the game, {player: [name]}: what a policy could take. */
  private static String actions(final GameData data) {
    final Map<String, String> out = new TreeMap<>();
    for (final PlayerID p : data.getPlayerList().getPlayers()) {
      final List<String> names = new ArrayList<>();
      UserActionAttachment.getUserActionAttachments(p).forEach(a -> names.add(a.getName()));
      PoliticalActionAttachment.getPoliticalActionAttachments(p).forEach(a -> names.add(a.getName()));
      if (!names.isEmpty()) {
        Collections.sort(names);
        out.put(p.getName(), Json.arr(names.stream().map(Json::str).collect(Collectors.toList())));
      }
    }
    return Json.obj(out);
  }

  void startRound(final GameData data) {
    start = snapshot(data);
    for (final Territory t : data.getMap().getTerritories()) {
      owners.put(t, t.getOwner());
    }
  }

  void beforeStep(final GameData data, final GameStep step) {
    final PlayerID p = step.getPlayerId();
    pusBefore = p == null ? 0 : p.getResources().getQuantity("PUs");
    rules.beforeStep();
  }

  void afterStep(final GameData data, final GameStep step, final long nanos) {
    final IDelegate delegate = step.getDelegate();
    delegateNanos.merge(delegate.getClass().getSimpleName(), nanos, Long::sum);
    rules.afterStep(data);
    final PlayerID p = step.getPlayerId();
    for (final Territory t : data.getMap().getTerritories()) {
      final PlayerID before = owners.put(t, t.getOwner());
      if (before != t.getOwner()) {
        ownerChanges.add(ActionLog.here().putStr("territory", t.getName()).putStr("from", name(before))
            .putStr("to", name(t.getOwner())).toString());
      }
    }
    if (p == null) {
      return;
    }
    if (isPurchase(delegate)) {
      purchaseSteps.add(ActionLog.here().putNum("pusBefore", pusBefore)
          .putNum("pusAfter", p.getResources().getQuantity("PUs")).toString());
    } else if (isPlace(delegate) && !p.getUnits().isEmpty()) {
      unplaced.add(ActionLog.here().put("units", ActionLog.byType(p.getUnits().getUnits())).toString());
    }
  }

  /**
   * The board when the game ended (a victory inside round R, which `rounds` never reports): a
   * study carries it forward to the rounds the game did not play, instead of leaving the game out.
   */
  void endGame(final GameData data) {
    end = new Json.Obj().putNum("round", data.getSequence().getRound()).put("players", snapshot(data)).toString();
  }

  void endRound(final GameData data, final long ms) {
    roundMs.add(Json.num(ms));
    roundReports.add(new Json.Obj().putNum("round", roundReports.size() + 1).putNum("ms", ms)
        .put("players", snapshot(data)).toString());
  }

  String render(final GameData data) {
    final Json.Obj parse = new Json.Obj().putNum("ms", parseMs).putStr("error", parseError).put("saxErrors", saxErrors);
    final List<List<ErrorCapture.Entry>> captured = ErrorCapture.drain();
    final Json.Obj timings = new Json.Obj().putNum("parseMs", parseMs).putNum("setupMs", setupMs)
        .putNum("totalMs", totalMs).putNum("cpuMs", cpuSinceLastReport()).put("rounds", Json.arr(roundMs));
    final Map<String, String> byDelegate = new TreeMap<>();
    delegateNanos.forEach((k, v) -> byDelegate.put(k, Json.num(v / 1_000_000)));
    timings.put("byDelegate", Json.obj(byDelegate));
    final Json.Obj out = new Json.Obj().putStr("file", path).putStr("ai", ai).putNum("seed", seed)
        .putNum("roundsRequested", rounds).putNum("roundsCompleted", roundReports.size())
        .putBool("gameOver", gameOver).putStr("stoppedAt", stoppedAt).put("parse", parse.toString())
        .put("errors", entries(captured.get(0))).put("warnings", entries(captured.get(1)))
        .put("timings", timings.toString()).putNum("peakHeapMb", peakHeapMb());
    if (data == null) {
      return out.toString();
    }
    return out.put("game", game.toString()).put("start", start).put("rounds", Json.arr(roundReports)).put("end", end)
        .put("purchaseSteps", Json.arr(purchaseSteps)).put("purchases", Json.arr(actions.purchases))
        .put("moves", Json.arr(actions.moves)).put("placements", Json.arr(actions.placements))
        .put("unplaced", Json.arr(unplaced)).put("ownerChanges", Json.arr(ownerChanges))
        .put("actionsTaken", Json.arr(actionsTaken)).put("actionsOpen", Json.arr(actionsOpen))
        .put("ruleActivity", rules.render())
        .put("deliveries", deliveries.render())
        .put("purchaseReplans", Json.arr(actions.replans)).put("placementReplans", Json.arr(actions.replacements))
        .put("battles", battles(data)).put("winners", winners(data)).toString();
  }

  private static String entries(final List<ErrorCapture.Entry> list) {
    final List<String> out = new ArrayList<>();
    for (final ErrorCapture.Entry e : list) {
      out.add(e.toJson());
    }
    return Json.arr(out);
  }

  /** Per player: resources, income, territories held, units on the map and units not placed. */
  private static String snapshot(final GameData data) {
    final Map<String, String> players = new TreeMap<>();
    for (final PlayerID p : data.getPlayerList().getPlayers()) {
      final List<Territory> owned = new ArrayList<>();
      final List<Unit> units = new ArrayList<>();
      for (final Territory t : data.getMap().getTerritories()) {
        if (p.equals(t.getOwner())) {
          owned.add(t);
        }
        for (final Unit u : t.getUnits().getUnits()) {
          if (p.equals(u.getOwner())) {
            units.add(u);
          }
        }
      }
      final Map<String, Integer> resources = new TreeMap<>();
      for (final Resource r : data.getResourceList().getResources()) {
        resources.put(r.getName(), p.getResources().getQuantity(r));
      }
      int victoryCities = 0;
      for (final Territory t : owned) {
        final TerritoryAttachment ta = TerritoryAttachment.get(t);
        victoryCities += ta != null && ta.getVictoryCity() > 0 ? 1 : 0;
      }
      // Total unit value as the engine's statistics count it: units on the board at their cost.
      final int tuv = TuvUtils.getTuv(units, p, TuvUtils.getCostsForTuv(p, data), data);
      players.put(p.getName(), new Json.Obj().put("resources", ActionLog.counts(resources))
          .putNum("income", AbstractEndTurnDelegate.getProduction(owned, data)).putNum("territories", owned.size())
          .putNum("victoryCities", victoryCities).putNum("tuv", tuv)
          .put("units", ActionLog.byType(units)).put("unplaced", ActionLog.byType(p.getUnits().getUnits()))
          .toString());
    }
    return Json.obj(players);
  }

  private static String alliances(final GameData data, final PlayerID p) {
    final List<String> out = new ArrayList<>();
    for (final String a : data.getAllianceTracker().getAlliancesPlayerIsIn(p)) {
      out.add(Json.str(a));
    }
    return Json.sortedArr(out);
  }

  /** The engine's battle records; BattleRecord keeps its fields private, hence reflection. */
  private static String battles(final GameData data) {
    final List<String> out = new ArrayList<>();
    try {
      final Map<Integer, BattleRecords> byRound = data.getBattleRecordsList().getBattleRecordsMap();
      for (final Map.Entry<Integer, BattleRecords> e : new TreeMap<>(byRound).entrySet()) {
        final List<String> round = new ArrayList<>();
        final Collection<BattleRecord> records = BattleRecords.getAllRecords(e.getValue());
        for (final BattleRecord r : records) {
          round.add(new Json.Obj().putNum("round", e.getKey())
              .putStr("territory", name((Territory) field(r, "battleSite")))
              .putStr("type", String.valueOf(field(r, "battleType")))
              .putStr("attacker", name((PlayerID) field(r, "attacker")))
              .putStr("defender", name((PlayerID) field(r, "defender")))
              .putStr("result", field(r, "battleResultDescription") == null ? null
                  : String.valueOf(field(r, "battleResultDescription")))
              .putNum("attackerLostTuv", (Integer) field(r, "attackerLostTUV"))
              .putNum("defenderLostTuv", (Integer) field(r, "defenderLostTUV")).toString());
        }
        // Records sit in hash maps keyed by GUID: sort so the order does not depend on the JVM.
        round.sort(null);
        out.addAll(round);
      }
    } catch (final ReflectiveOperationException | RuntimeException ex) {
      ErrorCapture.record("exception", "forge harness could not read the battle records: "
          + ForgeHarness.describe(ex), ex);
    }
    return Json.arr(out);
  }

  private static Object field(final Object o, final String name) throws ReflectiveOperationException {
    final Field f = o.getClass().getDeclaredField(name);
    f.setAccessible(true);
    return f.get(o);
  }

  private static String winners(final GameData data) {
    final List<String> out = new ArrayList<>();
    for (final IDelegate d : data.getDelegateList()) {
      if (d instanceof EndRoundDelegate && ((EndRoundDelegate) d).getWinners() != null) {
        for (final PlayerID p : ((EndRoundDelegate) d).getWinners()) {
          out.add(Json.str(p.getName()));
        }
      }
    }
    return Json.sortedArr(out);
  }

  /** A purchase the AI makes with PUs (bids and the no-PU "purchase" of some maps excluded). */
  static boolean isPurchase(final IDelegate d) {
    return d instanceof PurchaseDelegate && !(d instanceof BidPurchaseDelegate) && !(d instanceof NoPUPurchaseDelegate);
  }

  static boolean isPlace(final IDelegate d) {
    return d instanceof AbstractPlaceDelegate && !(d instanceof BidPlaceDelegate);
  }

  private static String name(final PlayerID p) {
    return p == null ? null : p.getName();
  }

  private static String name(final Territory t) {
    return t == null ? null : t.getName();
  }

  // The JVM's CPU time when the last game reported: a game's cpuMs is what every thread (the game,
  // the JIT compilers, the collector) used since then, so the games of one JVM share its whole CPU
  // (the first game carries the JVM's start).
  private static long cpuMarkNanos;

  private static long cpuSinceLastReport() {
    final java.lang.management.OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
    if (!(os instanceof com.sun.management.OperatingSystemMXBean)) {
      return -1;
    }
    final long now = ((com.sun.management.OperatingSystemMXBean) os).getProcessCpuTime();
    final long spent = now - cpuMarkNanos;
    cpuMarkNanos = now;
    return now < 0 ? -1 : spent / 1_000_000;
  }

  /** Several games may share a JVM: each reports its own peak. */
  static void resetPeakHeap() {
    for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) {
        pool.resetPeakUsage();
      }
    }
  }

  private static long peakHeapMb() {
    long bytes = 0;
    for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
        bytes += pool.getPeakUsage().getUsed();
      }
    }
    return bytes / (1024 * 1024);
  }
}
