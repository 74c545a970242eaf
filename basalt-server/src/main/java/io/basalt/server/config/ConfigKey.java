package io.basalt.server.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * One configuration key, defined once: its name (HBase's where the meaning is the same), its type, default,
 * meaning and the rule its values must follow. Keys are declared as constants in one file per area
 * ({@link ServerKeys}, {@link StorageKeys}, ...) and listed in {@link KnownKeys}.
 *
 * @param <T> the type a value is parsed to
 */
public final class ConfigKey<T> {
  private final String name;
  private final String type;
  private final T defaultValue;
  private final String doc;
  private final Function<String, T> parser;

  private ConfigKey(String name, String type, T defaultValue, String doc, Function<String, T> parser) {
    this.name = Objects.requireNonNull(name);
    this.type = type;
    this.defaultValue = defaultValue;
    this.doc = doc;
    this.parser = parser;
  }

  /** A TCP port, 0 (any free port) to 65535; {@code disabledBelowZero} also allows -1 meaning "off". */
  public static ConfigKey<Integer> port(String name, int defaultValue, boolean disabledBelowZero, String doc) {
    int min = disabledBelowZero ? -1 : 0;
    return new ConfigKey<>(name, disabledBelowZero ? "port or -1" : "port", defaultValue, doc,
        raw -> checkedInt(raw, min, 65535, "a port number" + (disabledBelowZero ? " (or -1 for off)" : "")));
  }

  public static ConfigKey<Integer> integer(String name, int defaultValue, int min, int max, String doc) {
    return new ConfigKey<>(name, "int", defaultValue, doc,
        raw -> checkedInt(raw, min, max, "a whole number from " + min + " to " + max));
  }

  /** A duration in milliseconds (a plain number, as in HBase's files). */
  public static ConfigKey<Long> millis(String name, long defaultValue, long min, String doc) {
    return new ConfigKey<>(name, "ms", defaultValue, doc, raw -> checkedLong(raw, min, "a number of milliseconds >= " + min));
  }

  public static ConfigKey<Long> count(String name, long defaultValue, long min, String doc) {
    return new ConfigKey<>(name, "long", defaultValue, doc, raw -> checkedLong(raw, min, "a whole number >= " + min));
  }

  /** A size in bytes: a plain number or one with a k/m/g/t suffix (binary units), as Hadoop's getLongBytes. */
  public static ConfigKey<Long> bytes(String name, long defaultValue, long min, String doc) {
    return bytes(name, defaultValue, min, Long.MAX_VALUE, doc);
  }

  /** As {@link #bytes(String, long, long, String)}, at most {@code max}. */
  public static ConfigKey<Long> bytes(String name, long defaultValue, long min, long max, String doc) {
    return new ConfigKey<>(name, "bytes", defaultValue, doc, raw -> {
      long v = parseBytes(raw);
      if (v < min) {
        throw new IllegalArgumentException("must be at least " + min + " bytes");
      }
      if (v > max) {
        throw new IllegalArgumentException("must be at most " + max + " bytes");
      }
      return v;
    });
  }

  public static ConfigKey<String> string(String name, String defaultValue, String doc) {
    return new ConfigKey<>(name, "string", defaultValue, doc, raw -> raw);
  }

  /** A ZooKeeper path: absolute, no trailing slash. */
  public static ConfigKey<String> znode(String name, String defaultValue, String doc) {
    return new ConfigKey<>(name, "znode", defaultValue, doc, raw -> {
      if (!raw.startsWith("/") || raw.length() < 2 || raw.endsWith("/") || raw.contains("//")) {
        throw new IllegalArgumentException("must be an absolute ZooKeeper path such as /hbase");
      }
      return raw;
    });
  }

  /** A directory; the empty string is allowed where the doc says what it then means. */
  public static ConfigKey<String> path(String name, String defaultValue, String doc) {
    return new ConfigKey<>(name, "path", defaultValue, doc, raw -> {
      try {
        Path.of(raw);
        return raw;
      } catch (InvalidPathException e) {
        throw new IllegalArgumentException("is not a valid path: " + e.getReason());
      }
    });
  }

  /** A value of a type of its own ({@code parser} throws IllegalArgumentException saying what is wrong). */
  public static <T> ConfigKey<T> of(String name, String type, T defaultValue, Function<String, T> parser, String doc) {
    return new ConfigKey<>(name, type, defaultValue, doc, parser);
  }

  public static ConfigKey<Boolean> bool(String name, boolean defaultValue, String doc) {
    return new ConfigKey<>(name, "boolean", defaultValue, doc, raw -> switch (raw.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException("must be true or false");
    });
  }

  public String name() {
    return name;
  }

  public String type() {
    return type;
  }

  public T defaultValue() {
    return defaultValue;
  }

  public String doc() {
    return doc;
  }

  /** The value of {@code raw} (trimmed), or an {@link InvalidConfigException} naming this key. */
  public T parse(String raw) {
    String v = raw == null ? "" : raw.trim();
    try {
      return parser.apply(v);
    } catch (IllegalArgumentException e) {
      throw new InvalidConfigException(name + ": '" + v + "' " + e.getMessage());
    }
  }

  /** The default as it would be written in a site file. */
  public String defaultText() {
    return String.valueOf(defaultValue);
  }

  @Override
  public String toString() {
    return name;
  }

  private static int checkedInt(String raw, int min, int max, String what) {
    long v = checkedLong(raw, min, what);
    if (v > max) {
      throw new IllegalArgumentException("is not " + what);
    }
    return (int) v;
  }

  private static long checkedLong(String raw, long min, String what) {
    long v;
    try {
      v = Long.parseLong(raw);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("is not " + what);
    }
    if (v < min) {
      throw new IllegalArgumentException("is not " + what);
    }
    return v;
  }

  static long parseBytes(String raw) {
    String s = raw.toLowerCase(Locale.ROOT);
    int shift = 0;
    if (!s.isEmpty()) {
      switch (s.charAt(s.length() - 1)) {
        case 'k' -> shift = 10;
        case 'm' -> shift = 20;
        case 'g' -> shift = 30;
        case 't' -> shift = 40;
        default -> shift = 0;
      }
    }
    String digits = shift == 0 ? s : s.substring(0, s.length() - 1);
    long n;
    try {
      n = Long.parseLong(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("is not a size (a number of bytes, or with a k, m, g or t suffix)");
    }
    if (n < 0 || (shift > 0 && n > (Long.MAX_VALUE >> shift))) {
      throw new IllegalArgumentException("is not a size from 0 to 8e18 bytes");
    }
    return n << shift;
  }
}
