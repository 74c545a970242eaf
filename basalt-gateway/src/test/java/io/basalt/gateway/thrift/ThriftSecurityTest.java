package io.basalt.gateway.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

class ThriftSecurityTest {
  private static Configuration conf(String qop) {
    Configuration c = new Configuration(false);
    c.set("hbase.security.authentication", "kerberos");
    if (qop != null) {
      c.set(ThriftSecurity.QOP, qop);
    }
    return c;
  }

  @Test
  void qopNamesAreHBases() throws IOException {
    assertThat(ThriftSecurity.from(conf(null), false).qop()).isNull();
    assertThat(ThriftSecurity.from(conf("auth"), false).qop()).isEqualTo("auth");
    assertThat(ThriftSecurity.from(conf("integrity"), false).qop()).isEqualTo("auth-int");
    assertThat(ThriftSecurity.from(conf("auth-conf"), false).qop()).isEqualTo("auth-conf");
    assertThat(ThriftSecurity.from(conf("PRIVACY"), false).qop()).isEqualTo("auth-conf");
    // HTTP mode authenticates with SPNEGO, not SASL; framed transport does not apply to it.
    Configuration http = conf("auth");
    http.setBoolean(ThriftSecurity.HTTP, true);
    assertThat(ThriftSecurity.from(http, true).qop()).isNull();
    assertThat(ThriftSecurity.from(http, true).http()).isTrue();
  }

  @Test
  void settingsThatCannotBeHonouredAreRefused() {
    assertThatThrownBy(() -> ThriftSecurity.from(conf("secret"), false))
        .hasMessageContaining("Invalid hbase.thrift.security.qop: secret");
    assertThatThrownBy(() -> ThriftSecurity.from(conf("auth"), true)).hasMessageContaining("framed transport");
    Configuration simple = conf("auth");
    simple.set("hbase.security.authentication", "simple");
    assertThatThrownBy(() -> ThriftSecurity.from(simple, false)).hasMessageContaining("secure mode");
    Configuration http = conf("privacy");
    http.setBoolean(ThriftSecurity.HTTP, true);
    assertThatThrownBy(() -> ThriftSecurity.from(http, false))
        .hasMessage("Thrift HTTP Server's QoP is privacy, but hbase.thrift.ssl.enabled is false");
    Configuration tls = conf(null);
    tls.setBoolean("hbase.thrift.ssl.enabled", true);
    assertThatThrownBy(() -> ThriftSecurity.from(tls, false))
        .hasMessage("hbase.thrift.ssl.enabled is true but hbase.thrift.ssl.keystore.store is not set");
  }
}
