package forge;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * The driver of the engine scenarios that prove rules in the real TripleA 1.9 engine.
 *
 * <pre>
 * java -cp CACHE:triplea.jar forge.Scenario SCENARIO FILE [MAP_PROPERTIES_FOLDER]
 * java -cp CACHE:triplea.jar forge.Scenario --batch LIST
 * java -cp CACHE:triplea.jar forge.Scenario --which SCENARIO...
 * </pre>
 *
 * The scenarios are not here: each rules folder's proofs (rules/VARIANT/proofs/) provide theirs
 * through classes implementing Proof, which the harness compiles with this driver and lists for it;
 * the tool's own scenarios, which play any game, are AnyGameProofs'. Each scenario loads FILE (the
 * built game) into fresh headless games, sets the state up through the engine's change objects,
 * runs the steps and delegates the rule lives in, and prints one JSON object of facts on stdout
 * (everything the engine prints goes to stderr). Exit status 2 for an unknown scenario, 1 when the
 * scenario itself failed (the JSON then has "error"). --which prints, for each name, the class that
 * plays it (null for none).
 */
public final class Scenario {
  private Scenario() {}

  public static void main(final String[] args) throws Exception {
    ParentWatch.start();
    final PrintStream json = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    System.setOut(new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8));
    System.setProperty("java.awt.headless", "true");
    System.setProperty("triplea.headless", "true");
    if (args.length >= 1 && args[0].equals("--which")) {
      which(Arrays.asList(args).subList(1, args.length), json);
      System.exit(0);
      return;
    }
    if (args.length != 2 && args.length != 3) {
      System.err.println("usage: forge.Scenario SCENARIO FILE [MAP_PROPERTIES_FOLDER] | --batch LIST | --which NAME...");
      System.exit(2);
    }
    if (args.length == 2 && args[0].equals("--batch")) {
      batch(args[1], json);
      System.exit(0);
      return;
    }
    final String name = args[0];
    final String file = args[1];
    ScenarioGame.resources = args.length == 3 ? args[2] : null;
    if (!known(name)) {
      System.err.println("unknown scenario: " + name);
      System.exit(2);
      return;
    }
    final ScenarioJson.Obj facts = runCatching(name, file);
    json.println(ScenarioJson.obj().put("scenario", name).put("facts", facts));
    json.flush();
    System.exit(facts.get("error") != null ? 1 : 0);
  }

  /**
   * Many scenario runs in one JVM: LIST has one "SCENARIO TAB FILE [TAB MAP_PROPERTIES_FOLDER]" a
   * line; each prints one JSON line {"index", "scenario", "facts", "ms"} as soon as it ends (ms: how
   * long the run took, which the mutation sweep plays cheap scenarios first by). Each run loads
   * its game afresh, so a run never sees another's state; a JVM started once saves its start and
   * the engine's class loading for every run after the first (the mutation sweep plays hundreds).
   */
  private static void batch(final String list, final PrintStream json) throws Exception {
    final List<String> lines = Files.readAllLines(Paths.get(list), StandardCharsets.UTF_8);
    for (int index = 0; index < lines.size(); index++) {
      final String[] parts = lines.get(index).split("\t");
      ScenarioGame.resources = parts.length > 2 ? parts[2] : null;
      final long started = System.nanoTime();
      final ScenarioJson.Obj facts = known(parts[0])
          ? runCatching(parts[0], parts[1])
          : ScenarioJson.obj().put("error", "unknown scenario: " + parts[0]);
      final long ms = (System.nanoTime() - started) / 1_000_000;
      json.println(ScenarioJson.obj().put("index", index).put("scenario", parts[0]).put("facts", facts).put("ms", ms));
      json.flush();
    }
  }

  private static ScenarioJson.Obj runCatching(final String name, final String file) {
    try {
      return run(name, file);
    } catch (final Throwable t) {
      t.printStackTrace();
      return ScenarioJson.obj().put("error", ForgeHarness.describe(t));
    }
  }

  /** The proof classes, in name order: the tool's own, then those the harness lists (see Proof). */
  private static List<Proof> loaded;
  /** The proof classes' list, written by the harness's compile next to this class. */
  private static final String LISTED = "proofs.txt";

  private static List<Proof> proofs() throws Exception {
    if (loaded == null) {
      final List<Proof> found = new ArrayList<>();
      found.add(new AnyGameProofs());
      for (final String name : listed()) {
        final Class<?> c = Class.forName(name, false, Scenario.class.getClassLoader());
        if (Proof.class.isAssignableFrom(c) && !c.isInterface()) {
          final java.lang.reflect.Constructor<?> make = c.getDeclaredConstructor();
          make.setAccessible(true);
          found.add((Proof) make.newInstance());
        }
      }
      loaded = found;
    }
    return loaded;
  }

  private static List<String> listed() throws Exception {
    try (InputStream in = Scenario.class.getResourceAsStream(LISTED)) {
      if (in == null) {
        return Collections.emptyList();
      }
      final List<String> names = new ArrayList<>();
      for (final String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (!line.isBlank()) {
          names.add(line.trim());
        }
      }
      Collections.sort(names);
      return names;
    }
  }

  /** The classes that play scenario NAME (one, or none when nobody does; two is an error). */
  private static List<Proof> players(final String name) throws Exception {
    final List<Proof> found = new ArrayList<>();
    for (final Proof proof : proofs()) {
      if (proof.scenario(name) != null) {
        found.add(proof);
      }
    }
    return found;
  }

  private static boolean known(final String name) throws Exception {
    return !players(name).isEmpty();
  }

  private static ScenarioJson.Obj run(final String name, final String file) throws Exception {
    final List<Proof> found = players(name);
    if (found.isEmpty()) {
      throw new IllegalArgumentException("unknown scenario: " + name);
    }
    if (found.size() > 1) {
      throw new IllegalStateException("scenario " + name + " is played by " + found.get(0).getClass().getName()
          + " and " + found.get(1).getClass().getName());
    }
    return found.get(0).scenario(name).facts(file);
  }

  /** For each NAME, the class that plays it, or null: what the tests hold the manifests against. */
  private static void which(final List<String> names, final PrintStream json) throws Exception {
    final ScenarioJson.Obj out = ScenarioJson.obj();
    for (final String name : names) {
      final List<String> classes = new ArrayList<>();
      for (final Proof proof : players(name)) {
        classes.add(proof.getClass().getName());
      }
      out.put(name, classes.isEmpty() ? null : String.join(" ", classes));
    }
    json.println(out);
    json.flush();
  }
}
