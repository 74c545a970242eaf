package io.basalt.server.launch;

import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.ConfigKey;
import io.basalt.server.config.InvalidConfigException;
import io.basalt.server.config.KnownKeys;
import io.basalt.server.config.SecurityKeys;
import io.basalt.server.security.Authentication;
import io.basalt.server.security.ServerSecurity;
import java.io.IOException;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The security settings of a master or region server launcher: every {@link SecurityKeys} key as an option
 * of its own name ({@code --hbase.server.netty.tls.enabled true}), as the CLI passes configuration on.
 */
public final class SecurityArgs {
  private SecurityArgs() {}

  /** The option names, to add to a launcher's accepted options. */
  public static Set<String> options() {
    Set<String> out = new LinkedHashSet<>();
    for (ConfigKey<?> key : keys()) {
      out.add("--" + key.name());
    }
    return out;
  }

  /** The security keys set in {@code c}, as launcher options (for the CLI to pass on). */
  public static void passOn(BasaltConfig c, List<String> out) {
    for (ConfigKey<?> key : keys()) {
      if (c.isSet(key)) {
        out.add("--" + key.name());
        out.add(c.rawValues().get(key.name()));
      }
    }
  }

  /**
   * The process's security, as a {@code role} advertising {@code host} (its Kerberos principal's _HOST); an
   * unusable setting ends the launcher with a one-line error (exit code 2).
   */
  public static ServerSecurity build(Args a, Authentication.Role role, String host) {
    Map<String, String> settings = new HashMap<>();
    for (ConfigKey<?> key : keys()) {
      String v = a.string("--" + key.name(), null);
      if (v != null) {
        settings.put(key.name(), v);
      }
    }
    try {
      return ServerSecurity.from(BasaltConfig.of(settings), null, role, host);
    } catch (InvalidConfigException | IOException e) {
      a.fail("security settings cannot be honoured: " + e.getMessage());
      return null;
    }
  }

  private static List<ConfigKey<?>> keys() {
    return KnownKeys.all().stream().filter(k -> KnownKeys.areaOf(k).equals("security")).toList();
  }
}
