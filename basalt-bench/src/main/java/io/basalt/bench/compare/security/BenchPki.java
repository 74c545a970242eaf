package io.basalt.bench.compare.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The certificates of a security run, made with the JDK's keytool in the results directory: a CA, a truststore
 * holding it, and one server keystore (EC P-256, PKCS12) naming 127.0.0.1 and localhost, where every server of
 * the run listens. One password for all; the stores live only as long as the run's data.
 */
public final class BenchPki {
  static final String PASSWORD = "bench-secret";
  private static final String CA = "bench-ca";
  private static final String SERVER = "bench-server";

  private final Path truststore;
  private final Path serverKeystore;

  private BenchPki(Path truststore, Path serverKeystore) {
    this.truststore = truststore;
    this.serverKeystore = serverKeystore;
  }

  /** Makes the CA and stores in {@code dir} (created); about a second of keytool runs. */
  public static BenchPki create(Path dir) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Path caStore = dir.resolve(CA + ".p12");
    Path caCert = dir.resolve(CA + ".pem");
    Path trust = dir.resolve("truststore.p12");
    Path server = dir.resolve(SERVER + ".p12");
    Path csr = dir.resolve(SERVER + ".csr");
    Path cert = dir.resolve(SERVER + ".pem");
    for (Path p : List.of(caStore, caCert, trust, server, csr, cert)) {
      Files.deleteIfExists(p);
    }
    keytool("-genkeypair", "-alias", CA, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + CA,
        "-ext", "bc:c", "-validity", "30", "-keystore", caStore.toString());
    keytool("-exportcert", "-rfc", "-alias", CA, "-keystore", caStore.toString(), "-file", caCert.toString());
    keytool("-importcert", "-noprompt", "-alias", CA, "-file", caCert.toString(), "-keystore", trust.toString());
    keytool("-genkeypair", "-alias", SERVER, "-keyalg", "EC", "-groupname", "secp256r1", "-dname",
        "CN=localhost,O=basalt-bench", "-keystore", server.toString());
    keytool("-certreq", "-alias", SERVER, "-keystore", server.toString(), "-file", csr.toString());
    keytool("-gencert", "-rfc", "-alias", CA, "-keystore", caStore.toString(), "-infile", csr.toString(),
        "-outfile", cert.toString(), "-validity", "30", "-ext", "SAN=ip:127.0.0.1,dns:localhost");
    keytool("-importcert", "-noprompt", "-alias", CA, "-file", caCert.toString(), "-keystore", server.toString());
    keytool("-importcert", "-noprompt", "-alias", SERVER, "-file", cert.toString(), "-keystore", server.toString());
    return new BenchPki(trust, server);
  }

  public Path truststore() {
    return truststore;
  }

  public Path serverKeystore() {
    return serverKeystore;
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
