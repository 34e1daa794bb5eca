package forge;

import java.awt.Color;
import java.io.File;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

import games.strategy.engine.data.Attachable;
import games.strategy.engine.data.GameData;
import games.strategy.engine.data.GameStep;
import games.strategy.engine.data.IAttachment;
import games.strategy.engine.data.Named;
import games.strategy.engine.data.PlayerID;
import games.strategy.engine.data.ProductionFrontier;
import games.strategy.engine.data.ProductionRule;
import games.strategy.engine.data.RelationshipType;
import games.strategy.engine.data.RepairFrontier;
import games.strategy.engine.data.RepairRule;
import games.strategy.engine.data.Resource;
import games.strategy.engine.data.ResourceCollection;
import games.strategy.engine.data.Territory;
import games.strategy.engine.data.TerritoryEffect;
import games.strategy.engine.data.TechnologyFrontier;
import games.strategy.engine.data.Unit;
import games.strategy.engine.data.UnitType;
import games.strategy.engine.data.properties.GameProperties;
import games.strategy.engine.data.properties.IEditableProperty;
import games.strategy.engine.delegate.IDelegate;
import games.strategy.triplea.TripleAUnit;
import games.strategy.triplea.delegate.TechAdvance;
import games.strategy.util.IntegerMap;
import games.strategy.util.Tuple;
import games.strategy.util.Version;

/**
 * Renders a parsed GameData as one canonical JSON document: maps keyed and sorted by name,
 * unordered collections sorted, engine order kept only where it carries meaning (players,
 * resources, sequence, frontier rules, tech frontiers). Nothing that depends on JVM identity
 * (hash codes, GUIDs, unit ids, the GAME_UUID property) is emitted.
 *
 * <p>Top-level keys: game {name, version, diceSides, loader, roundOffset}; players [in order:
 * name, optional, canBeDisabled, defaultType, hidden, alliances, resources, heldUnits,
 * productionFrontier, repairFrontier, techFrontiers, attachments]; alliances {name: [players]};
 * relationships [{players [a, b], type, attachments} per pair, player order]; relationshipTypes,
 * territoryEffects, unitTypes {name: {attachments}}; resources [{name, attachments}];
 * territories {name: {water, owner, connections, units {owner: {type: n}}, damagedUnits?,
 * attachments}}; productionRules / repairRules {name: {costs, results}}; productionFrontiers /
 * repairFrontiers {name: [rules in order]}; technologies {name: {class, property, attachments}};
 * delegates {name: {class, display}}; sequence [{name, delegate, player, display, maxRunCount,
 * properties}]; properties {name: value}; editableProperties {name: {type, min?, max?, values?,
 * perPlayer?}}; otherAttachments {"owner/name": attachment} (created, then replaced).
 * An attachment is {class, options {getter-derived name: value}}.
 */
final class GameDump {
  /** Getters that lead back to the owner or the whole game, or duplicate the map key. */
  private static final Set<String> SKIPPED_GETTERS = Set.of("getClass", "getAttachedTo", "getData", "getName");

  private final GameData data;
  /** Every attachment already rendered, to spot ones the engine keeps somewhere we did not walk. */
  private final Map<IAttachment, Boolean> seen = new IdentityHashMap<>();

  GameDump(final GameData data) {
    this.data = data;
  }

  Json.Obj render() {
    final Json.Obj root = new Json.Obj();
    root.put("game", game());
    root.put("players", players());
    root.put("alliances", alliances());
    root.put("relationships", relationships());
    root.put("relationshipTypes", namedAttachables(data.getRelationshipTypeList().getAllRelationshipTypes()));
    root.put("resources", resources());
    root.put("territories", territories());
    root.put("territoryEffects", namedAttachables(data.getTerritoryEffectList().values()));
    root.put("unitTypes", namedAttachables(data.getUnitTypeList().getAllUnitTypes()));
    root.put("productionRules", productionRules());
    root.put("productionFrontiers", productionFrontiers());
    root.put("repairRules", repairRules());
    root.put("repairFrontiers", repairFrontiers());
    root.put("technologies", technologies());
    root.put("delegates", delegates());
    root.put("sequence", sequence());
    renderProperties(root);
    // Last, so that it sees everything the walk above rendered.
    root.put("otherAttachments", otherAttachments());
    return root;
  }

