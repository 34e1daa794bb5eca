package forge;

import java.lang.reflect.Field;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

/**
 * The generators behind Math.random() and Collections.shuffle(list), which the 1.9 AIs draw their
 * random choices from (a purchase's weighted pick among the units it rates, the order it weighs
 * political actions in, a tech decision), made into common random numbers: each draw comes from a
 * stream keyed by what it is for, as CommonDice's rolls are. The key: the game's seed, the round,
 * the step (whose turn and which phase) and the place in the AI's code that asks (the two innermost
 * calling methods and their bytecode offsets: ProPurchaseAI.purchaseLandUnits's pick, not
 * purchaseDefenders'); a draw's index within its key in the step is where the stream has got to.
 * So when a rule changes how many draws one part of a plan makes, the other parts of the plan and
 * every later step still draw what the other game of the pair draws.
 *
 * <p>Installed in place of Math's and Collections' own generators once a JVM, before the first
 * game (Math.random reads a static final field: it is replaced before any code that calls it has
 * been compiled). Where it cannot be installed, Determinism reseeds Math's generator at every step
 * instead (the same key without the place).
 */
final class AiChoices extends Random {
  private static final long serialVersionUID = 1L;
  // Frames of these classes are the generator's own, not the AI's place that asks.
  private static final List<String> OWN = List.of(AiChoices.class.getName(), Random.class.getName(),
      Math.class.getName(), "java.lang.Math$RandomNumberGeneratorHolder", "java.lang.StrictMath",
      java.util.Collections.class.getName());
  private static final StackWalker WALKER = StackWalker.getInstance();

  private static AiChoices installed;

  private long seed;
  private int round;
  private String step = "";
  private final transient Map<String, SplittableRandom> streams = new HashMap<>();

  private AiChoices() {
    super(0);
  }

  /** Math's generator replaced by a keyed one; null where the JVM does not let it be. */
  static synchronized AiChoices install() {
    if (installed != null) {
      return installed;
    }
    try {
      Math.random(); // initialise the holder
      final Field f =
          Class.forName("java.lang.Math$RandomNumberGeneratorHolder").getDeclaredField("randomNumberGenerator");
      final Field u = Class.forName("sun.misc.Unsafe").getDeclaredField("theUnsafe");
      u.setAccessible(true); // jdk.unsupported opens sun.misc
      final sun.misc.Unsafe unsafe = (sun.misc.Unsafe) u.get(null);
      final AiChoices keyed = new AiChoices();
      unsafe.putObjectVolatile(unsafe.staticFieldBase(f), unsafe.staticFieldOffset(f), keyed);
      if (unsafe.getObjectVolatile(unsafe.staticFieldBase(f), unsafe.staticFieldOffset(f)) == keyed) {
        installed = keyed;
      }
      // Collections.shuffle(list) draws from a generator of its own, made unseeded on first use:
      // the AIs' political choices (ProPoliticsAI) shuffle with it. Keyed alike.
      final Field shuffle = java.util.Collections.class.getDeclaredField("r");
      unsafe.putObjectVolatile(unsafe.staticFieldBase(shuffle), unsafe.staticFieldOffset(shuffle), keyed);
    } catch (final ReflectiveOperationException | RuntimeException e) {
      installed = null;
    }
    return installed;
  }

  /** A new step: every key's stream starts afresh from (seed, round, step). */
  synchronized void step(final long gameSeed, final int gameRound, final String stepName) {
    seed = gameSeed;
    round = gameRound;
    step = stepName;
    streams.clear();
  }

  @Override
  public double nextDouble() {
    return stream().nextDouble();
  }

  @Override
  protected int next(final int bits) {
    return stream().nextInt() >>> (32 - bits);
  }

  private synchronized SplittableRandom stream() {
    if (streams == null) { // Random's constructor calls setSeed, which may ask before the fields exist
      return new SplittableRandom(0);
    }
    final String place = WALKER.walk(frames -> frames.filter(f -> !OWN.contains(f.getClassName())).limit(2)
        .map(f -> f.getClassName() + "." + f.getMethodName() + "@" + f.getByteCodeIndex())
        .collect(Collectors.joining(" <- ")));
    return streams.computeIfAbsent(place,
        k -> new SplittableRandom(CommonDice.streamSeed(seed, round, "AI choices|" + step + "|" + k)));
  }
}
