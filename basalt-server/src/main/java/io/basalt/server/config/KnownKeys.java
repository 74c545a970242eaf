package io.basalt.server.config;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Every configuration key Basalt reads: the {@code public static final ConfigKey} constants of the area
 * files listed here. A new area is one new file and one line in {@link #AREAS}.
 */
public final class KnownKeys {
  /** The files that declare keys, in the order {@code basalt config --list} prints them. */
  private static final List<Class<?>> AREAS = List.of(ServerKeys.class, ZooKeeperKeys.class, StorageKeys.class,
      SplitKeys.class, ScannerKeys.class, RpcKeys.class, BalancerKeys.class, ReplicationKeys.class,
      SecurityKeys.class);

  private static final Map<String, ConfigKey<?>> BY_NAME = collect();
  private static final Map<String, String> AREA_OF = areas();

  private KnownKeys() {}

  private static Map<String, ConfigKey<?>> collect() {
    Map<String, ConfigKey<?>> out = new LinkedHashMap<>();
    for (Class<?> area : AREAS) {
      for (ConfigKey<?> key : keysOf(area)) {
        if (out.put(key.name(), key) != null) {
          throw new IllegalStateException("configuration key " + key.name() + " is defined twice");
        }
      }
    }
    return Collections.unmodifiableMap(out);
  }

  private static Map<String, String> areas() {
    Map<String, String> out = new LinkedHashMap<>();
    for (Class<?> area : AREAS) {
      for (ConfigKey<?> key : keysOf(area)) {
        out.put(key.name(), area.getSimpleName().replace("Keys", "").toLowerCase(Locale.ROOT));
      }
    }
    return out;
  }

  private static List<ConfigKey<?>> keysOf(Class<?> area) {
    List<ConfigKey<?>> keys = new ArrayList<>();
    for (Field f : area.getDeclaredFields()) {
      int m = f.getModifiers();
      if (Modifier.isStatic(m) && Modifier.isPublic(m) && f.getType() == ConfigKey.class) {
        try {
          keys.add((ConfigKey<?>) f.get(null));
        } catch (IllegalAccessException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return keys;
  }

  /** All keys, grouped by area in declaration order. */
  public static List<ConfigKey<?>> all() {
    return List.copyOf(BY_NAME.values());
  }

  public static Optional<ConfigKey<?>> byName(String name) {
    return Optional.ofNullable(BY_NAME.get(name));
  }

  /** The area a key is declared in ("server", "zookeeper", ...). */
  public static String areaOf(ConfigKey<?> key) {
    return AREA_OF.getOrDefault(key.name(), "other");
  }

  /** The known key closest to a misspelt one, if any is close enough to be the likely intent. */
  public static Optional<String> closest(String name) {
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (String known : BY_NAME.keySet()) {
      int d = distance(name.toLowerCase(Locale.ROOT), known.toLowerCase(Locale.ROOT));
      if (d < bestDistance) {
        best = known;
        bestDistance = d;
      }
    }
    return bestDistance <= Math.max(2, name.length() / 8) ? Optional.of(best) : Optional.empty();
  }

  /** Levenshtein distance. */
  static int distance(String a, String b) {
    int[] prev = new int[b.length() + 1];
    int[] cur = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      prev[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      cur[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
      }
      int[] t = prev;
      prev = cur;
      cur = t;
    }
    return prev[b.length()];
  }
}