  // ---------------------------------------------------------------- sections

  private String game() {
    final Version v = data.getGameVersion();
    return new Json.Obj()
        .putStr("name", data.getGameName())
        .putStr("version", v == null ? null : v.getExactVersion() != null ? v.getExactVersion() : v.toString())
        .putNum("diceSides", data.getDiceSides())
        .putStr("loader", data.getGameLoader() == null ? null : data.getGameLoader().getClass().getName())
        .putNum("roundOffset", data.getSequence().getRoundOffset())
        .toString();
  }

  private String players() {
    final List<String> out = new ArrayList<>();
    for (final PlayerID p : data.getPlayerList().getPlayers()) {
      final Json.Obj o = new Json.Obj()
          .putStr("name", p.getName())
          .putBool("optional", p.getOptional())
          .putBool("canBeDisabled", p.getCanBeDisabled())
          .putStr("defaultType", p.getDefaultType())
          .putBool("hidden", p.isHidden())
          .put("alliances", strings(data.getAllianceTracker().getAlliancesPlayerIsIn(p)))
          .put("resources", resourceQuantities(p))
          .put("heldUnits", unitCounts(p.getUnits().getUnits()))
          .putStr("productionFrontier", nameOf(p.getProductionFrontier()))
          .putStr("repairFrontier", nameOf(p.getRepairFrontier()))
          .put("techFrontiers", techFrontiers(p))
          .put("attachments", attachments(p));
      out.add(o.toString());
    }
    return Json.arr(out);
  }

  private String resourceQuantities(final PlayerID p) {
    final Json.Obj o = new Json.Obj();
    for (final Resource r : data.getResourceList().getResources()) {
      final int q = p.getResources().getQuantity(r);
      if (q != 0) {
        o.putNum(r.getName(), q);
      }
    }
    return o.toString();
  }

  private String techFrontiers(final PlayerID p) {
    final List<String> out = new ArrayList<>();
    for (final TechnologyFrontier f : p.getTechnologyFrontierList().getFrontiers()) {
      final List<String> techs = new ArrayList<>();
      for (final TechAdvance t : f.getTechs()) {
        techs.add(Json.str(t.getName()));
      }
      out.add(new Json.Obj().putStr("name", f.getName()).put("techs", Json.arr(techs)).toString());
    }
    return Json.arr(out);
  }

  private String alliances() {
    final Json.Obj o = new Json.Obj();
    for (final String alliance : data.getAllianceTracker().getAlliances()) {
      final Set<PlayerID> members = data.getAllianceTracker().getPlayersInAlliance(alliance);
      final List<String> names = new ArrayList<>();
      // Player order, not set order: the set is hash-ordered.
      for (final PlayerID p : data.getPlayerList().getPlayers()) {
        if (members.contains(p)) {
          names.add(Json.str(p.getName()));
        }
      }
      o.put(alliance, Json.arr(names));
    }
    return o.toString();
  }

  private String relationships() {
    final List<PlayerID> players = data.getPlayerList().getPlayers();
    final List<String> out = new ArrayList<>();
    for (int i = 0; i < players.size(); i++) {
      for (int j = i + 1; j < players.size(); j++) {
        final RelationshipType type =
            data.getRelationshipTracker().getRelationshipType(players.get(i), players.get(j));
        out.add(new Json.Obj()
            .put("players", Json.arr(List.of(Json.str(players.get(i).getName()), Json.str(players.get(j).getName()))))
            .putStr("type", nameOf(type))
            .put("attachments", type == null ? Json.NULL : attachments(type))
            .toString());
      }
    }
    return Json.arr(out);
  }

  private String resources() {
    final List<String> out = new ArrayList<>();
    for (final Resource r : data.getResourceList().getResources()) {
      out.add(new Json.Obj().putStr("name", r.getName()).put("attachments", attachments(r)).toString());
    }
    return Json.arr(out);
  }

  private String territories() {
    final Json.Obj o = new Json.Obj();
    for (final Territory t : data.getMap().getTerritories()) {
      final List<String> neighbours = new ArrayList<>();
      for (final Territory n : data.getMap().getNeighbors(t)) {
        neighbours.add(Json.str(n.getName()));
      }
      final Json.Obj to = new Json.Obj()
          .putBool("water", t.isWater())
          .putStr("owner", ownerName(t.getOwner()))
          .put("connections", Json.sortedArr(neighbours))
          .put("units", unitsByOwner(t.getUnits().getUnits()))
          .put("attachments", attachments(t));
      final String damaged = damagedUnits(t.getUnits().getUnits());
      if (damaged != null) {
        to.put("damagedUnits", damaged);
      }
      o.put(t.getName(), to.toString());
    }
    return o.toString();
  }

