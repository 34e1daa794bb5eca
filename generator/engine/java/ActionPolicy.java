package forge;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.delegate.IDelegate;
import games.strategy.triplea.attachments.AbstractUserActionAttachment;
import games.strategy.triplea.attachments.PoliticalActionAttachment;
import games.strategy.triplea.attachments.UserActionAttachment;
import games.strategy.triplea.delegate.MoveDelegate;
import games.strategy.triplea.delegate.PoliticsDelegate;
import games.strategy.triplea.delegate.UserActionDelegate;

/**
 * Takes the user actions and political actions open to the player of a step, for the 1.9 AIs,
 * which never take user actions (and only declare wars among the political ones). The variants'
 * own layer (national advantages, treaties, lend-lease) is made of such actions.
 *
 * <p>Policies: "none" takes nothing; "all-early" attempts every action the moment it is open;
 * "random" attempts each open action with probability 1/2, in an order shuffled by a generator
 * seeded with the game's seed (the first taken is any of the open ones alike: with slots that
 * limit how many may be taken, a fixed order would favour the first names); "cover" takes an
 * action the moment it is open if this run (this JVM, this file) has never taken it, in shuffled
 * order, and never again after: over a few games of one file every action is taken once, as
 * check needs (a treaty Russia ended in one game is Japan's to end in the next).
 * "rules" (or "rules:P") plays the actions as their rules make sense for the player (ActionKinds):
 * gains with no cost (income, free units) whenever open; price advantages only when a purchase
 * that can use them is still ahead this round; self-harming actions (scorching one's own complex)
 * only when the enemy next door outguns what stands there; one-time choices (declarations, treaty
 * breaks, actions that cost PUs) with probability P per step they are open (default 1: at the
 * first opportunity), in shuffled order. Gains go first, then prices, then the rest. "rules"
 * also makes the deliveries the rules pay for (lend-lease tokens shipped to where they are paid,
 * see Deliveries): "deliver T to Z" is open at a non-combat move with a T waiting, taken when one
 * arrives.
 * The same seed takes the same decisions as long as the game state is the same, and a step draws
 * from a stream keyed by (seed, round, step), so a step alike in two games chooses alike. The engine
 * lists open actions in hash order, so they are sorted by name before the shuffle.
 * Every policy but "none" logs which actions were open at each step (actionsOpen).
 */
final class ActionPolicy {
  static final List<String> NAMES = List.of("none", "random", "cover", "all-early", "rules");
  // Every attempt re-reads what is open (an action can close others); this bounds a step.
  private static final int MAX_ATTEMPTS_PER_STEP = 100;
  // For "cover": per game file, how often each action was taken in this JVM's earlier games.
  private static final Map<String, Map<String, Integer>> TAKEN_IN_RUN = new HashMap<>();

  private final String policy;
  private final double choiceRate;
  private final Set<String> forbidden; // restricted play: what a rule is worth
  private final long seed;
  private final Random random;
  private final Map<String, Integer> takenInRun;
  final List<String> taken = new ArrayList<>();
  final List<String> opened = new ArrayList<>();
  private List<Deliveries.Order> orders;
  private final Convoy convoy = new Convoy();
  final DeliveryLedger deliveries = new DeliveryLedger();

  /**
   * A policy name with its parameter ("rules:0.5") and the actions it never takes
   * ("rules;without=RuWinter,GeLuftwaffe", names with or without their attachment prefix):
   * whether it is one this class plays.
   */
  static boolean known(final String spec) {
    final String policy = spec.split(";without=", 2)[0];
    final String[] parts = policy.split(":", 2);
    if (parts.length == 1 || !parts[0].equals("rules")) {
      return NAMES.contains(policy);
    }
    try {
      final double rate = Double.parseDouble(parts[1]);
      return rate >= 0 && rate <= 1;
    } catch (final NumberFormatException e) {
      return false;
    }
  }

  ActionPolicy(final String spec, final long seed, final String path) {
    final String[] restricted = spec.split(";without=", 2);
    this.forbidden = restricted.length > 1 ? Set.of(restricted[1].split(",")) : Set.of();
    final String[] parts = restricted[0].split(":", 2);
    this.policy = parts[0];
    this.choiceRate = parts.length > 1 ? Double.parseDouble(parts[1]) : 1.0;
    // A stream of its own (keyed again at every step: act): the dice never see its draws.
    this.seed = seed;
    this.random = new Random(seed * 0x9E3779B97F4A7C15L + 0x5DEECE66DL);
    this.takenInRun = TAKEN_IN_RUN.computeIfAbsent(path, k -> new HashMap<>());
  }

