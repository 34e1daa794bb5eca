package forge;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.UnitType;
import games.strategy.engine.random.IRandomSource;
import games.strategy.triplea.attachments.UnitAttachment;
import games.strategy.triplea.formatter.MyFormatter;

/**
 * Common random numbers for paired games: each roll comes from a stream of its own, keyed by what
 * it is for, so that a battle that is the same in two variants played with one seed rolls the same
 * dice even after the games have diverged elsewhere. (One seeded stream for the whole game, as
 * PlayRun.SeededDice is, shifts every later roll as soon as one battle differs, and from there the
 * two games of a pair roll independent dice.)
 *
 * <p>A stream's key: the game's seed, the round, the step (whose turn: the attacking side of a
 * battle) and what the engine's annotation says the roll is for, with the units left out (the
 * roller, the battle's territory and the battle's round: "Germans roll dice for 3 infantry in
 * Karelia, round 2" is keyed "Germans in Karelia, round 2"; any other roll, a tech roll or a
 * trigger's chance, by its whole annotation). A stream is a SplittableRandom seeded with a hash of
 * its key, and the rolls of one key in a round continue it: die i of a key is the same wherever the
 * key is the same, its index within the battle.
 *
 * <p>Within a battle roll the engine hands the dice out to the units weakest first (DiceRoll sorts
 * them by attack, or defence, before it reads the dice), so one more infantry would shift the dice
 * of every stronger unit. The annotation names the units ("3 armour, 1 artillery and 2 infantry"):
 * when they account for every die asked for, each die is drawn from the stream of its units'
 * strength (the key and the strength), so the k-th die of the strength-3 units of a side in a
 * battle round is the same whatever else rolls beside them: an army one infantry larger rolls the
 * same dice for everything else and one more for its infantry, and a submarine's first strike
 * before the fighters' roll leaves the fighters' dice alone. Otherwise (units that roll twice, a
 * name not found) the dice come from the key's one stream. Games stay reproducible from their
 * seed; the AIs' own choices keep their sources (Determinism), the action policy its stream.
 */
final class CommonDice implements IRandomSource {
  // DiceRoll.getAnnotation: "<player> roll dice for <units> in <territory>, round <battle round>".
  private static final Pattern BATTLE =
      Pattern.compile("^(.*?) roll dice for (.*) in (.*), round (\\d+)$", Pattern.DOTALL);

  private final long seed;
  private final GameData data;
  private final Map<String, SplittableRandom> streams = new HashMap<>(); // this round's, by key
  private int streamsRound = Integer.MIN_VALUE;

  CommonDice(final long seed, final GameData data) {
    this.seed = seed;
    this.data = data;
  }

  /** What a roll is for, without the units rolling: "Germans in Karelia, round 1". */
  static String purpose(final String annotation) {
    if (annotation == null) {
      return "";
    }
    final Matcher m = BATTLE.matcher(annotation);
    return m.matches() ? m.group(1) + " in " + m.group(3) + ", round " + m.group(4) : annotation;
  }

  @Override
  public synchronized int getRandom(final int max, final String annotation) {
    return getRandom(max, 1, annotation)[0];
  }

  @Override
  public synchronized int[] getRandom(final int max, final int count, final String annotation) {
    final int round = data.getSequence().getRound();
    final GameStep step = data.getSequence().getStep();
    if (round != streamsRound) {
      streams.clear();
      streamsRound = round;
    }
    final String key = (step == null ? "" : step.getName()) + "|" + purpose(annotation);
    final Matcher battle = annotation == null ? null : BATTLE.matcher(annotation);
    final int[] strengths = battle != null && battle.matches() ? strengths(battle.group(1), battle.group(2), step, count)
        : null;
    final int[] out = new int[count];
    for (int i = 0; i < count; i++) {
      final String name = strengths == null ? key : key + "|strength " + strengths[i];
      out[i] = streams.computeIfAbsent(name, k -> new SplittableRandom(streamSeed(seed, round, k))).nextInt(max);
    }
    return out;
  }

  /**
   * The strength of the unit each die goes to, as DiceRoll hands them out (units sorted by attack,
   * or defence, weakest first; each unit its rolls); null when the units named do not account for
   * exactly {@code count} dice.
   */
  private int[] strengths(final String rollerName, final String units, final GameStep step, final int count) {
    final PlayerID roller = data.getPlayerList().getPlayerId(rollerName);
    if (roller == null || step == null) {
      return null;
    }
    final boolean attacking = roller.equals(step.getPlayerId());
    // strength -> dice, in the engine's order: weakest first (a stable sort keeps ties together).
    final TreeMap<Integer, Integer> dice = new TreeMap<>();
    final TreeMap<Integer, Integer> diceOfStrong = new TreeMap<>();
    for (final String part : units.replace(" and ", ", ").split(", ")) {
      final String[] words = part.trim().split(" ", 2);
      final UnitType type = words.length == 2 && words[0].matches("\\d+") ? type(words[1], Integer.parseInt(words[0]))
          : null;
      if (type == null) {
        return null;
      }
      final UnitAttachment ua = UnitAttachment.get(type);
      final int strength = attacking ? ua.getAttack(roller) : ua.getDefense(roller);
      final int rolls = Integer.parseInt(words[0]) * (attacking ? ua.getAttackRolls(roller) : ua.getDefenseRolls(roller));
      dice.merge(strength, rolls, Integer::sum);
      diceOfStrong.merge(strength, strength > 0 ? rolls : 0, Integer::sum);
    }
    // A unit without strength may or may not roll, as the engine counts it: whichever adds up.
    for (final TreeMap<Integer, Integer> layout : List.of(dice, diceOfStrong)) {
      final List<Integer> out = new ArrayList<>();
      layout.forEach((strength, n) -> {
        for (int i = 0; i < n; i++) {
          out.add(strength);
        }
      });
      if (out.size() == count) {
        return out.stream().mapToInt(Integer::intValue).toArray();
      }
    }
    return null;
  }

  /** The unit type the annotation names ("fighters" for 2 of fighter), or null. */
  private UnitType type(final String name, final int n) {
    for (final UnitType t : data.getUnitTypeList()) {
      if (t.getName().equals(name) || MyFormatter.pluralize(t.getName(), n).equals(name)) {
        return t;
      }
    }
    return null;
  }

  /** A 64-bit hash of the key (FNV-1a over its bytes, each part mixed by SplitMix64's finaliser). */
  static long streamSeed(final long seed, final int round, final String key) {
    long text = 0xcbf29ce484222325L;
    for (final byte b : key.getBytes(StandardCharsets.UTF_8)) {
      text = (text ^ (b & 0xff)) * 0x100000001b3L;
    }
    long h = mix(seed ^ 0x9E3779B97F4A7C15L);
    h = mix(h ^ round);
    return mix(h ^ text);
  }

  private static long mix(final long value) {
    long z = value;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
