package io.basalt.it.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.it.cluster.LocalCluster;
import io.basalt.server.control.ControlCodec;
import io.basalt.server.control.ControlEndpoint;
import io.basalt.server.rpc.RpcClient;
import io.basalt.server.security.ClusterSecret;
import io.basalt.server.security.MemberCertificateRule;
import io.basalt.server.security.MemberConnector;
import io.basalt.server.security.MemberTls;
import io.basalt.server.security.ReloadingTls;
import io.basalt.server.security.TlsMaterial;
import io.basalt.server.security.TlsOptions;
import io.basalt.server.transfer.SegmentFetcher;
import io.basalt.server.transfer.SegmentManifest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceCall;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionSpecifier;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Internal traffic over TLS with mutual-TLS member identity, in a cluster of separate processes (a master,
 * three region servers, each with its own member certificate of the test's CA and the rule
 * {@code basalt.member.tls.subject}): a replicated table replicates over JE's TLS channels, a copy moved to a
 * server without one is filled by its group over them, a single-copy
 * region moves by shipping its segments over TLS, and an ordinary client certificate of the same CA cannot
 * make a control call or fetch a segment even with the cluster secret; plaintext connections with the secret
 * to the transfer and replication ports are refused.
 */
@Timeout(400)
class InternalTlsTest {
  private static final byte[] F = Bytes.toBytes("f");
  private static final byte[] Q = Bytes.toBytes("q");
  private static final String RULE = "CN=basalt-server-[0-9]+,O=basalt-test";
  private static final Pattern SEGMENT_PORT = Pattern.compile("segment server listening on [^ ]*:([0-9]+) .*\\(TLS\\)");

  @TempDir static Path pkiDir;
  static TestPki ca;
  static Path member;
  static Path client;

  @TempDir Path dir;

  @BeforeAll
  static void makeCertificates() throws Exception {
    ca = TestPki.create(pkiDir, "cluster-ca");
    member = ca.keystore("basalt-server-1");
    client = ca.keystore("alice");
  }

  private static List<String> tlsArgs() throws Exception {
    return List.of("--hbase.server.netty.tls.enabled", "true",
        "--hbase.rpc.tls.keystore.location", member.toString(), "--hbase.rpc.tls.keystore.password", TestPki.PASSWORD,
        "--hbase.rpc.tls.truststore.location", ca.truststore().toString(),
        "--hbase.rpc.tls.truststore.password", TestPki.PASSWORD, "--basalt.member.tls.subject", RULE);
  }

  @Test
  void replicationAndMovesRunOverTlsAndOnlyCertifiedMembersGetIn() throws Exception {
    List<String> master = new ArrayList<>(List.of("--replication-factor", "3"));
    master.addAll(tlsArgs());
    try (LocalCluster cluster = new LocalCluster(dir, 1, 3, tlsArgs(), master);
         Connection conn = ConnectionFactory.createConnection(cluster.clientConfiguration());
         Admin admin = conn.getAdmin()) {
      ClusterSecret secret = ClusterSecret.loadOrCreate(cluster.secretFile());
      // Replicated: three copies, JE HA between the servers over TLS.
      TableName replicated = TableName.valueOf("replicated_tls");
      admin.createTable(TableDescriptorBuilder.newBuilder(replicated)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
      writeAndRead(conn, replicated, 200);

      // Two copies on three servers: moving one to the third makes JE fill a new member over TLS.
      TableName pair = TableName.valueOf("member_moved_tls");
      admin.createTable(TableDescriptorBuilder.newBuilder(pair).setRegionReplication(2)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
      writeAndRead(conn, pair, 300);
      RegionInfo pairRegion = admin.getRegions(pair).stream().filter(r -> r.getReplicaId() == 0).findFirst()
          .orElseThrow();
      List<String> before = copies(conn, pair);
      ServerName newMember = admin.getRegionServers().stream()
          .filter(s -> !before.contains(s.getAddress().toString())).findFirst().orElseThrow();
      long memberStart = System.nanoTime();
      admin.move(pairRegion.getEncodedNameAsBytes(), newMember);
      System.out.println("internal TLS: member move of " + pairRegion.getEncodedName() + " to " + newMember.getAddress()
          + " in " + (System.nanoTime() - memberStart) / 1_000_000 + " ms");
      assertThat(copies(conn, pair)).as("two copies, one on the new member").hasSize(2)
          .contains(newMember.getAddress().toString());
      try (Table t = conn.getTable(pair)) {
        assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes("row299"))).getValue(F, Q))).isEqualTo("value-299");
      }

      // One copy: a move ships its segments over TLS.
      TableName single = TableName.valueOf("moved_tls");
      admin.createTable(TableDescriptorBuilder.newBuilder(single).setRegionReplication(1)
          .setColumnFamily(ColumnFamilyDescriptorBuilder.of(F)).build());
      writeAndRead(conn, single, 500);
      admin.flush(single);
      RegionInfo region = admin.getRegions(single).get(0);
      ServerName from = conn.getRegionLocator(single).getRegionLocation(Bytes.toBytes("row0")).getServerName();
      ServerName to = admin.getRegionServers().stream().filter(s -> !s.getAddress().equals(from.getAddress()))
          .findFirst().orElseThrow();
      long start = System.nanoTime();
      admin.move(region.getEncodedNameAsBytes(), to);
      System.out.println("internal TLS: moved " + region.getEncodedName() + " in "
          + (System.nanoTime() - start) / 1_000_000 + " ms");
      assertThat(conn.getRegionLocator(single).getRegionLocation(Bytes.toBytes("row0"), true).getServerName()
          .getAddress()).isEqualTo(to.getAddress());
      writeAndRead(conn, single, 0);
      LocalCluster.Node source = cluster.regionServerAt(from);
      String sourceLog = cluster.logOf(source.name());
      assertThat(sourceLog).contains("(TLS)");

