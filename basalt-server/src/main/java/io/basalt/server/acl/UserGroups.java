package io.basalt.server.acl;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The groups of a user, as Hadoop's default group mapping finds them (HBase asks it): the static overrides
 * ({@code hadoop.user.group.static.mapping.overrides}) first, else the operating system ({@code id -Gn}),
 * cached for five minutes as Hadoop does. A user the system does not know has no groups.
 */
public final class UserGroups {
  private static final long CACHE_NANOS = TimeUnit.MINUTES.toNanos(5);

  private record Cached(List<String> groups, long at) {}

  private final Map<String, List<String>> overrides;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();

  public UserGroups(String overrides) {
    this.overrides = parse(overrides);
  }

  /** "user=g1,g2;user2=;" (Hadoop's format). */
  static Map<String, List<String>> parse(String spec) {
    Map<String, List<String>> out = new HashMap<>();
    for (String entry : spec.split(";")) {
      int eq = entry.indexOf('=');
      if (eq <= 0) {
        continue;
      }
      List<String> groups = new ArrayList<>();
      for (String g : entry.substring(eq + 1).split(",")) {
        if (!g.isBlank()) {
          groups.add(g.trim());
        }
      }
      out.put(entry.substring(0, eq).trim(), List.copyOf(groups));
    }
    return out;
  }

  public List<String> groupsOf(String user) {
    if (user.isEmpty()) {
      return List.of();
    }
    List<String> fixed = overrides.get(user);
    if (fixed != null) {
      return fixed;
    }
    Cached c = cache.get(user);
    if (c == null || System.nanoTime() - c.at > CACHE_NANOS) {
      c = new Cached(fromSystem(user), System.nanoTime());
      cache.put(user, c);
    }
    return c.groups;
  }

  private static List<String> fromSystem(String user) {
    if (!user.matches("[A-Za-z0-9._][A-Za-z0-9._@-]*")) {
      return List.of(); // not a name the system could know; never handed to a command
    }
    try {
      Process p = new ProcessBuilder("id", "-Gn", "--", user).redirectErrorStream(false).start();
      String line;
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        line = r.readLine();
      }
      if (!p.waitFor(5, TimeUnit.SECONDS) || p.exitValue() != 0 || line == null) {
        p.destroy();
        return List.of();
      }
      return Arrays.stream(line.trim().split("\\s+")).filter(g -> !g.isEmpty()).toList();
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      return List.of();
    }
  }
}
