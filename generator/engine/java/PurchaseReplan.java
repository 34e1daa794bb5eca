package forge;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.NamedAttachable;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.ProductionFrontier;
import games.strategy.engine.data.ProductionRule;
import games.strategy.engine.data.Resource;
import games.strategy.util.IntegerMap;

/**
 * The AI's purchase, re-planned after the delegate refused it. The 1.9 AIs plan a purchase with
 * the production rules they saw when the step started (and count a unit bought by two rules of
 * one frontier at one price), so a price advantage the harness declared for them (a frontier
 * change) can leave the plan unaffordable or naming a rule no longer offered; the engine then
 * refuses the whole purchase and the player buys nothing that round. The re-plan is what a player
 * would do with the same shopping list: a unit from a rule no longer in the frontier comes from
 * the cheapest rule that still makes it, and while the list costs more than the player has, one
 * unit of the dearest rule goes. Null when nothing is left to buy or the list is unchanged.
 *
 * <p>ActionLog asks {@link #problem} before the engine sees a purchase and buys the re-plan
 * instead when there is one, so the engine never refuses a purchase of the harness's AIs and never
 * sells at a price that is no longer in force; a refusal the re-plan cannot foresee (a unit limit)
 * is still re-planned after the engine's answer.
 */
final class PurchaseReplan {
  private PurchaseReplan() {}

  static IntegerMap<ProductionRule> of(final GameData data, final PlayerID player,
      final IntegerMap<ProductionRule> asked) {
    final ProductionFrontier frontier = player.getProductionFrontier();
    if (frontier == null) {
      return null;
    }
    final IntegerMap<ProductionRule> plan = new IntegerMap<>();
    data.acquireReadLock();
    try {
      for (final ProductionRule rule : asked.keySet()) {
        final ProductionRule offered = frontier.getRules().contains(rule) ? rule : cheapestMaking(frontier, rule);
        if (offered != null) {
          plan.add(offered, asked.getInt(rule));
        }
      }
      final List<ProductionRule> dearestFirst = new ArrayList<>(plan.keySet());
      dearestFirst.sort(Comparator.comparingInt(ActionKinds::costInPus).reversed()
          .thenComparing(ProductionRule::getName));
      for (final ProductionRule rule : dearestFirst) {
        while (plan.getInt(rule) > 0 && !player.getResources().has(costs(plan))) {
          plan.add(rule, -1);
        }
      }
    } finally {
      data.releaseReadLock();
    }
    final IntegerMap<ProductionRule> kept = new IntegerMap<>();
    plan.keySet().stream().filter(r -> plan.getInt(r) > 0).forEach(r -> kept.put(r, plan.getInt(r)));
    return kept.isEmpty() || kept.equals(asked) ? null : kept;
  }

  /**
   * Why the engine would refuse {@code asked}, or charge for it prices no longer in force: a rule
   * the player's frontier no longer offers (the AI planned before a price advantage swapped it: the
   * engine would sell at the old price) or a cost beyond the player's resources. Null when the
   * purchase fits as asked. Asked before the engine sees the purchase, so no purchase is refused.
   */
  static String problem(final GameData data, final PlayerID player, final IntegerMap<ProductionRule> asked) {
    final ProductionFrontier frontier = player.getProductionFrontier();
    if (frontier == null) {
      return null;
    }
    data.acquireReadLock();
    try {
      for (final ProductionRule rule : asked.keySet()) {
        if (asked.getInt(rule) > 0 && !frontier.getRules().contains(rule)) {
          return rule.getName() + " is no longer offered (its price changed)";
        }
      }
      final IntegerMap<Resource> cost = costs(asked);
      if (!player.getResources().has(cost)) {
        return "Not enough resources: costs " + cost.getInt(data.getResourceList().getResource("PUs")) + " PUs, has "
            + player.getResources().getQuantity("PUs");
      }
      return null;
    } finally {
      data.releaseReadLock();
    }
  }

  private static ProductionRule cheapestMaking(final ProductionFrontier frontier, final ProductionRule wanted) {
    final IntegerMap<NamedAttachable> results = wanted.getResults();
    return frontier.getRules().stream().filter(r -> r.getResults().equals(results))
        .min(Comparator.comparingInt(ActionKinds::costInPus).thenComparing(ProductionRule::getName)).orElse(null);
  }

  private static IntegerMap<Resource> costs(final IntegerMap<ProductionRule> plan) {
    final IntegerMap<Resource> total = new IntegerMap<>();
    for (final ProductionRule rule : plan.keySet()) {
      final IntegerMap<Resource> each = rule.getCosts();
      for (final Resource r : each.keySet()) {
        total.add(r, each.getInt(r) * plan.getInt(rule));
      }
    }
    return total;
  }
}
