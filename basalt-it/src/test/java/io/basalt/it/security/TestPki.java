package io.basalt.it.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A certificate authority made by the test with the JDK's keytool: PKCS12 stores, one password, EC keys.
 * Certificates name 127.0.0.1 and localhost (both ends of the tests' connections check host names).
 */
final class TestPki {
  static final String PASSWORD = "test-secret";

  private final Path dir;
  private final String caName;

  private TestPki(Path dir, String caName) {
    this.dir = dir;
    this.caName = caName;
  }

  /** A new CA in {@code dir} (its key in {@code <name>.p12}, its certificate in {@code <name>.pem}). */
  static TestPki create(Path dir, String name) throws IOException, InterruptedException {
    TestPki pki = new TestPki(dir, name);
    keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name,
        "-ext", "bc:c", "-validity", "30", "-keystore", pki.caStore().toString());
    keytool("-exportcert", "-rfc", "-alias", name, "-keystore", pki.caStore().toString(), "-file",
        pki.caCert().toString());
    return pki;
  }

  Path caStore() {
    return dir.resolve(caName + ".p12");
  }

  Path caCert() {
    return dir.resolve(caName + ".pem");
  }

  /** A truststore holding this CA's certificate. */
  Path truststore() throws IOException, InterruptedException {
    Path t = dir.resolve(caName + "-trust.p12");
    if (!Files.exists(t)) {
      keytool("-importcert", "-noprompt", "-alias", caName, "-file", caCert().toString(), "-keystore", t.toString());
    }
    return t;
  }

  /** A keystore {@code <name>.p12} with a key and a certificate this CA signed, valid from now for a day. */
  Path keystore(String name) throws IOException, InterruptedException {
    return keystore(name, null, 1);
  }

  /** As {@link #keystore(String)}, valid from {@code startDate} (keytool syntax, e.g. "-10d") for {@code days}. */
  Path keystore(String name, String startDate, int days) throws IOException, InterruptedException {
    return keystore(name, startDate, days, "ip:127.0.0.1,dns:localhost");
  }

  /** As {@link #keystore(String, String, int)}, naming the hosts of {@code san} (keytool's SAN syntax). */
  Path keystore(String name, String startDate, int days, String san) throws IOException, InterruptedException {
    Path ks = dir.resolve(name + ".p12");
    Path csr = dir.resolve(name + ".csr");
    Path cert = dir.resolve(name + ".pem");
    keytool("-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
        "CN=" + name + ",O=basalt-test", "-keystore", ks.toString());
    keytool("-certreq", "-alias", name, "-keystore", ks.toString(), "-file", csr.toString());
    List<String> sign = new ArrayList<>(List.of("-gencert", "-rfc", "-alias", caName, "-keystore",
        caStore().toString(), "-infile", csr.toString(), "-outfile", cert.toString(), "-validity",
        Integer.toString(days), "-ext", "SAN=" + san));
    if (startDate != null) {
      sign.add("-startdate");
      sign.add(startDate);
    }
    keytool(sign.toArray(String[]::new));
    keytool("-importcert", "-noprompt", "-alias", caName, "-file", caCert().toString(), "-keystore", ks.toString());
    keytool("-importcert", "-noprompt", "-alias", name, "-file", cert.toString(), "-keystore", ks.toString());
    return ks;
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
