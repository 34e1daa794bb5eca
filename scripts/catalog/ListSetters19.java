// Lists, by reflection on the TripleA 1.9 jar, what the 1.9 game parser can set on each attachment
// class and which game properties games.strategy.triplea.Properties reads (with their defaults).
//
// Run (no compilation step needed, Java 11+ single-file launch):
//   java -cp /usr/share/games/triplea/bin/triplea.jar scripts/catalog/ListSetters19.java JAR > out.json
//
// 1.9's GameParser.setValues() resolves <option name="n"> with
//   attachment.getClass().getMethod("set" + capitalizeFirstLetter(n), String.class)
// so an option exists iff the concrete class has a public (possibly inherited) set*(String) method.
// The @GameProperty annotation (runtime-retained in 1.9) tells whether a setter "adds" (accumulates).
// Properties are found by calling every public static Properties.get*(GameData[, PlayerID]) method
// against a GameData whose GameProperties records each get(name, default) call.
// Output is deterministic JSON (sorted keys), no external JSON library needed.

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.IAttachment;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.annotations.GameProperty;
import games.strategy.engine.data.properties.GameProperties;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

public class ListSetters19 {
  private static final String PKG = "games.strategy.triplea.attachments.";

  /** GameProperties that returns the caller's default and remembers (name -> type, default). */
  static final class RecordingProperties extends GameProperties {
    final Map<String, String[]> seen = new TreeMap<>();
    final Map<String, List<String>> readers = new TreeMap<>();
    String currentReader = "";

    RecordingProperties(final GameData data) {
      super(data);
    }

    private void record(final String name, final String type, final String def) {
      seen.putIfAbsent(name, new String[] {type, def});
      readers.computeIfAbsent(name, k -> new ArrayList<>());
      if (!readers.get(name).contains(currentReader)) {
        readers.get(name).add(currentReader);
      }
    }

    @Override
    public boolean get(final String name, final boolean def) {
      record(name, "bool", String.valueOf(def));
      return def;
    }

    @Override
    public int get(final String name, final int def) {
      record(name, "int", String.valueOf(def));
      return def;
    }

    @Override
    public String get(final String name, final String def) {
      record(name, "string", def == null ? null : quote(def));
      return def;
    }

    @Override
    public Object get(final String name) {
      record(name, "object", null);
      return null;
    }
  }

  static final class RecordingData extends GameData {
    RecordingProperties props;

    @Override
    public GameProperties getProperties() {
      if (props == null) {
        props = new RecordingProperties(this);
      }
      return props;
    }
  }

