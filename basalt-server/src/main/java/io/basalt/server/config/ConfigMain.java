package io.basalt.server.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code basalt config --list [--config FILE] [-Dkey=value ...]}: every key with its type, default and
 * meaning (and the value set, if any); {@code basalt config --check ...} only loads and reports problems.
 */
public final class ConfigMain {
  private ConfigMain() {}

  public static void main(String[] args) {
    List<String> rest = new ArrayList<>();
    BasaltConfig c;
    try {
      c = ConfigArgs.load(args, Map.of(), rest);
    } catch (IllegalArgumentException e) {
      System.err.println("basalt config: " + e.getMessage());
      System.exit(2);
      return;
    }
    if (rest.equals(List.of("--list"))) {
      ConfigListing.print(c, System.out);
      c.warnings().forEach(w -> System.err.println("warning: " + w));
    } else if (rest.equals(List.of("--check"))) {
      c.warnings().forEach(w -> System.err.println("warning: " + w));
      System.out.println("configuration is valid (" + c.rawValues().size() + " values set)");
    } else {
      System.err.println("basalt config: use --list (every key) or --check (validate the site file and -D values)");
      System.exit(2);
    }
  }
}
