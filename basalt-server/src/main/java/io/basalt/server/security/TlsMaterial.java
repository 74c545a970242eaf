package io.basalt.server.security;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Locale;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A keystore and truststore as HBase's {@code hbase.rpc.tls.*} keys name them, turned into an
 * {@link SSLContext}. Anything unusable (missing file, wrong password, no key) is an {@link IOException}
 * naming the file: a server asked for TLS must not start without it.
 */
public record TlsMaterial(Path keystore, String keystoreType, char[] keystorePassword, Path truststore,
    String truststoreType, char[] truststorePassword, String protocol) {

  public SSLContext sslContext() throws IOException {
    try {
      KeyManagerFactory kmf = null;
      if (keystore != null) {
        KeyStore ks = load(keystore, keystoreType, keystorePassword, "keystore");
        if (!hasKey(ks)) {
          throw new IOException("keystore " + keystore + " holds no private key");
        }
        kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(ks, keystorePassword);
      }
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(truststore == null ? null : load(truststore, truststoreType, truststorePassword, "truststore"));
      SSLContext context = SSLContext.getInstance(protocol);
      context.init(kmf == null ? null : kmf.getKeyManagers(), tmf.getTrustManagers(), null);
      return context;
    } catch (GeneralSecurityException e) {
      throw new IOException("TLS set-up failed (" + keystore + ", " + truststore + "): " + e.getMessage(), e);
    }
  }

  private static KeyStore load(Path file, String type, char[] password, String what)
      throws IOException, GeneralSecurityException {
    KeyStore ks = KeyStore.getInstance(type(file, type));
    try (InputStream in = Files.newInputStream(file)) {
      ks.load(in, password);
    } catch (NoSuchFileException e) {
      throw new IOException(what + " " + file + " does not exist");
    } catch (IOException e) {
      // KeyStore reports a wrong password as an IOException whose cause is UnrecoverableKeyException.
      throw new IOException("cannot read " + what + " " + file + ": " + e.getMessage()
          + " (wrong password or type?)", e);
    }
    return ks;
  }

  private static boolean hasKey(KeyStore ks) throws GeneralSecurityException {
    for (var aliases = ks.aliases(); aliases.hasMoreElements(); ) {
      if (ks.isKeyEntry(aliases.nextElement())) {
        return true;
      }
    }
    return false;
  }

  static String type(Path file, String configured) throws IOException {
    if (configured != null && !configured.isEmpty()) {
      String t = configured.toUpperCase(Locale.ROOT);
      if (t.equals("JKS") || t.equals("PKCS12")) {
        return t;
      }
      throw new IOException("keystore type " + configured + " is not supported by Basalt (JKS or PKCS12; PEM and "
          + "BCFKS not yet)");
    }
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (name.endsWith(".pem") || name.endsWith(".crt") || name.endsWith(".bcfks")) {
      throw new IOException(file + ": PEM and BCFKS stores are not supported by Basalt yet (use JKS or PKCS12)");
    }
    return name.endsWith(".jks") ? "JKS" : "PKCS12";
  }
}
