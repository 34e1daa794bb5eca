package forge;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Minimal canonical JSON writer. Values are built bottom-up as JSON text, so a list can be
 * sorted by the text of its elements: that gives one canonical order for any element type.
 * Everything outside printable ASCII is escaped, so the output does not depend on the
 * platform encoding of the JVM.
 */
final class Json {
  static final String NULL = "null";

  private Json() {}

  static String str(final String s) {
    if (s == null) {
      return NULL;
    }
    final StringBuilder b = new StringBuilder(s.length() + 2);
    b.append('"');
    for (int i = 0; i < s.length(); i++) {
      final char c = s.charAt(i);
      switch (c) {
        case '"':
          b.append("\\\"");
          break;
        case '\\':
          b.append("\\\\");
          break;
        case '\n':
          b.append("\\n");
          break;
        case '\r':
          b.append("\\r");
          break;
        case '\t':
          b.append("\\t");
          break;
        case '\b':
          b.append("\\b");
          break;
        case '\f':
          b.append("\\f");
          break;
        default:
          if (c < 0x20 || c > 0x7e) {
            b.append(String.format("\\u%04x", (int) c));
          } else {
            b.append(c);
          }
      }
    }
    return b.append('"').toString();
  }

  static String num(final long n) {
    return Long.toString(n);
  }

  static String num(final double d) {
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      return str(Double.toString(d));
    }
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString((long) d);
    }
    return Double.toString(d);
  }

  static String bool(final boolean b) {
    return b ? "true" : "false";
  }

  /** An object with keys in sorted order; values are JSON texts. */
  static String obj(final Map<String, String> members) {
    final SortedMap<String, String> sorted = members instanceof TreeMap ? (TreeMap<String, String>) members
        : new TreeMap<>(members);
    final StringBuilder b = new StringBuilder();
    b.append('{');
    boolean first = true;
    for (final Map.Entry<String, String> e : sorted.entrySet()) {
      if (!first) {
        b.append(',');
      }
      first = false;
      b.append(str(e.getKey())).append(':').append(e.getValue() == null ? NULL : e.getValue());
    }
    return b.append('}').toString();
  }

  /** An array in the given order (for lists whose engine order has a meaning). */
  static String arr(final List<String> items) {
    final StringBuilder b = new StringBuilder();
    b.append('[');
    for (int i = 0; i < items.size(); i++) {
      if (i > 0) {
        b.append(',');
      }
      b.append(items.get(i) == null ? NULL : items.get(i));
    }
    return b.append(']').toString();
  }

  /** An array sorted by the JSON text of its elements (for lists whose order has no meaning). */
  static String sortedArr(final List<String> items) {
    final List<String> copy = new ArrayList<>(items);
    Collections.sort(copy);
    return arr(copy);
  }

  /** Small helper for building objects fluently. */
  static final class Obj {
    private final TreeMap<String, String> members = new TreeMap<>();

    Obj put(final String key, final String json) {
      members.put(key, json);
      return this;
    }

    Obj putStr(final String key, final String value) {
      return put(key, str(value));
    }

    Obj putNum(final String key, final long value) {
      return put(key, num(value));
    }

    Obj putBool(final String key, final boolean value) {
      return put(key, bool(value));
    }

    boolean isEmpty() {
      return members.isEmpty();
    }

    @Override
    public String toString() {
      return obj(members);
    }
  }
}
