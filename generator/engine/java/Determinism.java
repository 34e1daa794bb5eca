package forge;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.rmi.dgc.VMID;
import java.rmi.server.UID;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;

import games.strategy.engine.data.GameData;
import games.strategy.engine.gamePlayer.IGamePlayer;
import games.strategy.engine.random.MersenneTwister;
import games.strategy.engine.random.PlainRandomSource;
import games.strategy.net.GUID;
import games.strategy.triplea.ai.fastAI.FastAI;
import games.strategy.triplea.ai.proAI.ProAI;
import games.strategy.triplea.ai.proAI.util.ProOddsCalculator;
import games.strategy.triplea.oddsCalculator.ta.IOddsCalculator;

/**
 * Resets the engine's hidden sources of randomness before a game, so that the AIs decide the
 * same way for the same seed (the dice are seeded separately, by CommonDice), and keys them by
 * step during a game: the AIs' own common random numbers.
 *
 * <p>Two games of a pair (one seed, two variants) part ways at the first choice a rule changes.
 * With one stream a game for an AI's random choices (Math.random's tie-breaks, the dice of the
 * battles it simulates while it plans), every later choice of the two games then draws other
 * numbers, in steps where the two boards are still alike. So each step starts these sources
 * afresh from (seed, round, step): the i-th random choice an AI makes in a step draws the same
 * number in both games of a pair, whatever the games drew before (Math.random's draws are keyed
 * by the place in the AI's code that asks as well: AiChoices). Reproducible from the seed as
 * before; what a rule changes in a plan still shows, as the same number read against other odds.
 */
final class Determinism {
  private Determinism() {}

  private static int games;
  private static Random mathRandom; // java.lang.Math's own generator, found once a JVM

  /**
   * ProAI shares one static ConcurrentOddsCalculator: its workers (as many as there are cores,
   * fewer when memory is short: Runtime.freeMemory) copy the game in a background thread and
   * simulate battles side by side, all drawing dice from PlainRandomSource's single static
   * generator in whatever order the threads run. Give each ProAI (not FastAI, whose estimator is
   * deterministic) a plain OddsCalculator of its own, which copies and simulates on the AI's
   * own thread.
   */
  static void serialOddsCalculator(final Iterable<? extends IGamePlayer> players) throws Exception {
    final Constructor<?> make = Class.forName("games.strategy.triplea.oddsCalculator.ta.OddsCalculator")
        .getDeclaredConstructor(GameData.class);
    make.setAccessible(true);
    final Field calc = ProAI.class.getDeclaredField("calc");
    calc.setAccessible(true);
    for (final IGamePlayer p : players) {
      if (p instanceof ProAI && !(p instanceof FastAI)) {
        calc.set(p, new ProOddsCalculator((IOddsCalculator) make.newInstance((GameData) null)));
      }
    }
  }

  /** Call before the game file is parsed (parsing creates the units' GUIDs). */
  static void reset(final long seed) throws Exception {
    final AiChoices keyed = AiChoices.install(); // before the first game: Math.random is not compiled yet
    if (keyed != null) {
      keyed.step(seed, 0, "setup");
    }
    seedMathRandom(seed * 0x9E3779B97F4A7C15L + 1);
    seedPlainRandomSource(seed * 0x9E3779B97F4A7C15L + 2);
    resetGuids(++games);
  }

  /**
   * Before each step of a game (PlayRun): Math.random and the simulations' static dice start from
   * a stream of their own keyed by the game's seed, the round and the step (the step's name holds
   * its player: "germanPurchase"); the k-th draw of a step is then the k-th of that key.
   */
  static void step(final long seed, final int round, final String step) throws Exception {
    final AiChoices keyed = AiChoices.install();
    if (keyed != null) {
      keyed.step(seed, round, step); // keyed by the AI's place that asks, too (AiChoices)
    } else {
      mathRandom().setSeed(CommonDice.streamSeed(seed, round, "AI choices|" + step));
    }
    seedPlainRandomSource(CommonDice.streamSeed(seed, round, "AI simulations|" + step));
  }

  /**
   * Math.random(): ProPurchaseUtils.randomizePurchaseOption (every AI purchase), AbstractAI,
   * ProTechAI, ProPoliticsAI, AIPoliticalUtils. Its generator is java.lang.Math's private holder.
   */
  static void seedMathRandom(final long seed) throws Exception {
    mathRandom().setSeed(seed);
  }

  private static Random mathRandom() throws Exception {
    if (mathRandom != null) {
      return mathRandom;
    }
    Math.random(); // initialise the holder
    final Field f = Class.forName("java.lang.Math$RandomNumberGeneratorHolder").getDeclaredField("randomNumberGenerator");
    Random r;
    try {
      f.setAccessible(true); // needs --add-opens java.base/java.lang=ALL-UNNAMED
      r = (Random) f.get(null);
    } catch (final RuntimeException e) { // InaccessibleObjectException: read it through Unsafe
      final Field u = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
      u.setAccessible(true); // jdk.unsupported opens sun.misc
      final sun.misc.Unsafe unsafe = (sun.misc.Unsafe) u.get(null);
      r = (Random) unsafe.getObject(unsafe.staticFieldBase(f), unsafe.staticFieldOffset(f));
    }
    mathRandom = r;
    return r;
  }

  /**
   * PlainRandomSource keeps one static MersenneTwister, seeded from the clock on first use: the
   * dice of the odds calculator (OddsCalculator$DummyDelegateBridge) and of ProAI's turn
   * simulation (ProDummyDelegateBridge).
   */
  static void seedPlainRandomSource(final long seed) throws Exception {
    final Field f = PlainRandomSource.class.getDeclaredField("random");
    f.setAccessible(true);
    f.set(null, new MersenneTwister(seed));
  }

  /**
   * GUID.hashCode() is id ^ vmPrefix.hashCode(), and VMID.hashCode() is its UID's, which holds
   * the clock: every HashSet/HashMap of units (and battles) iterates in a different order in
   * every JVM. Give GUID a VMID whose UID is new UID((short) 0) (hash 0) and whose address bytes
   * name the game (so GUIDs of different games in one JVM never equal), and restart the ids.
   */
  static void resetGuids(final int game) throws Exception {
    final byte[] addr = new byte[8];
    for (int i = 0; i < 4; i++) {
      addr[i] = (byte) (game >>> (8 * i));
    }
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(new VMID());
    }
    final VMID prefix;
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray())) {
      {
        enableResolveObject(true);
      }

      @Override
      protected Object resolveObject(final Object obj) throws IOException {
        if (obj instanceof UID) {
          return new UID((short) 0);
        }
        if (obj instanceof byte[]) {
          return addr.clone();
        }
        return obj;
      }
    }) {
      prefix = (VMID) in.readObject();
    }
    final Field p = GUID.class.getDeclaredField("vmPrefix");
    p.setAccessible(true);
    p.set(null, prefix);
    final Field id = GUID.class.getDeclaredField("lastId");
    id.setAccessible(true);
    id.set(null, new AtomicInteger());
  }
}
