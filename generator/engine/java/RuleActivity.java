package forge;

import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import games.strategy.engine.data.Change;
import games.strategy.engine.data.CompositeChange;
import games.strategy.engine.data.GameData;
import games.strategy.engine.data.IAttachment;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.UnitHolder;
import games.strategy.engine.history.Event;
import games.strategy.engine.history.History;
import games.strategy.engine.history.HistoryNode;
import games.strategy.engine.history.IndexedHistoryNode;
import games.strategy.triplea.Properties;
import games.strategy.triplea.attachments.PoliticalActionAttachment;
import games.strategy.triplea.attachments.RulesAttachment;
import games.strategy.triplea.attachments.TriggerAttachment;
import games.strategy.triplea.attachments.UserActionAttachment;
import games.strategy.triplea.formatter.MyFormatter;

/**
 * Every firing of a trigger and every national objective paid, per step, read from the engine's
 * own game history: each trigger effect (TriggerAttachment) and each objective paid
 * (EndTurnDelegate) starts a history event whose text begins with
 * {@code MyFormatter.attachmentNameToText(name) + ":"}; that text is computed here by the engine
 * for every attachment, so nothing about it is guessed. What the firing gave is read from the
 * changes the engine recorded with the event (units added to a territory or a player's hand,
 * units removed, resources).
 *
 * <p>A few trigger effects leave no event (a notification or a victory whose message the map does
 * not define); a trigger with limited uses still shows its firing in its uses (usedThisRound set,
 * or uses spent by a "when" trigger), compared before and after each step: such an entry has
 * source "uses". Layout of an entry:
 * {round, step, player (the step's), attachment, owner (the attachment's player), kind
 * (trigger|objective), source (history|uses), gives {placements [{player, territory, units}],
 * units [{player, units}] (into a player's hand), removed [{player, territory, units}],
 * resources [{player, resource, amount}]}}.
 */
final class RuleActivity {
  // The text the engine writes when an objective (or a resource trigger) pays: its resource change
  // is added just before the event starts (EndTurnDelegate.determineNationalObjectives,
  // TriggerAttachment.triggerResourceChange), so it is read from the changes before the event.
  private static final String PAID = " met a national objective for an additional ";
  private static final String ACTIVATES = " activates a trigger called: ";

  private final Map<String, List<Rule>> byText = new HashMap<>();
  private final List<Rule> rules = new ArrayList<>();
  private final Set<HistoryNode> seen = Collections.newSetFromMap(new IdentityHashMap<>());
  private final Map<Rule, int[]> usesBefore = new HashMap<>();
  private final List<String> entries = new ArrayList<>();
  private boolean broken;

  private static final class Rule {
    final IAttachment attachment;
    final String name;
    final String owner;
    final String kind;

    Rule(final IAttachment attachment, final String owner, final String kind) {
      this.attachment = attachment;
      this.name = attachment.getName();
      this.owner = owner;
      this.kind = kind;
    }
  }

  /**
   * Collects the game's triggers and objectives (watched from here on); returns them with the
   * user and political actions (ActionPolicy logs those) as JSON for the report's game.
   */
  String describe(final GameData data) {
    final List<String> out = new ArrayList<>();
    for (final PlayerID p : data.getPlayerList().getPlayers()) {
      for (final IAttachment a : p.getAttachments().values()) {
        final String kind = kind(a);
        if (kind == null) {
          continue;
        }
        out.add(new Json.Obj().putStr("name", a.getName()).putStr("player", p.getName()).putStr("kind", kind)
            .toString());
        if (kind.equals("trigger") || kind.equals("objective")) {
          final Rule rule = new Rule(a, p.getName(), kind);
          rules.add(rule);
          byText.computeIfAbsent(MyFormatter.attachmentNameToText(rule.name), k -> new ArrayList<>()).add(rule);
        }
      }
    }
    return Json.sortedArr(out);
  }