  private static String ownerName(final PlayerID p) {
    // The engine's "no owner" is the NULL_PLAYERID singleton named "Neutral"; null never occurs
    // after a successful parse, but keep the dump total.
    return p == null || p.isNull() ? null : p.getName();
  }

  private static String unitsByOwner(final Collection<Unit> units) {
    final Map<String, List<Unit>> byOwner = new TreeMap<>();
    for (final Unit u : units) {
      final String owner = u.getOwner() == null || u.getOwner().isNull() ? "Neutral" : u.getOwner().getName();
      byOwner.computeIfAbsent(owner, k -> new ArrayList<>()).add(u);
    }
    final Json.Obj o = new Json.Obj();
    for (final Map.Entry<String, List<Unit>> e : byOwner.entrySet()) {
      o.put(e.getKey(), unitCounts(e.getValue()));
    }
    return o.toString();
  }

  private static String unitCounts(final Collection<Unit> units) {
    final Map<String, Integer> counts = new TreeMap<>();
    for (final Unit u : units) {
      counts.merge(u.getType().getName(), 1, Integer::sum);
    }
    final Json.Obj o = new Json.Obj();
    counts.forEach((k, v) -> o.putNum(k, v));
    return o.toString();
  }

  /** Units that start with hits or bombing damage, grouped; null when there are none. */
  private static String damagedUnits(final Collection<Unit> units) {
    final Map<String, Integer> groups = new TreeMap<>();
    final Map<String, String[]> keys = new TreeMap<>();
    for (final Unit u : units) {
      final int damage = u instanceof TripleAUnit ? ((TripleAUnit) u).getUnitDamage() : 0;
      if (u.getHits() == 0 && damage == 0) {
        continue;
      }
      final String owner = u.getOwner() == null || u.getOwner().isNull() ? "Neutral" : u.getOwner().getName();
      final String[] key = {owner, u.getType().getName(), Integer.toString(u.getHits()), Integer.toString(damage)};
      final String k = String.join("\u0000", key);
      groups.merge(k, 1, Integer::sum);
      keys.put(k, key);
    }
    if (groups.isEmpty()) {
      return null;
    }
    final List<String> out = new ArrayList<>();
    for (final Map.Entry<String, Integer> e : groups.entrySet()) {
      final String[] key = keys.get(e.getKey());
      out.add(new Json.Obj().putStr("owner", key[0]).putStr("unitType", key[1])
          .putNum("hits", Integer.parseInt(key[2])).putNum("damage", Integer.parseInt(key[3]))
          .putNum("count", e.getValue()).toString());
    }
    return Json.sortedArr(out);
  }

  private String namedAttachables(final Collection<? extends Named> items) {
    final Json.Obj o = new Json.Obj();
    for (final Named n : items) {
      o.put(n.getName(), new Json.Obj().put("attachments", attachments((Attachable) n)).toString());
    }
    return o.toString();
  }

  private String productionRules() {
    final Json.Obj o = new Json.Obj();
    for (final ProductionRule r : data.getProductionRuleList().getProductionRules()) {
      o.put(r.getName(), new Json.Obj().put("costs", value(r.getCosts())).put("results", value(r.getResults()))
          .toString());
    }
    return o.toString();
  }

  private String productionFrontiers() {
    final Json.Obj o = new Json.Obj();
    for (final String name : data.getProductionFrontierList().getProductionFrontierNames()) {
      final ProductionFrontier f = data.getProductionFrontierList().getProductionFrontier(name);
      final List<String> rules = new ArrayList<>();
      for (final ProductionRule r : f.getRules()) {
        rules.add(Json.str(r.getName()));
      }
      o.put(name, Json.arr(rules));
    }
    return o.toString();
  }

  private String repairRules() {
    final Json.Obj o = new Json.Obj();
    for (final RepairRule r : data.getRepairRuleList().getRepairRules()) {
      o.put(r.getName(), new Json.Obj().put("costs", value(r.getCosts())).put("results", value(r.getResults()))
          .toString());
    }
    return o.toString();
  }