  /** Called with the step started (the delegate has its bridge) and before the AI plays it. */
  void act(final GameData data, final GameStep step) {
    final IDelegate delegate = step.getDelegate();
    final PlayerID player = step.getPlayerId();
    // Common random numbers for the policy's own choices: a stream per step, so two games of a
    // pair (or two arms of restricted play) shuffle and choose alike in a step whatever came before.
    final int round = data.getSequence().getRound();
    random.setSeed(CommonDice.streamSeed(seed, round, "action policy|" + step.getName()));
    deliveries.observe(data, step, orders(data));
    if (policy.equals("none") || player == null || player.isNull()) {
      return;
    }
    if (policy.equals("rules") && step.getName().endsWith("Purchase")) {
      // The 1.9 Pro AI plans its combat move while it buys: a convoy that counts as moved then is
      // left out of its assaults (the engine gives the moves back when the combat move starts).
      convoy.hold(data, delegate.getBridge(), player, orders(data), true);
    }
    if (policy.equals("rules") && delegate instanceof MoveDelegate) {
      // The convoy is the harness's (Deliveries): it sails first, then the AI moves around it.
      // In the non-combat move only: a unit held in the combat move misleads the AI's amphibious
      // planning into moves the engine refuses.
      if (step.getName().endsWith("NonCombatMove")) {
        convoy.release(data, delegate.getBridge(), player);
        deliver(data, (MoveDelegate) delegate, player);
        deliveries.observe(data, step, orders(data));
        convoy.hold(data, delegate.getBridge(), player, orders(data), false);
      }
      return;
    }
    final boolean user = delegate instanceof UserActionDelegate;
    if (!user && !(delegate instanceof PoliticsDelegate)) {
      return;
    }
    final Set<String> tried = new HashSet<>();
    final Set<String> seenOpen = new TreeSet<>();
    try {
      play(data, delegate, player, user, tried, seenOpen);
    } finally {
      for (final String name : seenOpen) {
        opened.add(ActionLog.here().putStr("action", name).toString());
      }
    }
  }

  private void play(final GameData data, final IDelegate delegate, final PlayerID player, final boolean user,
      final Set<String> tried, final Set<String> seenOpen) {
    for (int attempts = 0; attempts < MAX_ATTEMPTS_PER_STEP; attempts++) {
      final List<AbstractUserActionAttachment> open = new ArrayList<>();
      data.acquireReadLock();
      try {
        open.addAll(user ? ((UserActionDelegate) delegate).getValidActions()
            : ((PoliticsDelegate) delegate).getValidActions());
      } finally {
        data.releaseReadLock();
      }
      open.forEach(a -> seenOpen.add(a.getName()));
      open.removeIf(a -> tried.contains(a.getName()) || isForbidden(a.getName()));
      open.sort(Comparator.comparing(AbstractUserActionAttachment::getName));
      if (!policy.equals("all-early")) {
        Collections.shuffle(open, random);
      }
      if (policy.equals("rules")) {
        // Stable: the shuffled order stays within each kind.
        open.sort(Comparator.comparing(a -> ActionKinds.of(data, player, a)));
      }
      AbstractUserActionAttachment chosen = null;
      for (final AbstractUserActionAttachment a : open) {
        tried.add(a.getName());
        if (takes(data, player, a)) {
          chosen = a;
          break;
        }
      }
      if (chosen == null) {
        return;
      }
      attempt(data, delegate, player, chosen, user);
    }
  }

  private List<Deliveries.Order> orders(final GameData data) {
    if (orders == null) {
      orders = Deliveries.orders(data);
    }
    return orders;
  }

  /**
   * At the start of a non-combat move, the harness moves the convoy of the rules' deliveries
   * (lend-lease): open when a unit waits, taken when it arrives where it is paid for.
   */
  private void deliver(final GameData data, final MoveDelegate delegate, final PlayerID player) {
    final List<String> open = new ArrayList<>();
    final List<String> done = new ArrayList<>();
    try {
      Deliveries.deliver(data, delegate, player, orders(data), convoy, open, done);
    } catch (final RuntimeException e) {
      // A move the engine throws on: the harness's mistake, reported so that check does not pass it.
      ErrorCapture.record("exception", "harness delivering for " + player.getName() + ": " + ForgeHarness.describe(e), e);
    }
    for (final String name : open) {
      opened.add(ActionLog.here().putStr("action", name).toString());
    }
    for (final String name : done) {
      taken.add(ActionLog.here().putStr("action", name).putStr("kind", "delivery").putNum("pusSpent", 0)
          .put("removed", "{}").put("frontiers", "[]").putStr("error", null).toString());
    }
  }

