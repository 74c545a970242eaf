package io.basalt.server.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The configuration of one process: the values set in the site file and by {@code -Dkey=value} overrides
 * (overrides win), every known key checked when loaded (a bad value fails with the key's name), unknown
 * keys kept as warnings. Unset keys read as their defaults. Immutable.
 */
public final class BasaltConfig {
  private static final Pattern VARIABLE = Pattern.compile("\\$\\{([^}$\\s]+)}");

  private final Map<String, String> raw;
  private final Map<String, Object> values;
  private final List<String> warnings;

  private BasaltConfig(Map<String, String> raw) {
    this.raw = Collections.unmodifiableMap(new LinkedHashMap<>(raw));
    Map<String, Object> v = new HashMap<>();
    List<String> w = new ArrayList<>();
    for (Map.Entry<String, String> e : raw.entrySet()) {
      var key = KnownKeys.byName(e.getKey());
      if (key.isPresent()) {
        v.put(e.getKey(), key.get().parse(expand(e.getKey(), e.getValue(), raw, 0)));
      } else if (!e.getKey().startsWith("hadoop.proxyuser.")) { // a family of keys, read by security.ProxyUserRules
        w.add(unknownKeyWarning(e.getKey()));
      }
    }
    this.values = v;
    this.warnings = List.copyOf(w);
  }

  /** Every key at its default. */
  public static BasaltConfig defaults() {
    return new BasaltConfig(Map.of());
  }

  /** Checks and types {@code settings} (key to raw value). */
  public static BasaltConfig of(Map<String, String> settings) {
    return new BasaltConfig(settings);
  }

  /**
   * The site file (if {@code siteFile} is non-null; it must then exist) with {@code overrides} on top.
   * Throws {@link InvalidConfigException} naming the file or key for anything unusable.
   */
  public static BasaltConfig load(Path siteFile, Map<String, String> overrides) {
    Map<String, String> all = new LinkedHashMap<>();
    if (siteFile != null) {
      all.putAll(SiteFile.read(siteFile));
    }
    all.putAll(overrides);
    return new BasaltConfig(all);
  }

  /** Like {@link #load} but the site file is optional: used when it exists. */
  public static BasaltConfig loadIfPresent(Path siteFile, Map<String, String> overrides) {
    return load(siteFile != null && Files.isRegularFile(siteFile) ? siteFile : null, overrides);
  }

  @SuppressWarnings("unchecked")
  public <T> T get(ConfigKey<T> key) {
    Object v = values.get(key.name());
    if (v != null) {
      return (T) v;
    }
    String r = raw.get(key.name());
    // A key from an area file not (yet) listed in KnownKeys is still typed and checked when read.
    return r == null ? key.defaultValue() : key.parse(expand(key.name(), r, raw, 0));
  }

  /** Whether the key was set (site file or override) rather than left at its default. */
  public boolean isSet(ConfigKey<?> key) {
    return raw.containsKey(key.name());
  }

  /** A copy with one more value (checked like any other). */
  public BasaltConfig with(ConfigKey<?> key, String value) {
    Map<String, String> copy = new LinkedHashMap<>(raw);
    copy.put(key.name(), value);
    return new BasaltConfig(copy);
  }

  /** The values as given, keys in the order they were set. */
  public Map<String, String> rawValues() {
    return raw;
  }

  /** One line per key that Basalt does not know (to log once at start). */
  public List<String> warnings() {
    return warnings;
  }

  private static String unknownKeyWarning(String name) {
    var suggestion = KnownKeys.closest(name);
    if (suggestion.isPresent()) {
      return "unknown configuration key " + name + " (did you mean " + suggestion.get() + "?); ignored";
    }
    if (name.startsWith("hbase.") || name.startsWith("hfile.") || name.startsWith("zookeeper.")
        || name.startsWith("dfs.") || name.startsWith("fs.") || name.startsWith("hadoop.")) {
      return "configuration key " + name + " is HBase's or Hadoop's and not used by Basalt; ignored";
    }
    return "unknown configuration key " + name + " (see basalt config --list); ignored";
  }

  /** Hadoop-style {@code ${name}}: another key of the file, else a system property; else left as is. */
  private static String expand(String key, String value, Map<String, String> raw, int depth) {
    if (value == null || !value.contains("${")) {
      return value;
    }
    if (depth > 20) {
      throw new InvalidConfigException(key + ": variable substitution nests too deep (a ${...} cycle?)");
    }
    Matcher m = VARIABLE.matcher(value);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = m.group(1);
      String v = raw.containsKey(name) ? expand(name, raw.get(name), raw, depth + 1) : System.getProperty(name);
      m.appendReplacement(out, Matcher.quoteReplacement(v == null ? m.group() : v));
    }
    m.appendTail(out);
    return out.toString();
  }
}
