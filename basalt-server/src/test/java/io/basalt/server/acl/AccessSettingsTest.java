package io.basalt.server.acl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.config.BasaltConfig;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AccessSettingsTest {
  @Test
  void offUnlessAskedFor() throws Exception {
    assertThat(AccessSettings.from(BasaltConfig.of(Map.of())).enabled()).isFalse();
  }

  @Test
  void superusersAreTheListedUsersGroupsAndTheServersOwnUser() throws Exception {
    AccessSettings s = AccessSettings.from(BasaltConfig.of(Map.of("hbase.security.authorization", "true",
        "hbase.superuser", "admin, @ops,,ops2")));
    assertThat(s.enabled()).isTrue();
    assertThat(s.superusers()).containsExactlyInAnyOrder("admin", "ops2", System.getProperty("user.name"));
    assertThat(s.supergroups()).containsExactly("ops");
  }

  @Test
  void cellLevelEvaluationCannotBeHonouredAndStopsTheServer() {
    assertThatThrownBy(() -> AccessSettings.from(BasaltConfig.of(Map.of("hbase.security.authorization", "true",
        "hbase.security.access.early_out", "false")))).isInstanceOf(IOException.class)
        .hasMessageContaining("hbase.security.access.early_out=false");
  }

  @Test
  void groupsComeFromTheStaticMappingFirst() {
    UserGroups g = new UserGroups("alice=a,b;bob=;");
    assertThat(g.groupsOf("alice")).containsExactly("a", "b");
    assertThat(g.groupsOf("bob")).isEmpty();
    assertThat(g.groupsOf("no-such-user-xyz")).isEmpty(); // unknown to the system
    assertThat(g.groupsOf("bad name; rm -rf /")).isEmpty(); // never handed to a command
    assertThat(io.basalt.server.rpc.Caller.shortName("hbase/host.example.com@EXAMPLE.COM")).isEqualTo("hbase");
    assertThat(List.of(io.basalt.server.rpc.Caller.shortName("alice"))).containsExactly("alice");
  }
}