  private String repairFrontiers() {
    final Json.Obj o = new Json.Obj();
    for (final String name : data.getRepairFrontierList().getRepairFrontierNames()) {
      final RepairFrontier f = data.getRepairFrontierList().getRepairFrontier(name);
      final List<String> rules = new ArrayList<>();
      for (final RepairRule r : f.getRules()) {
        rules.add(Json.str(r.getName()));
      }
      o.put(name, Json.arr(rules));
    }
    return o.toString();
  }

  private String technologies() {
    final Json.Obj o = new Json.Obj();
    final TechnologyFrontier all = data.getTechnologyFrontier();
    if (all != null) {
      for (final TechAdvance t : all.getTechs()) {
        o.put(t.getName(), techJson(t));
      }
    }
    // Techs only reachable through a player's categories would otherwise be missed.
    for (final PlayerID p : data.getPlayerList().getPlayers()) {
      for (final TechnologyFrontier f : p.getTechnologyFrontierList().getFrontiers()) {
        for (final TechAdvance t : f.getTechs()) {
          final String name = t.getName();
          if (all == null || all.getAdvanceByName(name) == null) {
            o.put(name, techJson(t));
          }
        }
      }
    }
    return o.toString();
  }

  private String techJson(final TechAdvance t) {
    String property;
    try {
      property = t.getProperty();
    } catch (final RuntimeException e) {
      property = null;
    }
    return new Json.Obj().putStr("class", t.getClass().getName()).putStr("property", property)
        .put("attachments", attachments(t)).toString();
  }

  private String delegates() {
    final Json.Obj o = new Json.Obj();
    for (final IDelegate d : data.getDelegateList()) {
      o.put(d.getName(), new Json.Obj().putStr("class", d.getClass().getName())
          .putStr("display", d.getDisplayName()).toString());
    }
    return o.toString();
  }

  private String sequence() {
    final List<String> out = new ArrayList<>();
    for (final GameStep s : data.getSequence()) {
      final Properties props = s.getProperties();
      final Json.Obj po = new Json.Obj();
      for (final String k : props.stringPropertyNames()) {
        po.putStr(k, props.getProperty(k));
      }
      out.add(new Json.Obj()
          .putStr("name", s.getName())
          .putStr("delegate", s.getDelegate() == null ? null : s.getDelegate().getName())
          .putStr("player", s.getPlayerId() == null ? null : s.getPlayerId().getName())
          .putStr("display", s.getDisplayName())
          .putNum("maxRunCount", s.getMaxRunCount())
          .put("properties", po.toString())
          .toString());
    }
    return Json.arr(out);
  }

  /**
   * "properties": every name -> value (constant, editable and the per-player properties the
   * parser adds); "editableProperties": name -> type and bounds for the editable ones.
   */
  private void renderProperties(final Json.Obj root) {
    final GameProperties gp = data.getProperties();
    final Json.Obj values = new Json.Obj();
    final Json.Obj editable = new Json.Obj();
    final Map<String, Object> constant = field(gp, "constantProperties");
    if (constant != null) {
      for (final Map.Entry<String, Object> e : constant.entrySet()) {
        // A random UUID minted by every new GameData: JVM identity, not game content.
        if (!GameData.GAME_UUID.equals(e.getKey())) {
          values.put(e.getKey(), propertyValue(e.getKey(), e.getValue()));
        }
      }
    }
    for (final String fieldName : List.of("editableProperties", "playerProperties")) {
      final Map<String, IEditableProperty> props = field(gp, fieldName);
      if (props == null) {
        continue;
      }
      for (final Map.Entry<String, IEditableProperty> e : props.entrySet()) {
        final IEditableProperty p = e.getValue();
        values.put(e.getKey(), propertyValue(e.getKey(), p.getValue()));
        editable.put(e.getKey(), editableDescription(p, fieldName.equals("playerProperties")));
      }
    }
    root.put("properties", values.toString());
    root.put("editableProperties", editable.toString());
  }

  private String propertyValue(final String name, final Object v) {
    if ("notes".equals(name) && v instanceof String) {
      // HTML rendering ignores whitespace differences, so the dump does too.
      return Json.str(((String) v).replaceAll("\\s+", " ").trim());
    }
    return value(v);
  }