  /**
   * The kind of rule an attachment is, or null. A RulesAttachment with an objectiveValue counts
   * whatever its name: the engine pays only those named objectiveAttachment*, so one named
   * otherwise is reported as never paid.
   */
  private static String kind(final IAttachment a) {
    if (a instanceof TriggerAttachment) {
      return "trigger";
    }
    if (a instanceof RulesAttachment && ((RulesAttachment) a).getObjectiveValue() != 0) {
      return "objective";
    }
    if (a instanceof UserActionAttachment) {
      return "userAction";
    }
    return a instanceof PoliticalActionAttachment ? "politicalAction" : null;
  }

  /** The game properties without which no trigger fires or no objective pays. */
  static String switches(final GameData data) {
    return new Json.Obj().putBool("Use Triggers", Properties.getTriggers(data))
        .putBool("National Objectives", Properties.getNationalObjectives(data)).toString();
  }

  void beforeStep() {
    usesBefore.clear();
    for (final Rule r : rules) {
      usesBefore.put(r, uses(r));
    }
  }

  /** Reads the history events the step wrote and the uses it spent; one entry per attachment. */
  void afterStep(final GameData data) {
    if (broken) {
      return;
    }
    final Map<Rule, Gives> fired = new LinkedHashMap<>();
    try {
      final History history = data.getHistory();
      final List<Change> changes = changes(history);
      for (final Event e : newEvents(history)) {
        final String text = e.getDescription() == null ? "" : e.getDescription();
        for (final Map.Entry<String, List<Rule>> byName : byText.entrySet()) {
          final String name = byName.getKey();
          final boolean own = text.startsWith(name + ":") || text.startsWith(name + ACTIVATES);
          if (!own && !text.endsWith(ACTIVATES + name)) {
            continue;
          }
          for (final Rule r : byName.getValue()) {
            final Gives gives = fired.computeIfAbsent(r, k -> new Gives("history"));
            if (own) {
              gives.read(e, text, changes);
            }
          }
        }
      }
    } catch (final ReflectiveOperationException | RuntimeException ex) {
      broken = true; // said once: the report then lacks the activity, and check fails on the error
      ErrorCapture.record("exception", "forge harness could not read the game history: " + ForgeHarness.describe(ex),
          ex);
    }
    for (final Rule r : rules) {
      if (!fired.containsKey(r) && spent(usesBefore.get(r), uses(r))) {
        fired.put(r, new Gives("uses"));
      }
    }
    fired.forEach((r, gives) -> entries.add(ActionLog.here().putStr("attachment", r.name).putStr("owner", r.owner)
        .putStr("kind", r.kind).putStr("source", gives.source).put("gives", gives.render()).toString()));
  }

  String render() {
    return Json.arr(entries);
  }

  /** The events of the last two rounds not read before (a step writes into the current round). */
  private List<Event> newEvents(final History history) {
    final List<Event> out = new ArrayList<>();
    final HistoryNode root = (HistoryNode) history.getRoot();
    for (int i = Math.max(0, root.getChildCount() - 2); i < root.getChildCount(); i++) {
      collect((HistoryNode) root.getChildAt(i), out);
    }
    return out;
  }

  private void collect(final HistoryNode node, final List<Event> out) {
    for (int i = 0; i < node.getChildCount(); i++) {
      final HistoryNode child = (HistoryNode) node.getChildAt(i);
      if (child instanceof Event) {
        if (seen.add(child)) {
          out.add((Event) child);
        }
      } else {
        collect(child, out);
      }
    }
  }

  /** [uses, usedThisRound]; objectives only have uses. */
  private static int[] uses(final Rule r) {
    if (r.attachment instanceof TriggerAttachment) {
      final TriggerAttachment t = (TriggerAttachment) r.attachment;
      return new int[] {t.getUses(), t.getUsedThisRound() ? 1 : 0};
    }
    return new int[] {((RulesAttachment) r.attachment).getUses(), 0};
  }

  /**
   * Whether a step's change of uses is a firing: usedThisRound set (a trigger without "when"), or a
   * use spent while it was not set (a "when" trigger spends its use as it fires; the end of the
   * round spends the uses of the triggers that have usedThisRound set, which is no firing).
   */
  private static boolean spent(final int[] before, final int[] after) {
    if (before == null) {
      return false;
    }
    return before[1] == 0 && after[1] == 1 || before[1] == 0 && after[0] < before[0] && before[0] > 0;
  }

