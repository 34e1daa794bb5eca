package forge;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.xml.sax.SAXParseException;

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameParser;

/**
 * Command-line harness around the TripleA 1.9 engine.
 *
 * <pre>
 * java -cp CACHE:triplea.jar forge.ForgeHarness dump FILE...
 * java -cp CACHE:triplea.jar forge.ForgeHarness play [--rounds N] [--ai fast|pro|weak] [--actions POLICY]
 *     [--seed S] FILE [--seed S] FILE...
 * </pre>
 *
 * Output of "dump": JSON lines on stdout, one per FILE in argument order:
 * {"path": FILE-as-given, "dump": DOC}. DOC is the canonical GameData (see GameDump) plus
 * "saxErrors", or {"error": "...", "saxErrors": [...]} when parsing failed. Everything the engine
 * itself prints (System.out and System.err) goes to stderr, so stdout carries only JSON.
 *
 * <p>Output of "play": JSON lines on stdout. While a game runs, one {"event": "step", "path",
 * "round", "index", "steps", "rounds", "step"} per step started (for progress display); after
 * it, {"event": "report", "path": FILE-as-given, "report": REPORT} (see PlayReport). Files are
 * played one after the other in this JVM, each with the last --seed and --actions before it; --actions is the
 * ActionPolicy for the user and political actions the AIs do not take themselves. With --rounds 0 a file is only parsed. Exit status 3
 * when the engine itself cannot be prepared (no ./game_engine.properties).
 */
public final class ForgeHarness {
  private ForgeHarness() {}

  public static void main(final String[] args) throws Exception {
    ParentWatch.start();
    // Before any engine class loads: ClientLogger caches System.out/err in static finals, and
    // the engine reads these properties in static initialisers.
    final PrintStream json = new PrintStream(new FileOutputStream(FileDescriptor.out), false, StandardCharsets.UTF_8);
    final PrintStream stderr = new PrintStream(new FileOutputStream(FileDescriptor.err), true, StandardCharsets.UTF_8);
    if (args.length > 0 && args[0].equals("play")) {
      // Play mode judges a game by what the engine prints and logs, so capture all of it.
      ErrorCapture.install(stderr);
    } else {
      System.setOut(stderr);
    }
    System.setProperty("java.awt.headless", "true");
    System.setProperty("triplea.headless", "true");
    if (System.getProperty("java.util.prefs.PreferencesFactory") == null) {
      System.setProperty("java.util.prefs.PreferencesFactory", MemPrefs.Factory.class.getName());
    }
    if (args.length < 1) {
      usage();
      return;
    }
    int status = 0;
    switch (args[0]) {
      case "dump":
        for (int i = 1; i < args.length; i++) {
          json.print("{\"path\":" + Json.str(args[i]) + ",\"dump\":" + dumpFile(args[i]) + "}\n");
          json.flush();
        }
        break;
      case "play":
        status = play(args, json);
        break;
      default:
        usage();
        status = 2;
    }
    json.flush();
    // Engine threads (if any were started) must not keep the JVM alive.
    System.exit(status);
  }

  private static void usage() {
    System.err.println("usage: forge.ForgeHarness dump FILE...");
    System.err.println("       forge.ForgeHarness play [--rounds N] [--ai fast|pro|weak] [--actions none|random|cover|all-early|rules[:P]]"
        + " [--seed S] FILE [--seed S] FILE...");
  }

  private static int play(final String[] args, final PrintStream json) {
    int rounds = 2;
    String ai = "fast";
    String actions = "none";
    long seed = 0;
    // A --seed applies to the files after it, so one JVM can play one file with many seeds.
    final List<String> files = new ArrayList<>();
    final List<Long> seeds = new ArrayList<>();
    final List<String> policies = new ArrayList<>();
    try {
      for (int i = 1; i < args.length; i++) {
        switch (args[i]) {
          case "--rounds":
            rounds = Integer.parseInt(args[++i]);
            break;
          case "--ai":
            ai = args[++i];
            break;
          case "--actions": // like --seed, for the files after it
            actions = args[++i];
            break;
          case "--seed":
            seed = Long.parseLong(args[++i]);
            break;
          default:
            files.add(args[i]);
            seeds.add(seed);
            policies.add(actions);
        }
      }
    } catch (final RuntimeException e) {
      usage();
      return 2;
    }
    if (!PlayRun.AI_TYPES.containsKey(ai) || !policies.stream().allMatch(ActionPolicy::known) || files.isEmpty()) {
      usage();
      return 2;
    }
    try {
      PlayRun.prepareEngine();
    } catch (final Throwable t) {
      System.err.println("forge harness: cannot prepare the engine: " + describe(t));
      return 3;
    }
    for (int i = 0; i < files.size(); i++) {
      final String file = files.get(i);
      final String report = new PlayRun(file, rounds, ai, seeds.get(i), policies.get(i), json).run();
      json.print("{\"event\":\"report\",\"path\":" + Json.str(file) + ",\"report\":" + report + "}\n");
      json.flush();
    }
    return 0;
  }

  /** Parses one file with the real engine; never throws. */
  static String dumpFile(final String path) {
    final GameParser parser = new GameParser(path);
    GameData data = null;
    Throwable failure = null;
    try (InputStream in = SafeInput.open(path)) {
      data = parser.parse(in, new AtomicReference<>(), false);
    } catch (final Throwable t) {
      failure = t;
    }
    final String sax = saxErrors(parser);
    if (failure == null) {
      try {
        return new GameDump(data).render().put("saxErrors", sax).toString();
      } catch (final Throwable t) {
        failure = new IllegalStateException("forge harness could not render the parsed game", t);
      }
    }
    return new Json.Obj().putStr("error", describe(failure)).put("saxErrors", sax).toString();
  }

  /** "class: message <- class: message ..." for the exception and its causes. */
  static String describe(final Throwable t) {
    final StringBuilder b = new StringBuilder();
    final List<Throwable> chain = new ArrayList<>();
    for (Throwable c = t; c != null && !chain.contains(c) && chain.size() < 20; c = c.getCause()) {
      chain.add(c);
    }
    for (final Throwable c : chain) {
      if (b.length() > 0) {
        b.append(" <- ");
      }
      b.append(c.getClass().getName());
      if (c.getMessage() != null) {
        b.append(": ").append(c.getMessage());
      }
    }
    return b.toString();
  }

  /**
   * DTD/SAX problems the parser only collects and prints (private field errorsSAX); a step
   * naming an unknown player, for example, shows up nowhere else.
   */
  static String saxErrors(final GameParser parser) {
    final List<String> out = new ArrayList<>();
    try {
      final Field f = GameParser.class.getDeclaredField("errorsSAX");
      f.setAccessible(true);
      final Collection<?> errors = (Collection<?>) f.get(parser);
      for (final Object o : new ArrayList<>(errors)) {
        if (o instanceof SAXParseException) {
          final SAXParseException e = (SAXParseException) o;
          out.add(Json.str("line " + e.getLineNumber() + ", column " + e.getColumnNumber() + ": " + e.getMessage()));
        } else {
          out.add(Json.str(String.valueOf(o)));
        }
      }
    } catch (final ReflectiveOperationException | RuntimeException e) {
      out.add(Json.str("forge harness could not read GameParser.errorsSAX: " + describe(e)));
    }
    // Document order: the parser reports them as it reads.
    return Json.arr(out);
  }
}