      // An ordinary client certificate of the same CA with the cluster secret: no control call.
      ServerName server = conn.getRegionLocator(single).getRegionLocation(Bytes.toBytes("row0")).getServerName();
      InetSocketAddress rpc = new InetSocketAddress(server.getHostname(), server.getPort());
      try (RpcClient intruder = new RpcClient("intruder", 5_000, new MemberConnector(secret, tls(client), options()))) {
        assertThatThrownBy(() -> onlineRegions(intruder, rpc, server)).isInstanceOf(IOException.class);
      }
      try (RpcClient ok = new RpcClient("member", 5_000, new MemberConnector(secret, tls(member), options()))) {
        assertThat(onlineRegions(ok, rpc, server)).as("a member certificate with the secret").isNotEmpty();
      }

      // Nor a segment: refused at the TLS handshake, before any request.
      Matcher m = SEGMENT_PORT.matcher(sourceLog);
      assertThat(m.find()).as("the segment server logged its TLS port").isTrue();
      InetSocketAddress segments = new InetSocketAddress(source.host(), Integer.parseInt(m.group(1)));
      SegmentManifest wanted = new SegmentManifest(region.getEncodedName(), List.of(new SegmentManifest.Segment(0, 1)), 0);
      MemberTls clientTls = new MemberTls(tls(client), options(), options(), MemberCertificateRule.of(RULE));
      assertThatThrownBy(() -> new SegmentFetcher(SegmentFetcher.Options.DEFAULT, new MemberConnector(secret, clientTls))
          .fetch(segments, wanted, dir.resolve("stolen"))).as("an ordinary certificate fetching a segment")
          .isInstanceOf(IOException.class);
      // Plaintext with the secret: the transfer port speaks TLS only.
      try (SocketChannel ch = SocketChannel.open(segments)) {
        ch.socket().setSoTimeout(10_000);
        assertThatThrownBy(() -> new MemberConnector(secret, null, TlsOptions.DEFAULT).prove(ch, segments))
            .as("plaintext to the transfer port").isInstanceOf(IOException.class);
      }
      // Plaintext with the secret to every replication port the servers listen on.
      int refused = 0;
      for (LocalCluster.Node rs : cluster.regionServers()) {
        String[] range = rs.arg("--replication-ports").split("-");
        for (int port = Integer.parseInt(range[0]); port <= Integer.parseInt(range[1]); port++) {
          InetSocketAddress je = new InetSocketAddress(rs.host(), port);
          if (!accepts(je)) {
            continue;
          }
          try (SocketChannel ch = SocketChannel.open(je)) {
            assertThatThrownBy(() -> new MemberConnector(secret, null, TlsOptions.DEFAULT).prove(ch, je))
                .as("plaintext to replication port " + port).isInstanceOf(IOException.class);
            refused++;
          }
        }
      }
      assertThat(refused).as("replication ports probed").isGreaterThanOrEqualTo(3);
      writeAndRead(conn, replicated, 0);
    }
  }

  private static void writeAndRead(Connection conn, TableName name, int rows) throws IOException {
    try (Table t = conn.getTable(name)) {
      for (int i = 0; i < rows; i++) {
        t.put(new Put(Bytes.toBytes("row" + i)).addColumn(F, Q, Bytes.toBytes("value-" + i)));
      }
      assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes("row0"))).getValue(F, Q))).isEqualTo("value-0");
    }
  }

  private static List<String> copies(Connection conn, TableName table) throws IOException {
    try (org.apache.hadoop.hbase.client.RegionLocator locator = conn.getRegionLocator(table)) {
      return locator.getRegionLocations(Bytes.toBytes("row0"), true).stream()
          .map(l -> l.getServerName().getAddress().toString()).toList();
    }
  }

  private static boolean accepts(InetSocketAddress address) {
    try (Socket s = new Socket()) {
      s.connect(address, 500);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static ReloadingTls tls(Path keystore) throws Exception {
    return new ReloadingTls(new TlsMaterial(keystore, "PKCS12", TestPki.PASSWORD.toCharArray(), ca.truststore(),
        "PKCS12", TestPki.PASSWORD.toCharArray(), "TLSv1.2"), 0);
  }

  private static TlsOptions options() {
    return new TlsOptions(List.of("TLSv1.2"), List.of(), "NEED", true);
  }

  private static List<RegionInfo> onlineRegions(RpcClient client, InetSocketAddress address, ServerName server)
      throws IOException {
    CoprocessorServiceRequest request = CoprocessorServiceRequest.newBuilder()
        .setRegion(RegionSpecifier.newBuilder().setType(RegionSpecifier.RegionSpecifierType.REGION_NAME)
            .setValue(ByteString.EMPTY))
        .setCall(CoprocessorServiceCall.newBuilder().setRow(ByteString.copyFromUtf8(server.getServerName()))
            .setServiceName(ControlEndpoint.SERVICE).setMethodName("onlineRegions").setRequest(ByteString.EMPTY))
        .build();
    CoprocessorServiceResponse r = client.call(address, "ClientService", "ExecRegionServerService", request,
        CoprocessorServiceResponse.getDefaultInstance(), 10_000);
    return new ControlCodec.Reader(r.getValue().getValue().toByteArray()).regions();
  }
}