  private static List<Change> changes(final History history) throws ReflectiveOperationException {
    final Method m = History.class.getDeclaredMethod("getChanges");
    m.setAccessible(true);
    @SuppressWarnings("unchecked")
    final List<Change> list = (List<Change>) m.invoke(history);
    return list;
  }

  private static int index(final IndexedHistoryNode node, final String getter) throws ReflectiveOperationException {
    final Method m = IndexedHistoryNode.class.getDeclaredMethod(getter);
    m.setAccessible(true);
    return (Integer) m.invoke(node);
  }

  private static Object field(final Object o, final String name) throws ReflectiveOperationException {
    final Field f = o.getClass().getDeclaredField(name);
    f.setAccessible(true);
    return f.get(o);
  }

  /** What the events of one attachment in one step gave. */
  private static final class Gives {
    final String source;
    final List<String> placements = new ArrayList<>();
    final List<String> units = new ArrayList<>();
    final List<String> removed = new ArrayList<>();
    final List<String> resources = new ArrayList<>();

    Gives(final String source) {
      this.source = source;
    }

    void read(final Event e, final String text, final List<Change> all) throws ReflectiveOperationException {
      final int start = index(e, "getChangeStartIndex");
      final int stop = index(e, "getChangeEndIndex");
      final int end = stop < 0 ? all.size() : Math.min(stop, all.size());
      for (final Change c : flat(all.subList(Math.min(start, end), end))) {
        final String type = c.getClass().getSimpleName();
        if (type.equals("AddUnits") || type.equals("RemoveUnits")) {
          units(c, type.equals("AddUnits"));
        }
      }
      if (text.contains(PAID)) {
        // The change right before the event; an objective with limited uses spends one in between.
        for (int i = start - 1; i >= Math.max(0, start - 2); i--) {
          if (all.get(i).getClass().getSimpleName().equals("ChangeResourceChange")) {
            final Change c = all.get(i);
            resources.add(new Json.Obj().putStr("player", (String) field(c, "m_player"))
                .putStr("resource", (String) field(c, "m_resource")).putNum("amount", (Integer) field(c, "m_quantity"))
                .toString());
            break;
          }
        }
      }
    }

    @SuppressWarnings("unchecked")
    private void units(final Change c, final boolean added) throws ReflectiveOperationException {
      final Collection<Unit> moved = (Collection<Unit>) field(c, "m_units");
      final String holder = (String) field(c, "m_name");
      final boolean territory = UnitHolder.TERRITORY.equals(field(c, "m_type"));
      final Map<String, List<Unit>> byOwner = new TreeMap<>();
      for (final Unit u : moved) {
        byOwner.computeIfAbsent(u.getOwner() == null ? null : u.getOwner().getName(), k -> new ArrayList<>()).add(u);
      }
      byOwner.forEach((owner, list) -> {
        final Json.Obj o = new Json.Obj().putStr("player", territory ? owner : holder).put("units",
            ActionLog.byType(list));
        if (territory) {
          o.putStr("territory", holder);
        }
        (!added ? removed : territory ? placements : units).add(o.toString());
      });
    }

    private static List<Change> flat(final List<Change> changes) {
      final List<Change> out = new ArrayList<>();
      for (final Change c : changes) {
        if (c instanceof CompositeChange) {
          out.addAll(flat(((CompositeChange) c).getChanges()));
        } else {
          out.add(c);
        }
      }
      return out;
    }

    String render() {
      final Json.Obj o = new Json.Obj();
      if (!placements.isEmpty()) {
        o.put("placements", Json.arr(placements));
      }
      if (!units.isEmpty()) {
        o.put("units", Json.arr(units));
      }
      if (!removed.isEmpty()) {
        o.put("removed", Json.arr(removed));
      }
      if (!resources.isEmpty()) {
        o.put("resources", Json.arr(resources));
      }
      return o.toString();
    }
  }
}
