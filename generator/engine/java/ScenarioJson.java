package forge;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A minimal JSON writer for scenario facts: objects keep insertion order; values are JSON-able. */
final class ScenarioJson {
  private ScenarioJson() {}

  /** A JSON object under construction. */
  static final class Obj {
    private final Map<String, Object> fields = new LinkedHashMap<>();

    Obj put(final String key, final Object value) {
      fields.put(key, value);
      return this;
    }

    Object get(final String key) {
      return fields.get(key);
    }

    @Override
    public String toString() {
      return write(this);
    }
  }

  static Obj obj() {
    return new Obj();
  }

  static List<Object> list(final Collection<?> items) {
    return new ArrayList<>(items);
  }

  static String write(final Object value) {
    final StringBuilder b = new StringBuilder();
    append(b, value);
    return b.toString();
  }

  private static void append(final StringBuilder b, final Object value) {
    if (value == null) {
      b.append("null");
    } else if (value instanceof Obj) {
      b.append('{');
      boolean first = true;
      for (final Map.Entry<String, Object> e : ((Obj) value).fields.entrySet()) {
        if (!first) {
          b.append(',');
        }
        first = false;
        appendString(b, e.getKey());
        b.append(':');
        append(b, e.getValue());
      }
      b.append('}');
    } else if (value instanceof Map) {
      final Obj o = new Obj();
      for (final Map.Entry<?, ?> e : ((Map<?, ?>) value).entrySet()) {
        o.put(String.valueOf(e.getKey()), e.getValue());
      }
      append(b, o);
    } else if (value instanceof Collection) {
      b.append('[');
      boolean first = true;
      for (final Object item : (Collection<?>) value) {
        if (!first) {
          b.append(',');
        }
        first = false;
        append(b, item);
      }
      b.append(']');
    } else if (value instanceof Boolean || value instanceof Integer || value instanceof Long) {
      b.append(value);
    } else {
      appendString(b, String.valueOf(value));
    }
  }

  private static void appendString(final StringBuilder b, final String s) {
    b.append(Json.str(s)); // one escaping rule for every JSON the harness prints
  }

}
