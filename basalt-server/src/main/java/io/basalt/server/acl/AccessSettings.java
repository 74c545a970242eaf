package io.basalt.server.acl;

import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.SecurityKeys;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Whether calls are authorised and who is above the rules: {@code hbase.superuser} users and {@code @groups},
 * plus the user the server runs as (as HBase's {@code Superusers}). Read once at start; a setting Basalt
 * cannot honour fails the start.
 */
public record AccessSettings(boolean enabled, Set<String> superusers, Set<String> supergroups, String groupOverrides,
    String auditFile) {
  public static final AccessSettings OFF = new AccessSettings(false, Set.of(), Set.of(), "", "");

  public static AccessSettings from(BasaltConfig c) throws IOException {
    if (!c.get(SecurityKeys.AUTHORIZATION)) {
      return OFF;
    }
    if (!c.get(SecurityKeys.EARLY_OUT)) {
      throw new IOException(SecurityKeys.EARLY_OUT.name() + "=false asks for cell-level ACL evaluation, which "
          + "Basalt does not have; remove it (HBase's default, true, is what Basalt implements)");
    }
    Set<String> users = new LinkedHashSet<>();
    Set<String> groups = new LinkedHashSet<>();
    users.add(System.getProperty("user.name"));
    for (String s : c.get(SecurityKeys.SUPERUSERS).split(",")) {
      String name = s.trim();
      if (name.startsWith("@") && name.length() > 1) {
        groups.add(name.substring(1));
      } else if (!name.isEmpty()) {
        users.add(name);
      }
    }
    return new AccessSettings(true, Set.copyOf(users), Set.copyOf(groups), c.get(SecurityKeys.GROUP_OVERRIDES),
        c.get(SecurityKeys.AUDIT_FILE));
  }

  /** Settings for tests and standalone use: on, with these superusers besides the process's user. */
  public static AccessSettings on(String... superusers) {
    Set<String> users = new LinkedHashSet<>(Set.of(superusers));
    users.add(System.getProperty("user.name"));
    return new AccessSettings(true, Set.copyOf(users), Set.of(), "dr.who=;", "");
  }
}
