package io.basalt.server.security;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.hadoop.hbase.security.AccessDeniedException;
import org.junit.jupiter.api.Test;

class ProxyUserRulesTest {
  private static final Function<String, List<String>> GROUPS =
      u -> u.equals("carol") ? List.of("staff", "analysts") : List.of();

  private static InetAddress ip(String a) throws Exception {
    return InetAddress.getByName(a);
  }

  @Test
  void withNoSettingNobodyMayImpersonate() throws Exception {
    ProxyUserRules none = ProxyUserRules.from(Map.of("hbase.superuser", "admin"));
    assertThatThrownBy(() -> none.authorize("rest", "alice", ip("127.0.0.1"), GROUPS))
        .isInstanceOf(AccessDeniedException.class).hasMessage("User: rest is not allowed to impersonate alice");
  }

  @Test
  void namedUsersFromNamedHosts() throws Exception {
    ProxyUserRules rules = ProxyUserRules.from(Map.of("hadoop.proxyuser.rest.users", "alice, bob",
        "hadoop.proxyuser.rest.hosts", "10.0.0.5,127.0.0.1"));
    assertThatCode(() -> rules.authorize("rest", "alice", ip("127.0.0.1"), GROUPS)).doesNotThrowAnyException();
    assertThatCode(() -> rules.authorize("rest", "bob", ip("10.0.0.5"), GROUPS)).doesNotThrowAnyException();
    assertThatThrownBy(() -> rules.authorize("rest", "carol", ip("127.0.0.1"), GROUPS))
        .hasMessage("User: rest is not allowed to impersonate carol");
    assertThatThrownBy(() -> rules.authorize("rest", "alice", ip("10.0.0.6"), GROUPS))
        .isInstanceOf(AccessDeniedException.class)
        .hasMessage("Unauthorized connection for super-user: rest from IP 10.0.0.6");
    // The rules are per real user: another gateway has none.
    assertThatThrownBy(() -> rules.authorize("thrift", "alice", ip("127.0.0.1"), GROUPS))
        .hasMessage("User: thrift is not allowed to impersonate alice");
  }

  @Test
  void groupsWildcardsAndRanges() throws Exception {
    ProxyUserRules rules = ProxyUserRules.from(Map.of("hadoop.proxyuser.rest.groups", "analysts",
        "hadoop.proxyuser.rest.hosts", "192.168.1.0/24", "hadoop.proxyuser.thrift.users", "*",
        "hadoop.proxyuser.thrift.hosts", "*", "hadoop.proxyuser.web.groups", "*", "hadoop.proxyuser.web.hosts",
        "localhost"));
    assertThatCode(() -> rules.authorize("rest", "carol", ip("192.168.1.200"), GROUPS)).doesNotThrowAnyException();
    assertThatThrownBy(() -> rules.authorize("rest", "carol", ip("192.168.2.1"), GROUPS))
        .hasMessageContaining("from IP 192.168.2.1");
    assertThatThrownBy(() -> rules.authorize("rest", "alice", ip("192.168.1.1"), GROUPS))
        .hasMessage("User: rest is not allowed to impersonate alice");
    assertThatCode(() -> rules.authorize("thrift", "anyone", ip("8.8.8.8"), GROUPS)).doesNotThrowAnyException();
    assertThatCode(() -> rules.authorize("web", "dave", ip("127.0.0.1"), GROUPS)).doesNotThrowAnyException();
    assertThatThrownBy(() -> rules.authorize("web", "dave", ip("10.1.1.1"), GROUPS))
        .hasMessageContaining("super-user: web");
  }

  @Test
  void aRuleWithoutHostsAdmitsNoAddressAndBadEntriesMatchNothing() throws Exception {
    ProxyUserRules rules = ProxyUserRules.from(Map.of("hadoop.proxyuser.rest.users", "alice",
        "hadoop.proxyuser.x.hosts", "10.0.0.0/99,no-such-host.invalid", "hadoop.proxyuser.x.users", "alice",
        "hadoop.proxyuser.rest.other", "ignored"));
    assertThatThrownBy(() -> rules.authorize("rest", "alice", ip("127.0.0.1"), GROUPS))
        .hasMessageContaining("Unauthorized connection");
    assertThatThrownBy(() -> rules.authorize("x", "alice", ip("10.0.0.1"), GROUPS))
        .hasMessageContaining("Unauthorized connection");
    assertThatThrownBy(() -> rules.authorize("rest", "alice", null, GROUPS))
        .hasMessageContaining("from IP unknown");
  }
}
