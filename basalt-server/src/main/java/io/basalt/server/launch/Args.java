package io.basalt.server.launch;

import io.basalt.server.config.ConfigKey;
import io.basalt.server.config.InvalidConfigException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** {@code --name value} options of a launcher command, with one-line errors (exit code 2) for bad input. */
public final class Args {
  private final String command;
  private final Map<String, String> values = new HashMap<>();

  private Args(String command) {
    this.command = command;
  }

  /** Parses {@code args}; {@code aliases} maps extra spellings (e.g. HBase key names) to option names. */
  public static Args parse(String command, String[] args, Set<String> options, Map<String, String> aliases) {
    Args a = new Args(command);
    for (int i = 0; i < args.length; i++) {
      String name = aliases.getOrDefault(args[i], args[i]);
      if (!options.contains(name)) {
        a.fail("unknown option " + args[i] + " (options: " + String.join(", ", new TreeSet<>(options)) + ")");
      }
      if (i + 1 >= args.length) {
        a.fail(args[i] + " needs a value");
      }
      a.values.put(name, args[++i]);
    }
    return a;
  }

  public String string(String name, String fallback) {
    return values.getOrDefault(name, fallback);
  }

  public Path path(String name, Path fallback) {
    String v = values.get(name);
    return v == null ? fallback : Path.of(v);
  }

  public int port(String name, int fallback) {
    String v = values.get(name);
    if (v == null) {
      return fallback;
    }
    try {
      int p = Integer.parseInt(v);
      if (p < 0 || p > 65535) {
        throw new NumberFormatException();
      }
      return p;
    } catch (NumberFormatException e) {
      fail(name + " must be a port number, not '" + v + "'");
      return -1;
    }
  }

  /** An info (HTTP) port: a port number, or -1 for none. */
  public int infoPort(String name, int fallback) {
    String v = values.get(name);
    return v != null && v.trim().equals("-1") ? -1 : port(name, fallback);
  }

  public int positive(String name, int fallback) {
    String v = values.get(name);
    if (v == null) {
      return fallback;
    }
    try {
      int n = Integer.parseInt(v);
      if (n <= 0) {
        throw new NumberFormatException();
      }
      return n;
    } catch (NumberFormatException e) {
      fail(name + " must be a positive number, not '" + v + "'");
      return -1;
    }
  }

  /** An option parsed by a configuration key's rules (its error names the option). */
  public <T> T value(String name, ConfigKey<T> key, T fallback) {
    String v = values.get(name);
    if (v == null) {
      return fallback;
    }
    try {
      return key.parse(v);
    } catch (InvalidConfigException e) {
      fail(name + ": " + e.getMessage());
      return fallback;
    }
  }

  public void fail(String message) {
    System.err.println("basalt " + command + ": " + message);
    System.exit(2);
  }
}