  static String quote(final String s) {
    final StringBuilder sb = new StringBuilder("\"");
    for (final char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        sb.append('\\').append(c);
      } else if (c < 0x20) {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.append('"').toString();
  }

  static String decapitalize(final String s) {
    return Character.toLowerCase(s.charAt(0)) + s.substring(1);
  }

  public static void main(final String[] args) throws Exception {
    final String jarPath = args.length > 0 ? args[0] : "/usr/share/games/triplea/bin/triplea.jar";
    final List<String> classNames = new ArrayList<>();
    try (JarFile jar = new JarFile(jarPath)) {
      final Enumeration<JarEntry> en = jar.entries();
      while (en.hasMoreElements()) {
        final String n = en.nextElement().getName();
        if (n.startsWith(PKG.replace('.', '/')) && n.endsWith(".class") && !n.contains("$")) {
          final String cn = n.substring(0, n.length() - 6).replace('/', '.');
          if (cn.lastIndexOf('.') == PKG.length() - 1) {
            classNames.add(cn);
          }
        }
      }
    }
    final Map<String, String> classes = new TreeMap<>();
    for (final String cn : classNames) {
      final Class<?> c = Class.forName(cn, false, ListSetters19.class.getClassLoader());
      if (!IAttachment.class.isAssignableFrom(c) || c.isInterface()
          || Modifier.isAbstract(c.getModifiers())) {
        continue;
      }
      final Map<String, String> opts = new TreeMap<>();  // option -> JSON object
      for (final Method m : c.getMethods()) {
        if (Modifier.isStatic(m.getModifiers()) || !m.getName().startsWith("set")
            || m.getName().length() <= 3 || m.getParameterCount() != 1
            || m.getParameterTypes()[0] != String.class) {
          continue;
        }
        final StringBuilder o = new StringBuilder();
        o.append("{\"declaredIn\": ").append(quote(m.getDeclaringClass().getSimpleName()));
        final GameProperty gp = m.getAnnotation(GameProperty.class);
        if (gp != null) {
          o.append(", \"adds\": ").append(gp.adds());
          o.append(", \"gameProperty\": ").append(gp.gameProperty());
          o.append(", \"virtual\": ").append(gp.virtual());
          o.append(", \"xmlProperty\": ").append(gp.xmlProperty());
        }
        // Typed overloads of the same setter and the getter's return type: a hint for scalar options.
        final java.util.TreeSet<String> hints = new java.util.TreeSet<>();
        for (final Method other : c.getMethods()) {
          if (other.getName().equals(m.getName()) && other.getParameterCount() == 1
              && other.getParameterTypes()[0] != String.class) {
            hints.add(other.getParameterTypes()[0].getSimpleName());
          }
          final String base = m.getName().substring(3);
          if (other.getParameterCount() == 0
              && (other.getName().equals("get" + base) || other.getName().equals("is" + base))) {
            hints.add("getter:" + other.getReturnType().getSimpleName());
          }
        }
        o.append(", \"typeHints\": [");
        String hs = "";
        for (final String h : hints) {
          o.append(hs).append(quote(h));
          hs = ", ";
        }
        o.append("]}");
        opts.put(decapitalize(m.getName().substring(3)), o.toString());
      }
      final java.util.TreeSet<String> supertypes = new java.util.TreeSet<>();
      for (Class<?> k = c; k != null && k != Object.class; k = k.getSuperclass()) {
        if (k != c) {
          supertypes.add(k.getSimpleName());
        }
        for (final Class<?> i : k.getInterfaces()) {
          if (i.getName().startsWith("games.strategy.")) {
            supertypes.add(i.getSimpleName());
          }
        }
      }
      final StringBuilder sb = new StringBuilder();
      sb.append("{\"javaClass\": ").append(quote(cn)).append(", \"supertypes\": [");
      String ss = "";
      for (final String st : supertypes) {
        sb.append(ss).append(quote(st));
        ss = ", ";
      }
      sb.append("], \"setters\": {");
      String sep = "";
      for (final Map.Entry<String, String> e : opts.entrySet()) {
        sb.append(sep).append("\n      ").append(quote(e.getKey())).append(": ").append(e.getValue());
        sep = ", ";
      }
      sb.append("}}");
      classes.put(c.getSimpleName(), sb.toString());
    }

    final RecordingData data = new RecordingData();
    final RecordingProperties props = (RecordingProperties) data.getProperties();
    final PlayerID player = new PlayerID("{player}", data);
    final Class<?> propsClass = Class.forName("games.strategy.triplea.Properties");
    final List<Method> getters = new ArrayList<>();
    for (final Method m : propsClass.getDeclaredMethods()) {
      if (Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers())) {
        getters.add(m);
      }
    }
    getters.sort((a, b) -> a.getName().compareTo(b.getName()));
    for (final Method m : getters) {
      final Class<?>[] p = m.getParameterTypes();
      final Object[] callArgs = new Object[p.length];
      boolean ok = true;
      for (int i = 0; i < p.length; i++) {
        if (p[i] == GameData.class) {
          callArgs[i] = data;
        } else if (p[i] == PlayerID.class) {
          callArgs[i] = player;
        } else {
          ok = false;
        }
      }
      if (!ok) {
        System.err.println("skipping Properties." + m.getName());
        continue;
      }
      props.currentReader = m.getName();
      m.invoke(null, callArgs);
    }

    final StringBuilder out = new StringBuilder("{\n  \"classes\": {\n");
    String sep = "";
    for (final Map.Entry<String, String> e : classes.entrySet()) {
      out.append(sep).append("    ").append(quote(e.getKey())).append(": ").append(e.getValue());
      sep = ",\n";
    }
    out.append("\n  },\n  \"properties\": {\n");
    sep = "";
    for (final Map.Entry<String, String[]> e : props.seen.entrySet()) {
      out.append(sep).append("    ").append(quote(e.getKey())).append(": {\"type\": ")
          .append(quote(e.getValue()[0])).append(", \"default\": ").append(e.getValue()[1])
          .append(", \"readers\": [");
      String s2 = "";
      for (final String r : props.readers.get(e.getKey())) {
        out.append(s2).append(quote(r));
        s2 = ", ";
      }
      out.append("]}");
      sep = ",\n";
    }
    out.append("\n  }\n}\n");
    System.out.print(out);
  }
}
