package io.basalt.bench.compare.security;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;

/**
 * What "security on" means in the bench, the same for Basalt and HBase 2.6.4 wherever both read the key: TLS on
 * the client RPC ports (HBase 2.6's {@code hbase.server.netty.tls.*} keys, TLS only, no plaintext; the servers'
 * own calls to each other over TLS too) and authorisation on (HBase's AccessController model), the workloads
 * run as {@link #USER}, an ordinary user whose rights come from a grant. Client certificates are not asked for
 * (client auth NONE): with NEED a certificate's CN would name the user on Basalt, and the bench's two users
 * would need two certificates; the TLS cost (handshake once per connection, then encryption of every byte) is
 * the same.
 */
public final class SecurityMode {
  /** The user the workloads run as on a secured target: not a superuser; CREATE, READ, WRITE on the namespace. */
  public static final String USER = "benchuser";
  /** Suffix of a secured target's name: "basalt-secure", "hbase-secure". */
  public static final String SUFFIX = "-secure";

  private SecurityMode() {}

  /** TLS keys of a server, the same keys for Basalt and HBase. */
  public static Map<String, String> serverTls(BenchPki pki) {
    Map<String, String> s = new LinkedHashMap<>();
    s.put("hbase.server.netty.tls.enabled", "true");
    s.put("hbase.server.netty.tls.supportplaintext", "false");
    s.put("hbase.server.netty.tls.client.auth.mode", "NONE");
    s.put("hbase.client.netty.tls.enabled", "true");
    s.put("hbase.rpc.tls.keystore.location", pki.serverKeystore().toString());
    s.put("hbase.rpc.tls.keystore.password", BenchPki.PASSWORD);
    s.put("hbase.rpc.tls.truststore.location", pki.truststore().toString());
    s.put("hbase.rpc.tls.truststore.password", BenchPki.PASSWORD);
    return s;
  }

  /** Basalt: TLS and authorisation (the AccessController's rules are built in). */
  public static Map<String, String> basalt(BenchPki pki) {
    Map<String, String> s = serverTls(pki);
    s.put("hbase.security.authorization", "true");
    return s;
  }

  /** HBase 2.6.4: TLS, and authorisation with its AccessController as master, region and region server coprocessor. */
  public static Map<String, String> hbase(BenchPki pki) {
    Map<String, String> s = serverTls(pki);
    s.put("hbase.security.authorization", "true");
    String accessController = "org.apache.hadoop.hbase.security.access.AccessController";
    s.put("hbase.coprocessor.master.classes", accessController);
    s.put("hbase.coprocessor.region.classes", accessController);
    s.put("hbase.coprocessor.regionserver.classes", accessController);
    return s;
  }

  /** The client side: TLS, trusting the run's CA. */
  public static Configuration client(Configuration conf, BenchPki pki) {
    conf.setBoolean("hbase.client.netty.tls.enabled", true);
    conf.set("hbase.rpc.tls.truststore.location", pki.truststore().toString());
    conf.set("hbase.rpc.tls.truststore.password", BenchPki.PASSWORD);
    return conf;
  }
}