  private String editableDescription(final IEditableProperty p, final boolean perPlayer) {
    final String simple = p.getClass().getSimpleName();
    final String type = simple.endsWith("Property")
        ? simple.substring(0, simple.length() - "Property".length()).toLowerCase() : simple;
    final Json.Obj o = new Json.Obj().putStr("type", type);
    if (perPlayer) {
      o.putBool("perPlayer", true);
    }
    for (final String[] pair : new String[][] {{"min", "min"}, {"max", "max"}, {"m_min", "min"}, {"m_max", "max"},
        {"possibleValues", "values"}}) {
      final Object v = field(p, pair[0]);
      if (v != null) {
        // Combo choices are shown in this order, so keep it.
        o.put(pair[1], v instanceof List ? orderedList((List<?>) v) : value(v));
      }
    }
    return o.toString();
  }

  private String orderedList(final List<?> items) {
    final List<String> out = new ArrayList<>();
    for (final Object item : items) {
      out.add(value(item));
    }
    return Json.arr(out);
  }

  /**
   * Attachments the parser created but that no object holds any more: in practice an attachment
   * defined twice for the same object and name, the later one replacing the earlier. Listed so
   * that nothing the XML defined vanishes silently.
   */
  private String otherAttachments() {
    final Json.Obj o = new Json.Obj();
    final List<Tuple<IAttachment, ArrayList<Tuple<String, String>>>> all = data.getAttachmentOrderAndValues();
    final Set<String> keys = new HashSet<>();
    if (all == null) {
      return o.toString();
    }
    for (final Tuple<IAttachment, ArrayList<Tuple<String, String>>> t : all) {
      final IAttachment a = t.getFirst();
      if (a == null || seen.containsKey(a)) {
        continue;
      }
      final Attachable owner = a.getAttachedTo();
      final String ownerName = owner instanceof Named ? ((Named) owner).getName() : String.valueOf(owner);
      String key = ownerName + "/" + a.getName();
      for (int n = 2; keys.contains(key); n++) {
        key = ownerName + "/" + a.getName() + "#" + n;
      }
      keys.add(key);
      o.put(key, attachment(a));
    }
    return o.toString();
  }

  // ---------------------------------------------------------------- attachments and values

  private String attachments(final Attachable a) {
    final Json.Obj o = new Json.Obj();
    final Map<String, IAttachment> map = a.getAttachments();
    if (map != null) {
      for (final Map.Entry<String, IAttachment> e : map.entrySet()) {
        o.put(e.getKey(), attachment(e.getValue()));
      }
    }
    return o.toString();
  }

  private String attachment(final IAttachment a) {
    seen.put(a, Boolean.TRUE);
    return new Json.Obj().putStr("class", a.getClass().getName()).put("options", options(a)).toString();
  }

  /** Every public no-arg get and is getter of the attachment, as the engine holds the value. */
  private String options(final Object attachment) {
    final Map<String, Method> getters = new TreeMap<>();
    for (final Method m : attachment.getClass().getMethods()) {
      final String n = m.getName();
      if (m.getParameterCount() != 0 || Modifier.isStatic(m.getModifiers()) || m.isBridge() || m.isSynthetic()
          || m.getReturnType() == void.class || SKIPPED_GETTERS.contains(n)) {
        continue;
      }
      if (n.length() > 3 && n.startsWith("get") && Character.isUpperCase(n.charAt(3))) {
        getters.put(Character.toLowerCase(n.charAt(3)) + n.substring(4), m);
      }
    }
    // "is" getters last, and only where no get-getter already gave the same key.
    for (final Method m : attachment.getClass().getMethods()) {
      final String n = m.getName();
      if (m.getParameterCount() == 0 && !Modifier.isStatic(m.getModifiers()) && !m.isBridge()
          && (m.getReturnType() == boolean.class || m.getReturnType() == Boolean.class)
          && n.length() > 2 && n.startsWith("is") && Character.isUpperCase(n.charAt(2))) {
        getters.putIfAbsent(n, m);
      }
    }
    final Json.Obj o = new Json.Obj();
    for (final Map.Entry<String, Method> e : getters.entrySet()) {
      final Object v;
      try {
        e.getValue().setAccessible(true);
        v = e.getValue().invoke(attachment);
      } catch (final Throwable t) {
        continue; // getters that throw are not options
      }
      if (v instanceof Attachable && v == ((IAttachment) attachment).getAttachedTo()) {
        continue; // a back-reference under another name
      }
      o.put(e.getKey(), value(v));
    }
    return o.toString();
  }

