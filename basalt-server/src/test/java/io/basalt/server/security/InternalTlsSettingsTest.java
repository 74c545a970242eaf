package io.basalt.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.SecurityKeys;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Settings asking for internal TLS or a member certificate rule: what they turn on, and every one that
 * cannot be honoured stopping the server with the reason instead of serving in plaintext.
 */
class InternalTlsSettingsTest {
  private static final ClusterSecret SECRET = ClusterSecret.of(new byte[16]);

  @TempDir static Path pkiDir;
  static TestCertificates pki;
  static Path member;

  @BeforeAll
  static void certificates() throws Exception {
    pki = TestCertificates.create(pkiDir);
    member = pki.memberKeystore("server1");
  }

  private static Map<String, String> stores() {
    Map<String, String> m = new HashMap<>();
    m.put(SecurityKeys.KEYSTORE_LOCATION.name(), member.toString());
    m.put(SecurityKeys.KEYSTORE_PASSWORD.name(), TestCertificates.PASSWORD);
    m.put(SecurityKeys.TRUSTSTORE_LOCATION.name(), pki.truststore().toString());
    m.put(SecurityKeys.TRUSTSTORE_PASSWORD.name(), TestCertificates.PASSWORD);
    return m;
  }

  private static ServerSecurity start(Map<String, String> settings) throws IOException {
    return ServerSecurity.from(BasaltConfig.of(settings), SECRET);
  }

  @Test
  void internalTlsFollowsServerTlsOrItsOwnKey() throws IOException {
    try (ServerSecurity off = start(Map.of())) {
      assertThat(off.memberTls()).isNull();
      assertThat(off.internalConnector().encrypts()).isFalse();
    }
    Map<String, String> server = stores();
    server.put(SecurityKeys.SERVER_TLS.name(), "true");
    try (ServerSecurity s = start(server)) {
      assertThat(s.memberTls()).isNotNull();
      assertThat(s.memberTls().rule().restricts()).isFalse();
      assertThat(s.internalConnector().encrypts()).isTrue();
    }
    Map<String, String> internal = stores();
    internal.put(SecurityKeys.INTERNAL_TLS.name(), "true");
    internal.put(SecurityKeys.MEMBER_SUBJECT.name(), TestCertificates.MEMBER_SUBJECT);
    try (ServerSecurity s = start(internal)) {
      assertThat(s.tlsServer()).as("the RPC port stays plaintext").isFalse();
      assertThat(s.memberTls().rule().matches("CN=server1,OU=basalt-server,O=basalt-test")).isTrue();
      assertThat(s.memberTls().rule().matches("CN=alice,OU=clients,O=basalt-test")).isFalse();
      assertThat(s.memberTls().rule().matches((String) null)).isFalse();
    }
  }

  @Test
  void settingsThatCannotBeHonouredStopTheServer() {
    Map<String, String> noKeystore = stores();
    noKeystore.remove(SecurityKeys.KEYSTORE_LOCATION.name());
    noKeystore.put(SecurityKeys.INTERNAL_TLS.name(), "true");
    assertRefused(noKeystore, "basalt.internal.tls.enabled or hbase.ssl.enabled) but hbase.rpc.tls.keystore.location is not set");

    Map<String, String> noTruststore = stores();
    noTruststore.remove(SecurityKeys.TRUSTSTORE_LOCATION.name());
    noTruststore.put(SecurityKeys.SERVER_TLS.name(), "true");
    assertRefused(noTruststore, "must trust the cluster's CA");

    Map<String, String> ruleWithoutTls = stores();
    ruleWithoutTls.put(SecurityKeys.MEMBER_SUBJECT.name(), "CN=.*");
    assertRefused(ruleWithoutTls, "basalt.member.tls.subject is set but member connections do not use TLS");

    Map<String, String> ruleUnseen = stores();
    ruleUnseen.put(SecurityKeys.SERVER_TLS.name(), "true");
    ruleUnseen.put(SecurityKeys.CLIENT_AUTH.name(), "NONE");
    ruleUnseen.put(SecurityKeys.MEMBER_SUBJECT.name(), "CN=.*");
    assertRefused(ruleUnseen, "is NONE");

    Map<String, String> badPattern = stores();
    badPattern.put(SecurityKeys.INTERNAL_TLS.name(), "true");
    badPattern.put(SecurityKeys.MEMBER_SUBJECT.name(), "CN=(");
    assertThatThrownBy(() -> start(badPattern)).hasMessageContaining("not a regular expression");
  }

  private static void assertRefused(Map<String, String> settings, String why) {
    assertThatThrownBy(() -> start(settings).close()).isInstanceOf(IOException.class).hasMessageContaining(why);
  }
}
