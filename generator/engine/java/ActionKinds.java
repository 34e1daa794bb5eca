package forge;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameSequence;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.IAttachment;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.ProductionRule;
import games.strategy.engine.data.Resource;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.triplea.attachments.AbstractUserActionAttachment;
import games.strategy.triplea.attachments.TriggerAttachment;
import games.strategy.triplea.attachments.UnitAttachment;
import games.strategy.triplea.attachments.UserActionAttachment;
import games.strategy.triplea.delegate.BidPurchaseDelegate;
import games.strategy.triplea.delegate.Matches;
import games.strategy.triplea.delegate.NoPUPurchaseDelegate;
import games.strategy.triplea.delegate.PurchaseDelegate;
import games.strategy.util.IntegerMap;
import games.strategy.util.Match;
import games.strategy.util.Tuple;

/**
 * What an action does for the player who takes it, read from the triggers it fires, for the
 * "rules" policy (see ActionPolicy):
 * <ul>
 * <li>GAIN: it places units, grants units to buy or adds resources, at no PU cost and without
 * changing relationships or prices (income, free units): taken whenever open.
 * <li>PRICE: it changes the player's production frontier or rules (a price advantage): taken only
 * when a purchase step of the player is still to come this round and the PUs buy at least one
 * unit of a rule it adds.
 * <li>HARM: it removes the player's own units (scorched earth): taken only when the enemy next
 * door outguns what stands there and nothing bought waits to be placed (see threatened).
 * <li>CHOICE: everything else (declarations that only set switches and properties, actions that
 * cost PUs, relationship changes such as treaty breaks, political actions): one-time choices, taken
 * with the policy's choice rate per step open.
 * </ul>
 * A trigger that does several of these counts by the first of CHOICE-by-relationship, HARM,
 * PRICE, GAIN: breaking a treaty that also pays is still a choice.
 */
final class ActionKinds {
  enum Kind { GAIN, PRICE, HARM, CHOICE }

  private ActionKinds() {}

  static Kind of(final GameData data, final PlayerID player, final AbstractUserActionAttachment action) {
    if (!(action instanceof UserActionAttachment) || action.getCostPU() > 0) {
      return Kind.CHOICE;
    }
    final List<TriggerAttachment> triggers = triggers(data, (UserActionAttachment) action);
    if (triggers.stream().anyMatch(t -> !empty(t.getRelationshipChange()))) {
      return Kind.CHOICE;
    }
    if (triggers.stream().anyMatch(t -> t.getRemoveUnits() != null && !t.getRemoveUnits().isEmpty()
        && affects(t, player))) {
      return Kind.HARM;
    }
    if (triggers.stream().anyMatch(t -> t.getFrontier() != null || !empty(t.getProductionRule()))) {
      return Kind.PRICE;
    }
    if (triggers.stream().anyMatch(t -> (t.getPlacement() != null && !t.getPlacement().isEmpty())
        || (t.getPurchase() != null && !t.getPurchase().isEmpty())
        || (t.getResource() != null && t.getResourceCount() > 0))) {
      return Kind.GAIN;
    }
    return Kind.CHOICE;
  }

  /**
   * Whether a HARM action is sensible now: the player has no units waiting to be placed (a complex
   * scorched between purchase and placement leaves them nowhere to go), and in a territory it
   * empties the enemy land units next door attack with more than the units there defend with, so
   * what it destroys would likely be the enemy's next turn.
   */
  static boolean threatened(final GameData data, final PlayerID player, final AbstractUserActionAttachment action) {
    if (!player.getUnits().isEmpty()) {
      return false;
    }
    final Match<Unit> enemy = Matches.enemyUnit(player, data);
    for (final TriggerAttachment t : triggers(data, (UserActionAttachment) action)) {
      if (t.getRemoveUnits() == null) {
        continue;
      }
      for (final Territory territory : t.getRemoveUnits().keySet()) {
        int attack = 0;
        for (final Territory next : data.getMap().getNeighbors(territory, Matches.territoryIsLand())) {
          for (final Unit u : next.getUnits().getUnits()) {
            attack += enemy.match(u) && Matches.unitIsLand().match(u)
                ? UnitAttachment.get(u.getType()).getAttack(u.getOwner()) : 0;
          }
        }
        int defence = 0;
        for (final Unit u : territory.getUnits().getUnits()) {
          defence += enemy.match(u) ? 0 : UnitAttachment.get(u.getType()).getDefense(u.getOwner());
        }
        if (attack > defence) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Whether a PRICE action pays now: a purchase step of the player comes later this round and its
   * PUs buy one unit of a rule the action adds (any, when it swaps the whole frontier).
   */
  static boolean purchaseAhead(final GameData data, final PlayerID player, final AbstractUserActionAttachment action) {
    final GameSequence sequence = data.getSequence();
    boolean ahead = false;
    for (int i = sequence.getStepIndex() + 1; i < sequence.size(); i++) {
      final GameStep step = sequence.getStep(i);
      ahead |= player.equals(step.getPlayerId()) && step.getDelegate() instanceof PurchaseDelegate
          && !(step.getDelegate() instanceof BidPurchaseDelegate)
          && !(step.getDelegate() instanceof NoPUPurchaseDelegate);
    }
    if (!ahead) {
      return false;
    }
    final int pus = player.getResources().getQuantity("PUs");
    for (final TriggerAttachment t : triggers(data, (UserActionAttachment) action)) {
      if (t.getFrontier() != null) {
        return true;
      }
      for (final String entry : t.getProductionRule() == null ? List.<String>of() : t.getProductionRule()) {
        final String name = entry.substring(entry.indexOf(':') + 1);
        final ProductionRule rule = name.startsWith("-") ? null : data.getProductionRuleList().getProductionRule(name);
        if (rule != null && costInPus(rule) <= pus) {
          return true;
        }
      }
    }
    return false;
  }

  static int costInPus(final ProductionRule rule) {
    final IntegerMap<Resource> costs = rule.getCosts();
    int pus = 0;
    for (final Resource resource : costs.keySet()) {
      pus += resource.getName().equals("PUs") ? costs.getInt(resource) : 0;
    }
    return pus;
  }

  /** The triggers the action fires, found on whichever player holds them. */
  static List<TriggerAttachment> triggers(final GameData data, final UserActionAttachment action) {
    final List<TriggerAttachment> out = new ArrayList<>();
    for (final Tuple<String, String> fired : action.getActivateTrigger()) {
      for (final PlayerID p : data.getPlayerList().getPlayers()) {
        final IAttachment a = p.getAttachment(fired.getFirst());
        if (a instanceof TriggerAttachment) {
          out.add((TriggerAttachment) a);
          break;
        }
      }
    }
    return out;
  }

  private static boolean affects(final TriggerAttachment trigger, final PlayerID player) {
    final Collection<PlayerID> players = trigger.getPlayers();
    return players == null || players.isEmpty() || players.contains(player);
  }

  private static boolean empty(final Collection<?> values) {
    return values == null || values.isEmpty();
  }
}
