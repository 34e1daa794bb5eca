package forge;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

import games.strategy.engine.data.Territory;
import games.strategy.engine.data.Unit;
import games.strategy.triplea.ai.weakAI.WeakAI;
import games.strategy.util.Tuple;

/**
 * A computer player that takes every defensive air choice the engine offers: it scrambles every
 * aircraft it may and sends up every interceptor (the stock computer players decline both), so a
 * scenario sees what the rules let a defender do.
 */
final class EagerDefender extends WeakAI {
  EagerDefender(final String name, final String type) {
    super(name, type);
  }

  @Override
  public HashMap<Territory, Collection<Unit>> scrambleUnitsQuery(final Territory scrambleTo,
      final Map<Territory, Tuple<Collection<Unit>, Collection<Unit>>> possibleScramblers) {
    final HashMap<Territory, Collection<Unit>> all = new HashMap<>();
    for (final Map.Entry<Territory, Tuple<Collection<Unit>, Collection<Unit>>> from : possibleScramblers.entrySet()) {
      all.put(from.getKey(), new ArrayList<>(from.getValue().getSecond()));
    }
    return all;
  }

  @Override
  public Collection<Unit> selectUnitsQuery(final Territory current, final Collection<Unit> possible,
      final String message) {
    return new ArrayList<>(possible);
  }
}
