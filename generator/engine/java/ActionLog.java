package forge;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import games.strategy.engine.data.NamedAttachable;
import games.strategy.engine.data.ProductionRule;
import games.strategy.engine.data.Route;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.UnitType;
import games.strategy.engine.delegate.IDelegate;
import games.strategy.util.IntegerMap;

/**
 * Sits between the AI players and the delegates (the AIs reach delegates only through the remote
 * messenger, so wrapping the registered remote sees every action). Successful actions are
 * counted; an action the delegate refuses (a non-null String result) is otherwise dropped
 * silently by the engine, so it is recorded as an error; an exception a delegate throws back to
 * the AI is recorded even if the AI swallows it.
 */
final class ActionLog {
  final List<String> purchases = new ArrayList<>();
  final List<String> moves = new ArrayList<>();
  final List<String> placements = new ArrayList<>();
  final List<String> replans = new ArrayList<>();
  final List<String> replacements = new ArrayList<>();

  /** The remote for {@code delegate}: {@code inner} (the engine's own wrapper) plus logging. */
  Object wrap(final IDelegate delegate, final Object inner) {
    final Class<?> type = delegate.getRemoteType();
    final InvocationHandler handler = (proxy, method, args) -> {
      // Identity semantics: the messenger finds and removes its implementors with equals().
      switch (method.getName()) {
        case "equals":
          return args != null && args.length == 1 && proxy == args[0];
        case "hashCode":
          return args == null ? System.identityHashCode(proxy) : invoke(delegate, inner, method, args);
        case "toString":
          return args == null ? "logged " + delegate : invoke(delegate, inner, method, args);
        default:
          return invoke(delegate, inner, method, args);
      }
    };
    return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, handler);
  }

  @SuppressWarnings("unchecked")
  private Object invoke(final IDelegate called, final Object inner, final Method method, final Object[] args)
      throws Throwable {
    final String delegate = called.getName();
    final Object[] fitted = fit(called, method.getName(), args);
    if (fitted != args) {
      return invoke(called, inner, method, fitted);
    }
    final Object result;
    try {
      result = method.invoke(inner, args);
    } catch (final InvocationTargetException e) {
      final Throwable cause = e.getCause();
      ErrorCapture.record("delegateException",
          "delegate " + delegate + " threw from " + method.getName() + ": " + ForgeHarness.describe(cause), cause);
      throw cause;
    }
    if (method.getDeclaringClass() == Object.class) {
      return result;
    }
    final String name = method.getName();
    if (result instanceof String && name.equals("purchase") && args != null && args[0] instanceof IntegerMap) {
      final Object[] replanned = replan(called, args);
      if (replanned != null && method.invoke(inner, replanned) == null) {
        replans.add(here().putStr("refused", (String) result).put("asked", units(args)).put("bought", units(replanned))
            .toString());
        record(name, replanned);
        return null;
      }
    }
    if (result instanceof String && name.equals("placeUnits") && args != null && args.length >= 2
        && args[1] instanceof Territory) {
      final Object[] moved = replace(called, inner, method, args);
      if (moved != null) {
        replacements.add(here().putStr("refused", (String) result).putStr("asked", name((Territory) args[1]))
            .putStr("placed", name((Territory) moved[1])).put("units", byType((Collection<Unit>) args[0])).toString());
        record(name, moved);
        return null;
      }
    }
    if (result instanceof String && !name.startsWith("get")) {
      ErrorCapture.record("rejected", "delegate " + delegate + " refused " + name + summary(name, args) + ": " + result,
          null);
    } else if (result == null) {
      record(name, args);
    }
    return result;
  }

  /**
   * The AI's refused placement, made where the engine accepts it (the 1.9 AIs sometimes place a
   * new fighter on a carrier in a sea zone where the engine does not count room for it; a player
   * puts the unit elsewhere): land territories first, then sea zones, by name. Null when the
   * units fit nowhere.
   */
  private static Object[] replace(final IDelegate delegate, final Object inner, final Method method,
      final Object[] args) throws ReflectiveOperationException {
    if (delegate.getBridge() == null) {
      return null;
    }
    final List<Territory> places = new ArrayList<>(delegate.getBridge().getData().getMap().getTerritories());
    places.sort(Comparator.comparing(Territory::isWater).thenComparing(Territory::getName));
    for (final Territory t : places) {
      if (t.equals(args[1])) {
        continue;
      }
      final Object[] there = args.clone();
      there[1] = t;
      if (method.invoke(inner, there) == null) {
        return there;
      }
    }
    return null;
  }

  /**
   * A purchase that would not fit at the prices in force (PurchaseReplan.problem) is re-planned
   * before the engine sees it, and logged as a re-plan with what the engine would have said; any
   * other call (and a purchase that fits) is passed on as it is ({@code args} itself).
   */
  @SuppressWarnings("unchecked")
  private Object[] fit(final IDelegate delegate, final String name, final Object[] args) {
    if (!name.equals("purchase") || args == null || args.length != 1 || !(args[0] instanceof IntegerMap)
        || delegate.getBridge() == null || ((IntegerMap<?>) args[0]).keySet().stream()
            .anyMatch(k -> !(k instanceof ProductionRule))) {
      return args;
    }
    final IntegerMap<ProductionRule> asked = (IntegerMap<ProductionRule>) args[0];
    final String problem = PurchaseReplan.problem(delegate.getBridge().getData(), delegate.getBridge().getPlayerId(),
        asked);
    if (problem == null) {
      return args;
    }
    final IntegerMap<ProductionRule> plan = PurchaseReplan.of(delegate.getBridge().getData(),
        delegate.getBridge().getPlayerId(), asked);
    final Object[] fitted = {plan == null ? new IntegerMap<ProductionRule>() : plan};
    replans.add(here().putStr("refused", problem).putBool("preempted", true).put("asked", units(args))
        .put("bought", units(fitted)).toString());
    return fitted;
  }

  @SuppressWarnings("unchecked")
  private static Object[] replan(final IDelegate delegate, final Object[] args) {
    if (delegate.getBridge() == null) {
      return null;
    }
    final IntegerMap<ProductionRule> plan = PurchaseReplan.of(delegate.getBridge().getData(),
        delegate.getBridge().getPlayerId(), (IntegerMap<ProductionRule>) args[0]);
    return plan == null ? null : new Object[] {plan};
  }

  /** {unit type: n} a purchase's rules make. */
  @SuppressWarnings("unchecked")
  private static String units(final Object[] args) {
    final Map<String, Integer> units = new TreeMap<>();
    final IntegerMap<ProductionRule> rules = (IntegerMap<ProductionRule>) args[0];
    for (final ProductionRule rule : rules.keySet()) {
      final IntegerMap<NamedAttachable> results = rule.getResults();
      for (final NamedAttachable r : results.keySet()) {
        if (r instanceof UnitType) {
          units.merge(r.getName(), rules.getInt(rule) * results.getInt(r), Integer::sum);
        }
      }
    }
    return units.isEmpty() ? null : counts(units);
  }

  @SuppressWarnings("unchecked")
  private void record(final String name, final Object[] args) {
    if (name.equals("purchase") && args != null && args[0] instanceof IntegerMap) {
      final String units = units(args);
      if (units != null) {
        purchases.add(here().put("units", units).toString());
      }
    } else if (name.equals("move") && args != null && args.length >= 2 && args[1] instanceof Route) {
      final Collection<Unit> units = (Collection<Unit>) args[0];
      final Route route = (Route) args[1];
      moves.add(here().putNum("units", units.size()).putStr("from", name(route.getStart()))
          .putStr("to", name(route.getEnd())).toString());
    } else if (name.equals("placeUnits") && args != null && args.length >= 2) {
      final Collection<Unit> units = (Collection<Unit>) args[0];
      if (!units.isEmpty()) {
        placements.add(here().putStr("territory", name((Territory) args[1])).put("units", byType(units)).toString());
      }
    }
  }

  static Json.Obj here() {
    return new Json.Obj().putNum("round", ErrorCapture.round).putStr("step", ErrorCapture.step)
        .putStr("player", ErrorCapture.player);
  }

  static String byType(final Collection<Unit> units) {
    final Map<String, Integer> counts = new TreeMap<>();
    for (final Unit u : units) {
      counts.merge(u.getType().getName(), 1, Integer::sum);
    }
    return counts(counts);
  }

  static String counts(final Map<String, Integer> counts) {
    final Map<String, String> json = new TreeMap<>();
    counts.forEach((k, v) -> json.put(k, Json.num(v)));
    return Json.obj(json);
  }

  private static String name(final Territory t) {
    return t == null ? null : t.getName();
  }

  /** A few words about the refused action, so the message says what the AI tried. */
  @SuppressWarnings("unchecked")
  private static String summary(final String name, final Object[] args) {
    try {
      if (name.equals("move") && args.length >= 2 && args[1] instanceof Route) {
        final Route r = (Route) args[1];
        return " (" + ((Collection<Unit>) args[0]).size() + " units " + name(r.getStart()) + " -> " + name(r.getEnd())
            + ")";
      }
      if (name.equals("placeUnits") && args.length >= 2) {
        return " (" + ((Collection<Unit>) args[0]).size() + " units in " + name((Territory) args[1]) + ")";
      }
    } catch (final RuntimeException e) {
      return "";
    }
    return "";
  }
}
