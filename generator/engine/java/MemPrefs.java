package forge;

import java.util.HashMap;
import java.util.Map;
import java.util.prefs.AbstractPreferences;
import java.util.prefs.Preferences;
import java.util.prefs.PreferencesFactory;

/**
 * In-memory java.util.prefs backend: the engine's ClientSetting and UI code read and write
 * preferences, which would otherwise land in ~/.java/.userPrefs. Selected with
 * -Djava.util.prefs.PreferencesFactory=forge.MemPrefs$Factory.
 */
public final class MemPrefs extends AbstractPreferences {
  private final Map<String, String> values = new HashMap<>();
  private final Map<String, MemPrefs> children = new HashMap<>();

  MemPrefs(final MemPrefs parent, final String name) {
    super(parent, name);
  }

  @Override
  protected void putSpi(final String key, final String value) {
    values.put(key, value);
  }

  @Override
  protected String getSpi(final String key) {
    return values.get(key);
  }

  @Override
  protected void removeSpi(final String key) {
    values.remove(key);
  }

  @Override
  protected void removeNodeSpi() {
    values.clear();
  }

  @Override
  protected String[] keysSpi() {
    return values.keySet().toArray(new String[0]);
  }

  @Override
  protected String[] childrenNamesSpi() {
    return children.keySet().toArray(new String[0]);
  }

  @Override
  protected AbstractPreferences childSpi(final String name) {
    return children.computeIfAbsent(name, n -> new MemPrefs(this, n));
  }

  @Override
  protected void syncSpi() {}

  @Override
  protected void flushSpi() {}

  /** Factory named by the java.util.prefs.PreferencesFactory system property (needs a public no-arg ctor). */
  public static final class Factory implements PreferencesFactory {
    private static final Preferences USER = new MemPrefs(null, "");
    private static final Preferences SYSTEM = new MemPrefs(null, "");

    @Override
    public Preferences userRoot() {
      return USER;
    }

    @Override
    public Preferences systemRoot() {
      return SYSTEM;
    }
  }
}
