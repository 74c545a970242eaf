package io.basalt.server.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A cluster CA made by the test with the JDK's keytool (PKCS12, EC keys, one password), and the
 * {@link MemberTls} of a holder of one of its certificates. Certificates name 127.0.0.1 and localhost.
 */
public final class TestCertificates {
  public static final String PASSWORD = "test-secret";
  /** The member rule the tests configure: servers' certificates carry OU=basalt-server. */
  public static final String MEMBER_SUBJECT = "CN=[^,]+,OU=basalt-server,O=basalt-test";

  private final Path dir;

  private TestCertificates(Path dir) {
    this.dir = dir;
  }

  /** A new CA ({@code ca.p12}) and its truststore ({@code trust.p12}) in {@code dir}. */
  public static TestCertificates create(Path dir) throws IOException, InterruptedException {
    TestCertificates pki = new TestCertificates(dir);
    keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=test-ca",
        "-ext", "bc:c", "-validity", "30", "-keystore", dir.resolve("ca.p12").toString());
    keytool("-exportcert", "-rfc", "-alias", "ca", "-keystore", dir.resolve("ca.p12").toString(), "-file",
        dir.resolve("ca.pem").toString());
    keytool("-importcert", "-noprompt", "-alias", "ca", "-file", dir.resolve("ca.pem").toString(), "-keystore",
        pki.truststore().toString());
    return pki;
  }

  public Path truststore() {
    return dir.resolve("trust.p12");
  }

  /** A keystore {@code <name>.p12} whose certificate's subject is {@code CN=<name>,<rest>}, signed by the CA. */
  public Path keystore(String name, String rest) throws IOException, InterruptedException {
    Path ks = dir.resolve(name + ".p12");
    Path csr = dir.resolve(name + ".csr");
    Path cert = dir.resolve(name + ".pem");
    keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
        "CN=" + name + "," + rest, "-keystore", ks.toString());
    keytool("-certreq", "-alias", name, "-keystore", ks.toString(), "-file", csr.toString());
    keytool("-gencert", "-rfc", "-alias", "ca", "-keystore", dir.resolve("ca.p12").toString(), "-infile",
        csr.toString(), "-outfile", cert.toString(), "-validity", "2", "-ext", "SAN=ip:127.0.0.1,dns:localhost");
    keytool("-importcert", "-noprompt", "-alias", "ca", "-file", dir.resolve("ca.pem").toString(), "-keystore",
        ks.toString());
    keytool("-importcert", "-noprompt", "-alias", name, "-file", cert.toString(), "-keystore", ks.toString());
    return ks;
  }

  /** A member's keystore: its subject matches {@link #MEMBER_SUBJECT}. */
  public Path memberKeystore(String name) throws IOException, InterruptedException {
    return keystore(name, "OU=basalt-server,O=basalt-test");
  }

  /** An ordinary client's keystore of the same CA: it does not match {@link #MEMBER_SUBJECT}. */
  public Path clientKeystore(String name) throws IOException, InterruptedException {
    return keystore(name, "OU=clients,O=basalt-test");
  }

  /** TLS for internal traffic with {@code keystore}, this CA, and the member rule {@code subjectPattern}. */
  public MemberTls memberTls(Path keystore, String subjectPattern) throws IOException {
    return memberTls(reloading(keystore), subjectPattern);
  }

  /** As {@link #memberTls(Path, String)} over {@code tls} (whose files a test may replace, then reload). */
  public static MemberTls memberTls(ReloadingTls tls, String subjectPattern) {
    TlsOptions options = new TlsOptions(List.of("TLSv1.2"), List.of(), "NEED", true);
    return new MemberTls(tls, options, options, MemberCertificateRule.of(subjectPattern));
  }

  /** The certificates of {@code keystore} and this CA, reloaded only when asked ({@link ReloadingTls#reloadIfChanged}). */
  public ReloadingTls reloading(Path keystore) throws IOException {
    return new ReloadingTls(new TlsMaterial(keystore, "PKCS12", PASSWORD.toCharArray(), truststore(), "PKCS12",
        PASSWORD.toCharArray(), "TLSv1.2"), 0);
  }

  private static void keytool(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    cmd.addAll(List.of(args));
    cmd.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD, "-keypass", PASSWORD));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException("keytool " + String.join(" ", args) + " failed: " + new String(out));
    }
  }
}
