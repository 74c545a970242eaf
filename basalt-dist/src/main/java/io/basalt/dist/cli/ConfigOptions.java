package io.basalt.dist.cli;

import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.ConfigArgs;
import io.basalt.server.config.InvalidConfigException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** {@code --config FILE} and {@code -Dkey=value}, shared by every command that reads the configuration. */
final class ConfigOptions {
  @Option(names = "--config", paramLabel = "FILE",
      description = "Site file in hbase-site.xml format (default: conf/basalt-site.xml of the installation, if present).")
  Path config;

  @Option(names = "-D", paramLabel = "KEY=VALUE", mapFallbackValue = "",
      description = "Sets a configuration key; wins over the site file. Repeatable. Keys: basalt config list.")
  Map<String, String> settings = new LinkedHashMap<>();

  /** The options as arguments for the server mains that parse them themselves. */
  List<String> asArgs() {
    List<String> out = new ArrayList<>();
    if (config != null) {
      out.add("--config");
      out.add(config.toString());
    }
    settings.forEach((k, v) -> out.add("-D" + k + "=" + v));
    return out;
  }

  /** Loads like {@link #load()} and logs the unknown-key warnings (once per process: servers call this once). */
  BasaltConfig loadAndWarn() {
    BasaltConfig c = load();
    org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ConfigOptions.class);
    c.warnings().forEach(log::warn);
    return c;
  }

  /** The site file and overrides, checked; a bad file or value is a one-line failure naming it. */
  BasaltConfig load() {
    try {
      return ConfigArgs.loadStrict(asArgs().toArray(new String[0]), Map.of());
    } catch (InvalidConfigException | IllegalArgumentException e) {
      throw new CliFailure(e.getMessage());
    }
  }
}
