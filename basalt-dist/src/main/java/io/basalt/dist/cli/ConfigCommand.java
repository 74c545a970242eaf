package io.basalt.dist.cli;

import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.ConfigListing;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code basalt config list|check}: every key, or a check of the site file and -D values. */
@Command(name = "config", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"list: every configuration key with its type, default, meaning (and value, if set).",
        "check: loads the site file and -D values and reports bad values and unknown keys."})
final class ConfigCommand implements Callable<Integer> {
  @Spec
  CommandSpec spec;

  @Mixin
  ConfigOptions config;

  @Parameters(arity = "0..1", paramLabel = "list|check", description = "What to do (default: list).")
  String action;

  @Option(names = "--list", description = "Same as: config list.")
  boolean list;

  @Option(names = "--check", description = "Same as: config check.")
  boolean check;

  @Override
  public Integer call() {
    boolean doCheck = check || "check".equals(action);
    if (action != null && !action.equals("list") && !action.equals("check")) {
      throw new CliFailure("unknown action '" + action + "' (list or check)");
    }
    BasaltConfig c = config.load();
    c.warnings().forEach(w -> spec.commandLine().getErr().println("warning: " + w));
    spec.commandLine().getErr().flush();
    if (doCheck) {
      spec.commandLine().getOut().println("configuration is valid: " + c.rawValues().size() + " values set, "
          + c.warnings().size() + " warnings");
    } else {
      java.io.PrintStream out = new java.io.PrintStream(System.out, true, java.nio.charset.StandardCharsets.UTF_8);
      ConfigListing.print(c, out);
    }
    return 0;
  }
}