  private boolean isForbidden(final String name) {
    for (final String prefix : List.of("", "userActionAttachment", "politicalActionAttachment")) {
      if (name.startsWith(prefix) && forbidden.contains(name.substring(prefix.length()))) {
        return true;
      }
    }
    return false;
  }

  private boolean takes(final GameData data, final PlayerID player, final AbstractUserActionAttachment action) {
    switch (policy) {
      case "cover":
        return !takenInRun.containsKey(action.getName());
      case "all-early":
        return true;
      case "rules":
        data.acquireReadLock();
        try {
          switch (ActionKinds.of(data, player, action)) {
            case GAIN:
              return true;
            case PRICE:
              return ActionKinds.purchaseAhead(data, player, action);
            case HARM:
              return ActionKinds.threatened(data, player, action);
            default:
              return random.nextDouble() < choiceRate;
          }
        } finally {
          data.releaseReadLock();
        }
      default:
        return random.nextBoolean();
    }
  }

  private void attempt(final GameData data, final IDelegate delegate, final PlayerID player,
      final AbstractUserActionAttachment action, final boolean user) {
    final int pusBefore = player.getResources().getQuantity("PUs");
    final Map<String, Map<String, Integer>> before = board(data);
    final Map<String, List<String>> frontiersBefore = frontiers(data);
    String error = null;
    try {
      if (user) {
        ((UserActionDelegate) delegate).attemptAction((UserActionAttachment) action);
      } else {
        ((PoliticsDelegate) delegate).attemptAction((PoliticalActionAttachment) action);
      }
    } catch (final Throwable t) {
      // A trigger or an effect that throws is the variant's bug: an error of the run.
      error = ForgeHarness.describe(t);
      ErrorCapture.record("exception", "taking " + action.getName() + ": " + error, t);
    }
    if (error == null) {
      takenInRun.merge(action.getName(), 1, Integer::sum);
    }
    taken.add(ActionLog.here().putStr("action", action.getName()).putStr("kind", user ? "user" : "political")
        .putNum("pusSpent", pusBefore - player.getResources().getQuantity("PUs"))
        .put("removed", removed(before, board(data))).put("frontiers", changed(frontiersBefore, frontiers(data)))
        .putStr("error", error).toString());
  }

  /** Each player's production frontier, as its rules' names. */
  private static Map<String, List<String>> frontiers(final GameData data) {
    final Map<String, List<String>> out = new TreeMap<>();
    for (final PlayerID p : data.getPlayerList().getPlayers()) {
      if (p.getProductionFrontier() != null) {
        final List<String> rules = new ArrayList<>();
        p.getProductionFrontier().getRules().forEach(r -> rules.add(r.getName()));
        out.put(p.getName(), rules);
      }
    }
    return out;
  }

  /**
   * The players whose frontier the action changed (a price advantage swaps production rules):
   * an AI whose purchase is then refused planned with the frontier it had before.
   */
  private static String changed(final Map<String, List<String>> before, final Map<String, List<String>> after) {
    final List<String> players = new ArrayList<>();
    after.forEach((player, rules) -> {
      if (!rules.equals(before.get(player))) {
        players.add(Json.str(player));
      }
    });
    return Json.arr(players);
  }

  /** Units per territory and type: what an action took off the board shows as a difference. */
  private static Map<String, Map<String, Integer>> board(final GameData data) {
    final Map<String, Map<String, Integer>> counts = new TreeMap<>();
    data.acquireReadLock();
    try {
      for (final Territory t : data.getMap().getTerritories()) {
        for (final Unit u : t.getUnits().getUnits()) {
          counts.computeIfAbsent(t.getName(), k -> new TreeMap<>()).merge(u.getType().getName(), 1, Integer::sum);
        }
      }
    } finally {
      data.releaseReadLock();
    }
    return counts;
  }

  /**
   * {territory: {unit type: n}} the action removed. Check reads it: an AI that bought before a
   * complex was scorched and then tries to place there is refused because of the action, not of
   * a fault in the game.
   */
  private static String removed(final Map<String, Map<String, Integer>> before,
      final Map<String, Map<String, Integer>> after) {
    final Map<String, String> out = new TreeMap<>();
    before.forEach((territory, types) -> {
      final Map<String, Integer> gone = new TreeMap<>();
      final Map<String, Integer> now = after.getOrDefault(territory, Map.of());
      types.forEach((type, n) -> {
        if (n > now.getOrDefault(type, 0)) {
          gone.put(type, n - now.getOrDefault(type, 0));
        }
      });
      if (!gone.isEmpty()) {
        out.put(territory, ActionLog.counts(gone));
      }
    });
    return Json.obj(out);
  }
}
