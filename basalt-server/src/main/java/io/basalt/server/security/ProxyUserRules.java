package io.basalt.server.security;

import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.hadoop.hbase.security.AccessDeniedException;

/**
 * Who may act for whom (proxy users, "doAs"), with Hadoop's rules and keys, as HBase's RPC server applies them:
 * an authenticated real user {@code R} (its short name) may connect as another user {@code U} only if
 * {@code hadoop.proxyuser.R.users} names {@code U} or {@code hadoop.proxyuser.R.groups} names one of U's groups
 * ({@code *}: anyone), and {@code hadoop.proxyuser.R.hosts} names the address it connects from (addresses,
 * CIDR ranges, host names, {@code *}). A real user without rules may impersonate nobody, so with no setting
 * at all proxy users are refused, as before. The messages are Hadoop's {@code AuthorizationException}'s.
 */
public final class ProxyUserRules {
  public static final String PREFIX = "hadoop.proxyuser.";

  private static final ProxyUserRules NONE = new ProxyUserRules(Map.of());

  private record Rule(Set<String> users, Set<String> groups, List<String> hosts) {}

  private final Map<String, Rule> byRealUser;

  private ProxyUserRules(Map<String, Rule> byRealUser) {
    this.byRealUser = byRealUser;
  }

  public static ProxyUserRules none() {
    return NONE;
  }

  /** From every {@code hadoop.proxyuser.<user>.(users|groups|hosts)} among the settings; others are ignored. */
  public static ProxyUserRules from(Map<String, String> settings) {
    Map<String, Map<String, String>> parts = new HashMap<>();
    for (var e : settings.entrySet()) {
      String key = e.getKey();
      if (!key.startsWith(PREFIX)) {
        continue;
      }
      int dot = key.lastIndexOf('.');
      String kind = key.substring(dot + 1);
      if (dot <= PREFIX.length() || !(kind.equals("users") || kind.equals("groups") || kind.equals("hosts"))) {
        continue;
      }
      parts.computeIfAbsent(key.substring(PREFIX.length(), dot), u -> new HashMap<>()).put(kind, e.getValue());
    }
    Map<String, Rule> rules = new HashMap<>();
    parts.forEach((user, p) -> rules.put(user, new Rule(set(p.get("users")), set(p.get("groups")),
        List.copyOf(set(p.get("hosts"))))));
    return rules.isEmpty() ? NONE : new ProxyUserRules(Map.copyOf(rules));
  }

  /** Whether any real user may impersonate anyone (for the log line at start). */
  public boolean any() {
    return !byRealUser.isEmpty();
  }

  /**
   * Admits {@code realUser} (a short name) acting as {@code effectiveUser} from {@code from}, or refuses with
   * HBase's {@link AccessDeniedException}.
   */
  public void authorize(String realUser, String effectiveUser, InetAddress from,
      Function<String, List<String>> groupsOf) throws AccessDeniedException {
    Rule rule = byRealUser.get(realUser);
    if (rule == null || !(rule.users.contains("*") || rule.users.contains(effectiveUser) || rule.groups.contains("*")
        || groupsOf.apply(effectiveUser).stream().anyMatch(rule.groups::contains))) {
      throw new AccessDeniedException("User: " + realUser + " is not allowed to impersonate " + effectiveUser);
    }
    if (from == null || rule.hosts.stream().noneMatch(h -> matches(h, from))) {
      throw new AccessDeniedException("Unauthorized connection for super-user: " + realUser + " from IP "
          + (from == null ? "unknown" : from.getHostAddress()));
    }
  }

  static boolean matches(String host, InetAddress from) {
    if (host.equals("*")) {
      return true;
    }
    int slash = host.indexOf('/');
    if (slash > 0) {
      return inRange(host.substring(0, slash), host.substring(slash + 1), from);
    }
    try {
      for (InetAddress a : InetAddress.getAllByName(host)) {
        if (a.equals(from)) {
          return true;
        }
      }
    } catch (UnknownHostException e) {
      // a name that does not resolve matches no one
    }
    return false;
  }

  private static boolean inRange(String network, String prefixBits, InetAddress from) {
    try {
      byte[] net = InetAddress.getByName(network).getAddress();
      byte[] addr = from.getAddress();
      int bits = Integer.parseInt(prefixBits);
      if (net.length != addr.length || bits < 0 || bits > net.length * 8) {
        return false;
      }
      int shift = net.length * 8 - bits;
      return new BigInteger(1, net).shiftRight(shift).equals(new BigInteger(1, addr).shiftRight(shift));
    } catch (UnknownHostException | NumberFormatException e) {
      return false;
    }
  }

  private static Set<String> set(String list) {
    Set<String> out = new HashSet<>();
    if (list != null) {
      for (String s : list.split(",")) {
        if (!s.isBlank()) {
          out.add(s.trim());
        }
      }
    }
    return out;
  }

  @Override
  public String toString() {
    return byRealUser.keySet().stream().sorted().toList().toString();
  }
}
