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
// Starting values ("start" of each option): every concrete class is instantiated twice the way the
// parser does (XmlGameElementMapper.getAttachment(javaClass, name, attachable, data): the
// (String, Attachable, GameData) constructor) on two fresh GameData, with two differently named
// attachables of the kind the class is attached to; each option is then read through the engine's
// own raw property read (PropertyUtil.getPropertyFieldObject: field m_<option> or <option>) or,
// when there is no such field, through its public no-argument getter (get<Option>/is<Option>).
// A value that differs between the two instances (e.g. the attachment's name) is "varies".
// For a value with a text, "writesNoChange" tells whether passing that text to the option's string
// setter on a third fresh instance leaves every field of it as it was (the default is a no-op).
// Output is deterministic JSON (sorted keys), no external JSON library needed.

import games.strategy.engine.data.GameData;
import games.strategy.engine.data.IAttachment;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.Attachable;
import games.strategy.engine.data.annotations.GameProperty;
import games.strategy.engine.data.gameparser.XmlGameElementMapper;
import games.strategy.engine.data.properties.GameProperties;
import java.lang.reflect.Array;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
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

  /** An attachable of the kind the parser attaches instances of this class to (attachTo). */
  static Attachable attachableFor(final String simpleName, final String name, final GameData data) {
    switch (simpleName) {
      case "UnitAttachment":
      case "UnitSupportAttachment":
        return new games.strategy.engine.data.UnitType(name, data);
      case "TerritoryAttachment":
      case "CanalAttachment":
        return new games.strategy.engine.data.Territory(name, data);
      case "TerritoryEffectAttachment":
        return new games.strategy.engine.data.TerritoryEffect(name, data);
      case "RelationshipTypeAttachment":
        return new games.strategy.engine.data.RelationshipType(name, data);
      case "TechAbilityAttachment":
        return new games.strategy.triplea.delegate.GenericTechAdvance(name, null, data);
      default:
        return new PlayerID(name, data);
    }
  }

  /** A fresh instance made like GameParser.parseAttachments makes it. */
  static IAttachment newAttachment(final Class<?> c, final String name) {
    final GameData data = new GameData();
    final Attachable attachable = attachableFor(c.getSimpleName(), name + "Owner", data);
    return new XmlGameElementMapper().getAttachment(c.getName(), name, attachable, data)
        .orElseThrow(() -> new IllegalStateException("no parser mapping for " + c.getName()));
  }

  /** {kind, text}: the text an <option value> would carry, when the value has an obvious one. */
  static String[] describe(final Object v) throws Exception {
    if (v == null) {
      return new String[] {"null", null};
    }
    if (v instanceof Boolean) {
      return new String[] {"bool", v.toString()};
    }
    if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
      return new String[] {"int", v.toString()};
    }
    if (v instanceof String) {
      return new String[] {"string", (String) v};
    }
    if (v instanceof java.math.BigDecimal) {
      return new String[] {"decimal", ((java.math.BigDecimal) v).toPlainString()};
    }
    final boolean empty;
    if (v instanceof Collection) {
      empty = ((Collection<?>) v).isEmpty();
    } else if (v instanceof Map) {
      empty = ((Map<?, ?>) v).isEmpty();
    } else if (v.getClass().isArray()) {
      empty = Array.getLength(v) == 0;
    } else {
      Method isEmpty = null;
      try {
        isEmpty = v.getClass().getMethod("isEmpty");
      } catch (final NoSuchMethodException e) {
        // not a container
      }
      if (isEmpty == null || isEmpty.getReturnType() != boolean.class) {
        return new String[] {"object:" + v.getClass().getSimpleName(), null};
      }
      empty = (Boolean) isEmpty.invoke(v);
    }
    return new String[] {(empty ? "empty:" : "nonEmpty:") + v.getClass().getSimpleName(), null};
  }

  /** {via, kind, text} of one option's starting value on one instance. */
  static String[] startOf(final Object inst, final String option) {
    try {
      final Object v = games.strategy.util.PropertyUtil.getPropertyFieldObject(option, inst);
      final String[] d = describe(v);
      return new String[] {"field", d[0], d[1]};
    } catch (final Exception e) {
      // no field m_<option> / <option>: try the getter
    }
    final String cap = Character.toUpperCase(option.charAt(0)) + option.substring(1);
    for (final String g : new String[] {"get" + cap, "is" + cap}) {
      final Method m;
      try {
        m = inst.getClass().getMethod(g);
      } catch (final NoSuchMethodException e) {
        continue;
      }
      if (Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      try {
        final String[] d = describe(m.invoke(inst));
        return new String[] {"getter " + g, d[0], d[1]};
      } catch (final Exception e) {
        final Throwable cause = e.getCause() != null ? e.getCause() : e;
        return new String[] {"getter " + g, "unreadable:" + cause.getClass().getSimpleName(), null};
      }
    }
    return new String[] {"none", "unreadable:noFieldOrGetter", null};
  }

  /** Every instance field of the attachment (up to DefaultAttachment), as text. */
  static Map<String, String> state(final Object inst) throws IllegalAccessException {
    final Map<String, String> out = new TreeMap<>();
    for (Class<?> k = inst.getClass(); k != null && k != Object.class; k = k.getSuperclass()) {
      for (final java.lang.reflect.Field f : k.getDeclaredFields()) {
        if (!Modifier.isStatic(f.getModifiers())) {
          f.setAccessible(true);
          out.put(k.getSimpleName() + "." + f.getName(), String.valueOf(f.get(inst)));
        }
      }
    }
    return out;
  }

  /**
   * Whether giving the option its starting value as text, through the string setter the parser
   * calls, leaves a fresh instance exactly as it was ("true"), changes it ("false"), or throws.
   */
  static String writesNoChange(final Class<?> c, final String option, final String text) {
    try {
      final IAttachment fresh = newAttachment(c, "probeA");
      final Map<String, String> before = state(fresh);
      final String setter = "set" + Character.toUpperCase(option.charAt(0)) + option.substring(1);
      c.getMethod(setter, String.class).invoke(fresh, text);
      return String.valueOf(before.equals(state(fresh)));
    } catch (final java.lang.reflect.InvocationTargetException e) {
      return "throws " + e.getCause().getClass().getSimpleName();
    } catch (final Exception e) {
      return "throws " + e.getClass().getSimpleName();
    }
  }

  /** JSON object describing the starting value of option on two independently made instances. */
  static String startJson(final Class<?> c, final Object a, final Object b, final String option) {
    final String[] sa = startOf(a, option);
    final String[] sb = startOf(b, option);
    final boolean same = java.util.Objects.equals(sa[1], sb[1]) && java.util.Objects.equals(sa[2], sb[2]);
    final StringBuilder o = new StringBuilder("{\"via\": ").append(quote(sa[0]));
    o.append(", \"kind\": ").append(quote(same ? sa[1] : "varies"));
    if (same && sa[2] != null) {
      o.append(", \"value\": ").append(quote(sa[2]));
      o.append(", \"writesNoChange\": ").append(quote(writesNoChange(c, option, sa[2])));
    }
    return o.append('}').toString();
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
      final IAttachment probeA = newAttachment(c, "probeA");
      final IAttachment probeB = newAttachment(c, "probeB");
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
        o.append("]");
        final String option = decapitalize(m.getName().substring(3));
        o.append(", \"start\": ").append(startJson(c, probeA, probeB, option)).append('}');
        opts.put(option, o.toString());
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