  /** Canonical rendering of any value an attachment or property can hold. */
  String value(final Object v) {
    if (v == null) {
      return Json.NULL;
    }
    if (v instanceof String) {
      return Json.str((String) v);
    }
    if (v instanceof Boolean) {
      return Json.bool((Boolean) v);
    }
    if (v instanceof Double || v instanceof Float) {
      return Json.num(((Number) v).doubleValue());
    }
    if (v instanceof Number) {
      return Json.num(((Number) v).longValue());
    }
    if (v instanceof Character || v instanceof Enum) {
      return Json.str(v.toString());
    }
    if (v instanceof IAttachment) {
      // Options refer to other attachments (conditions, triggers) by their name.
      return Json.str(((IAttachment) v).getName());
    }
    if (v instanceof Named) {
      return Json.str(((Named) v).getName());
    }
    if (v instanceof TechnologyFrontier) {
      return Json.str(((TechnologyFrontier) v).getName());
    }
    if (v instanceof Tuple) {
      // A pair: its order is its meaning.
      final Tuple<?, ?> t = (Tuple<?, ?>) v;
      return Json.arr(List.of(value(t.getFirst()), value(t.getSecond())));
    }
    if (v instanceof IntegerMap) {
      return map(((IntegerMap<?>) v).toMap());
    }
    if (v instanceof ResourceCollection) {
      return map(((ResourceCollection) v).getResourcesCopy().toMap());
    }
    if (v instanceof Map) {
      return map((Map<?, ?>) v);
    }
    if (v instanceof Collection) {
      final List<String> out = new ArrayList<>();
      for (final Object item : (Collection<?>) v) {
        out.add(value(item));
      }
      return Json.sortedArr(out);
    }
    if (v.getClass().isArray()) {
      final List<String> out = new ArrayList<>();
      for (int i = 0; i < Array.getLength(v); i++) {
        out.add(value(Array.get(v, i)));
      }
      return Json.sortedArr(out);
    }
    if (v instanceof File) {
      return Json.str(((File) v).getPath());
    }
    if (v instanceof Color) {
      return Json.str(String.format("#%06x", ((Color) v).getRGB() & 0xffffff));
    }
    if (v instanceof Class) {
      return Json.str(((Class<?>) v).getName());
    }
    if (v instanceof Version) {
      return Json.str(v.toString());
    }
    // Unknown type: its own toString if it has one (Object.toString would leak a hash code).
    try {
      if (v.getClass().getMethod("toString").getDeclaringClass() != Object.class) {
        return Json.str(v.toString());
      }
    } catch (final NoSuchMethodException e) {
      // cannot happen: every object has toString
    }
    return Json.str("<" + v.getClass().getName() + ">");
  }

  private String map(final Map<?, ?> m) {
    final TreeMap<String, String> out = new TreeMap<>();
    for (final Map.Entry<?, ?> e : m.entrySet()) {
      out.put(key(e.getKey()), value(e.getValue()));
    }
    return Json.obj(out);
  }

  private String key(final Object k) {
    if (k instanceof String) {
      return (String) k;
    }
    if (k instanceof IAttachment) {
      return ((IAttachment) k).getName();
    }
    if (k instanceof Named) {
      return ((Named) k).getName();
    }
    return value(k);
  }

  private static String strings(final Collection<String> items) {
    final List<String> out = new ArrayList<>();
    for (final String s : items == null ? Collections.<String>emptyList() : items) {
      out.add(Json.str(s));
    }
    return Json.sortedArr(out);
  }

  private static String nameOf(final Named n) {
    return n == null ? null : n.getName();
  }

  @SuppressWarnings("unchecked")
  static <T> T field(final Object target, final String name) {
    for (Class<?> c = target.getClass(); c != null; c = c.getSuperclass()) {
      try {
        final Field f = c.getDeclaredField(name);
        f.setAccessible(true);
        return (T) f.get(target);
      } catch (final NoSuchFieldException e) {
        // look in the superclass
      } catch (final ReflectiveOperationException | RuntimeException e) {
        return null;
      }
    }
    return null;
  }
}
