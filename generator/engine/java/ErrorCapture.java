package forge;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Pattern;

/**
 * Collects everything the engine reports outside of the exceptions it throws at us: lines it
 * prints (ClientLogger prints stack traces to System.out/err and carries on), java.util.logging
 * records (UnifiedMessenger logs failed broadcasts, the odds calculator logs aborted workers)
 * and exceptions that kill other threads. Must be installed before any engine class loads,
 * because ClientLogger keeps System.out/err in static finals.
 *
 * <p>Every entry is stamped with the game position (round, step, player) the play loop was at,
 * so a message can name the step that caused it.
 */
final class ErrorCapture {
  /** One captured message. */
  static final class Entry {
    final String channel;
    final String message;
    final String detail;
    final int round;
    final String step;
    final String player;

    Entry(final String channel, final String message, final String detail) {
      this.channel = channel;
      this.message = message;
      this.detail = detail;
      this.round = ErrorCapture.round;
      this.step = ErrorCapture.step;
      this.player = ErrorCapture.player;
    }

    /** An entry positioned where {@code at} was captured (printed lines keep their position). */
    Entry(final String channel, final String message, final String detail, final Entry at) {
      this.channel = channel;
      this.message = message;
      this.detail = detail;
      this.round = at.round;
      this.step = at.step;
      this.player = at.player;
    }

    String toJson() {
      return new Json.Obj().putStr("channel", channel).putStr("message", message).putStr("detail", detail)
          .putNum("round", round).putStr("step", step).putStr("player", player).toString();
    }
  }

  /** Lines that continue a printed stack trace. */
  private static final Pattern TRACE_LINE = Pattern.compile("^(\\s+at |\\s*Caused by: |\\s+\\.\\.\\. \\d+ more|\\s*Suppressed: ).*");
  /** GameParser prints the DTD messages it collected; the harness reads them directly instead. */
  private static final Pattern SAX_LINE = Pattern.compile("^SAXParseException: game: .*");
  private static final int MAX_DETAIL_LINES = 12;
  /** What ServerGame.stopGame prints in headless mode on every successful stop. */
  private static final java.util.Set<String> ROUTINE =
      java.util.Set.of("Attempting to stop game.", "StopGame successful.");

  static volatile int round;
  static volatile String step;
  static volatile String player;

  private static final List<Entry> entries = Collections.synchronizedList(new ArrayList<>());
  /** Printed lines in arrival order: {stream, line} stamped like entries. */
  private static final List<Entry> lines = Collections.synchronizedList(new ArrayList<>());
  /** Throwables already recorded, so one failure reaching us on two channels counts once. */
  private static final Map<Throwable, Boolean> seen = Collections.synchronizedMap(new IdentityHashMap<>());
  private static volatile boolean installed;

  private ErrorCapture() {}

  /** Routes System.out and System.err through line collectors that echo to {@code echo}. */
  static synchronized void install(final PrintStream echo) {
    if (installed) {
      return;
    }
    installed = true;
    System.setOut(new PrintStream(new LineTee("stdout", echo), true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(new LineTee("stderr", echo), true, StandardCharsets.UTF_8));
    final Logger root = Logger.getLogger("");
    // The console handler would print each record a second time into the captured stderr.
    for (final Handler h : root.getHandlers()) {
      root.removeHandler(h);
    }
    root.addHandler(new Handler() {
      @Override
      public void publish(final LogRecord r) {
        if (r.getLevel().intValue() < Level.WARNING.intValue()) {
          return;
        }
        final String text = r.getMessage() == null ? "" : r.getMessage();
        final Throwable t = r.getThrown();
        if (t != null && seen.put(t, Boolean.TRUE) != null) {
          return;
        }
        final String msg = r.getLevel() + " " + r.getLoggerName() + ": " + text
            + (t == null ? "" : (text.isEmpty() ? "" : " ") + ForgeHarness.describe(t));
        entries.add(new Entry("log", msg, t == null ? null : trace(t)));
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    });
    Thread.setDefaultUncaughtExceptionHandler((thread, t) -> {
      if (seen.put(t, Boolean.TRUE) == null) {
        entries.add(new Entry("uncaught", "thread " + thread.getName() + ": " + ForgeHarness.describe(t), trace(t)));
      }
    });
  }

  /** Forget everything captured so far (the next game starts clean). */
  static void reset() {
    entries.clear();
    lines.clear();
    seen.clear();
    round = 0;
    step = null;
    player = null;
  }

  static void position(final int r, final String s, final String p) {
    round = r;
    step = s;
    player = p;
  }

  /** Records a failure on {@code channel} unless the same Throwable was recorded before. */
  static void record(final String channel, final String message, final Throwable t) {
    if (t != null && seen.put(t, Boolean.TRUE) != null) {
      return;
    }
    entries.add(new Entry(channel, message, t == null ? null : trace(t)));
  }

  /**
   * Errors (recorded failures and printed stack traces) and warnings (other printed lines),
   * each in arrival order.
   */
  static List<List<Entry>> drain() {
    final List<Entry> errors;
    synchronized (entries) {
      errors = new ArrayList<>(entries);
    }
    final List<Entry> printed;
    synchronized (lines) {
      printed = new ArrayList<>(lines);
    }
    final List<Entry> warnings = new ArrayList<>();
    for (int i = 0; i < printed.size(); i++) {
      final Entry head = printed.get(i);
      int end = i + 1;
      while (end < printed.size() && TRACE_LINE.matcher(printed.get(end).message).matches()) {
        end++;
      }
      if (end > i + 1) {
        final StringBuilder detail = new StringBuilder();
        for (int k = i + 1; k < end && k <= i + MAX_DETAIL_LINES; k++) {
          detail.append(printed.get(k).message.trim()).append('\n');
        }
        errors.add(new Entry("stackTrace", head.message, detail.toString(), head));
        i = end - 1;
      } else if (!head.message.isBlank() && !SAX_LINE.matcher(head.message).matches()
          && !ROUTINE.contains(head.message)) {
        warnings.add(new Entry(head.channel, head.message, null, head));
      }
    }
    return List.of(errors, warnings);
  }

  private static String trace(final Throwable t) {
    final StringBuilder b = new StringBuilder();
    final StackTraceElement[] frames = t.getStackTrace();
    for (int i = 0; i < frames.length && i < MAX_DETAIL_LINES; i++) {
      b.append("at ").append(frames[i]).append('\n');
    }
    return b.toString();
  }

  /** An OutputStream that echoes bytes and hands every complete line to the capture. */
  private static final class LineTee extends OutputStream {
    private final String name;
    private final PrintStream echo;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    LineTee(final String name, final PrintStream echo) {
      this.name = name;
      this.echo = echo;
    }

    @Override
    public synchronized void write(final int b) {
      echo.write(b);
      if (b == '\n') {
        emit();
      } else {
        line.write(b);
      }
    }

    @Override
    public synchronized void write(final byte[] b, final int off, final int len) {
      for (int i = off; i < off + len; i++) {
        write(b[i]);
      }
    }

    @Override
    public synchronized void flush() {
      echo.flush();
    }

    private void emit() {
      String text = line.toString(StandardCharsets.UTF_8);
      if (text.endsWith("\r")) {
        text = text.substring(0, text.length() - 1);
      }
      line.reset();
      lines.add(new Entry(name, text, null));
    }
  }
}
