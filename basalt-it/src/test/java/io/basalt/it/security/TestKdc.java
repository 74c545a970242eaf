package io.basalt.it.security;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.kerby.kerberos.kerb.server.SimpleKdcServer;

/**
 * A real KDC for the tests (Apache Kerby's SimpleKdcServer, TCP only on a free port of localhost), realm
 * EXAMPLE.COM, with a krb5.conf pointing at it that this JVM uses ({@code java.security.krb5.conf}).
 */
final class TestKdc implements AutoCloseable {
  static final String REALM = "EXAMPLE.COM";

  private final SimpleKdcServer kdc;
  private final Path dir;
  private final Path krb5conf;

  private TestKdc(SimpleKdcServer kdc, Path dir, Path krb5conf) {
    this.kdc = kdc;
    this.dir = dir;
    this.krb5conf = krb5conf;
  }

  static TestKdc start(Path dir) throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    SimpleKdcServer kdc = new SimpleKdcServer();
    kdc.setWorkDir(dir.toFile());
    kdc.setKdcHost("localhost");
    kdc.setKdcRealm(REALM);
    kdc.setAllowUdp(false);
    kdc.setAllowTcp(true);
    kdc.setKdcTcpPort(port);
    kdc.init();
    kdc.start();
    Path conf = dir.resolve("test-krb5.conf");
    Files.writeString(conf, String.join("\n",
        "[libdefaults]",
        "  default_realm = " + REALM,
        "  udp_preference_limit = 1",
        "  dns_lookup_kdc = false",
        "  dns_lookup_realm = false",
        "  rdns = false",
        "  forwardable = true",
        "[realms]",
        "  " + REALM + " = {",
        "    kdc = localhost:" + port,
        "  }",
        ""));
    System.setProperty("java.security.krb5.conf", conf.toString());
    // An HBase client used earlier in this JVM (another test class) made the JDK cache an empty Kerberos
    // configuration: read ours now (the surefire argLine exports sun.security.krb5 for this).
    Class.forName("sun.security.krb5.Config").getMethod("refresh").invoke(null);
    return new TestKdc(kdc, dir, conf);
  }

  /**
   * Adds the principals ({@code name} or {@code service/host}, realm implied) and writes a keytab: Kerby's
   * export holds every principal made so far, these and the earlier ones.
   */
  Path keytab(String file, String... principals) throws Exception {
    Path keytab = dir.resolve(file);
    kdc.createAndExportPrincipals(keytab.toFile(), principals);
    return keytab;
  }

  Path krb5conf() {
    return krb5conf;
  }

  @Override
  public void close() throws IOException {
    try {
      kdc.stop();
    } catch (Exception e) {
      throw new IOException(e);
    }
  }
}
