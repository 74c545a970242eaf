package io.basalt.server.auth;

import io.basalt.server.security.Authentication;
import io.basalt.server.security.ServerSecurity;
import io.basalt.server.security.TokenAuthority;
import io.basalt.server.security.TokenKeys;
import java.util.function.Supplier;
import org.apache.curator.framework.CuratorFramework;

/** Gives a server's authentication the shared token keys once it has ZooKeeper (with authentication on). */
public final class TokenService {
  private TokenService() {}

  /** Token keys live under {@code <root>/tokenauth/keys}, sealed with the cluster secret. */
  public static void attach(ServerSecurity security, CuratorFramework zk, String root, Supplier<String> clusterId) {
    Authentication auth = security.authentication();
    if (!auth.required()) {
      return;
    }
    TokenKeys keys = new TokenKeys(zk, root + "/tokenauth/keys", security.secret(), auth.keyUpdateIntervalMillis(),
        auth.tokenLifetimeMillis(), System::currentTimeMillis);
    auth.attachTokens(new TokenAuthority(keys, clusterId, System::currentTimeMillis));
  }
}
