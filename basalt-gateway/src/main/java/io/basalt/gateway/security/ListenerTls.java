package io.basalt.gateway.security;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Collections;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.apache.hadoop.conf.Configuration;

/**
 * TLS on a gateway's own listener, with HBase's keys for that gateway ({@code hbase.rest.ssl.*},
 * {@code hbase.thrift.ssl.*}): {@code .enabled}, {@code .keystore.store}, {@code .keystore.password},
 * {@code .keystore.keypassword} (default: the store's password) and {@code .keystore.type} (default from the
 * file's extension: {@code .p12}/{@code .pfx} PKCS12, else JKS). A setting that asks for TLS and cannot be
 * honoured (no store, unreadable, wrong password, no key in it) stops the gateway with the reason.
 */
public final class ListenerTls {
  private ListenerTls() {}

  /** The server context, or null when {@code <prefix>.enabled} is false. {@code prefix}: "hbase.rest.ssl". */
  public static SSLContext fromConf(Configuration conf, String prefix) throws IOException {
    if (!conf.getBoolean(prefix + ".enabled", false)) {
      return null;
    }
    String store = conf.get(prefix + ".keystore.store", "");
    if (store.isEmpty()) {
      throw new IOException(prefix + ".enabled is true but " + prefix + ".keystore.store is not set");
    }
    Path file = Path.of(store);
    if (!Files.isReadable(file)) {
      throw new IOException(prefix + ".keystore.store " + store + " does not exist or is not readable");
    }
    char[] password = secret(conf, prefix + ".keystore.password");
    char[] keyPassword = conf.get(prefix + ".keystore.keypassword") == null ? password
        : secret(conf, prefix + ".keystore.keypassword");
    String type = conf.get(prefix + ".keystore.type", "");
    if (type.isEmpty()) {
      String lower = store.toLowerCase(java.util.Locale.ROOT);
      type = lower.endsWith(".p12") || lower.endsWith(".pfx") ? "PKCS12" : "JKS";
    }
    try {
      KeyStore keys = KeyStore.getInstance(type);
      try (InputStream in = Files.newInputStream(file)) {
        keys.load(in, password);
      }
      boolean hasKey = false;
      for (String alias : Collections.list(keys.aliases())) {
        hasKey |= keys.isKeyEntry(alias);
      }
      if (!hasKey) {
        throw new IOException(prefix + ".keystore.store " + store + " holds no private key");
      }
      KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(keys, keyPassword);
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(kmf.getKeyManagers(), null, null);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      if (e.getMessage() != null && e.getMessage().startsWith(prefix)) {
        throw (IOException) e;
      }
      throw new IOException("cannot use " + prefix + ".keystore.store " + store + " (" + type + "): "
          + (e.getCause() != null && e.getMessage() != null && e.getMessage().contains("password")
              ? "wrong password" : e.getMessage()), e);
    }
  }

  private static char[] secret(Configuration conf, String key) throws IOException {
    char[] value = conf.getPassword(key); // Hadoop's credential providers, else the plain setting
    return value == null ? new char[0] : value;
  }
}
