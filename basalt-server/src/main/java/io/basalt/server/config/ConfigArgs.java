package io.basalt.server.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The configuration options every command accepts: {@code --config FILE} (default {@code conf/basalt-site.xml}
 * of the installation, if present) and {@code -Dkey=value} (or {@code -D key=value}) overrides. A command
 * may add aliases, e.g. {@code --master-port} for {@code hbase.master.port}.
 */
public final class ConfigArgs {
  /** System property the launcher sets to the installation's conf/ directory. */
  public static final String CONF_DIR_PROPERTY = "basalt.conf.dir";
  public static final String SITE_FILE_NAME = "basalt-site.xml";

  private ConfigArgs() {}

  /** Thrown for an argument that is not a configuration option or is malformed. */
  public static final class BadArgumentException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    BadArgumentException(String message) {
      super(message);
    }
  }

  /**
   * Reads {@code args}; arguments that are neither configuration options nor aliases go to {@code rest}.
   * Returns the loaded configuration (site file, then overrides in order).
   */
  public static BasaltConfig load(String[] args, Map<String, ConfigKey<?>> aliases, List<String> rest) {
    Path site = null;
    Map<String, String> overrides = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      if (a.equals("--config")) {
        site = Path.of(value(args, ++i, a));
      } else if (a.startsWith("--config=")) {
        site = Path.of(a.substring("--config=".length()));
      } else if (a.equals("-D")) {
        putSetting(overrides, value(args, ++i, a));
      } else if (a.startsWith("-D")) {
        putSetting(overrides, a.substring(2));
      } else if (aliases.containsKey(a)) {
        overrides.put(aliases.get(a).name(), value(args, ++i, a));
      } else if (a.startsWith("--") && a.contains("=") && aliases.containsKey(a.substring(0, a.indexOf('=')))) {
        overrides.put(aliases.get(a.substring(0, a.indexOf('='))).name(), a.substring(a.indexOf('=') + 1));
      } else {
        rest.add(a);
      }
    }
    if (site != null) {
      return BasaltConfig.load(site, overrides);
    }
    return BasaltConfig.loadIfPresent(defaultSiteFile(), overrides);
  }

  /** {@code $BASALT_CONF_DIR/basalt-site.xml}, else the launcher's conf dir, else {@code ./conf/basalt-site.xml}. */
  public static Path defaultSiteFile() {
    String dir = System.getenv("BASALT_CONF_DIR");
    if (dir == null || dir.isEmpty()) {
      dir = System.getProperty(CONF_DIR_PROPERTY, "conf");
    }
    return Path.of(dir).resolve(SITE_FILE_NAME);
  }

  /** Whether a site file will be read by default (for start-up messages). */
  public static boolean defaultSiteFileExists() {
    return Files.isRegularFile(defaultSiteFile());
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new BadArgumentException(option + " needs a value");
    }
    return args[i];
  }

  private static void putSetting(Map<String, String> overrides, String setting) {
    int eq = setting.indexOf('=');
    if (eq <= 0) {
      throw new BadArgumentException("-D" + setting + " must be -Dkey=value");
    }
    overrides.put(setting.substring(0, eq).trim(), setting.substring(eq + 1));
  }

  /** Convenience for commands without positional arguments: anything left over is an error. */
  public static BasaltConfig loadStrict(String[] args, Map<String, ConfigKey<?>> aliases) {
    List<String> rest = new ArrayList<>();
    BasaltConfig c = load(args, aliases, rest);
    if (!rest.isEmpty()) {
      List<String> options = new ArrayList<>(aliases.keySet());
      options.sort(null);
      throw new BadArgumentException("unknown option " + rest.get(0) + " (options: --config FILE, -Dkey=value"
          + (options.isEmpty() ? "" : ", " + String.join(", ", options)) + ")");
    }
    return c;
  }
}
