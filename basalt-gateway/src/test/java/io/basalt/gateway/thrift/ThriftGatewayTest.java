package io.basalt.gateway.thrift;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.gateway.thrift.generated.AlreadyExists;
import io.basalt.gateway.thrift.generated.BatchMutation;
import io.basalt.gateway.thrift.generated.ColumnDescriptor;
import io.basalt.gateway.thrift.generated.Hbase;
import io.basalt.gateway.thrift.generated.IOError;
import io.basalt.gateway.thrift.generated.IllegalArgument;
import io.basalt.gateway.thrift.generated.Mutation;
import io.basalt.gateway.thrift.generated.TAppend;
import io.basalt.gateway.thrift.generated.TCell;
import io.basalt.gateway.thrift.generated.TIncrement;
import io.basalt.gateway.thrift.generated.TRegionInfo;
import io.basalt.gateway.thrift.generated.TRowResult;
import io.basalt.gateway.thrift.generated.TScan;
import io.basalt.gateway.thrift.generated.TThriftServerType;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.TTransport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The Thrift 1 calls happybase does not make, and the error cases, through Thrift's own Java client. */
@Timeout(120)
class ThriftGatewayTest {
  private static final Map<ByteBuffer, ByteBuffer> NO_ATTRS = Map.of();
  private static GatewayFixture fixture;
  private static ThriftGateway gateway;
  private TTransport transport;
  private Hbase.Client client;

  @BeforeAll
  static void start() throws Exception {
    fixture = new GatewayFixture();
    gateway = fixture.gateway(false, false);
  }

  @AfterAll
  static void stop() throws Exception {
    if (gateway != null) {
      gateway.close();
    }
    if (fixture != null) {
      fixture.close();
    }
  }

  @BeforeEach
  void connect() throws Exception {
    transport = new TSocket("127.0.0.1", gateway.port(), 60_000);
    transport.open();
    client = new Hbase.Client(new TBinaryProtocol(transport));
  }

  @AfterEach
  void disconnect() {
    transport.close();
  }

  private static ByteBuffer b(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
  }

  private static String s(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private void createTable(String name) throws Exception {
    ColumnDescriptor cf = new ColumnDescriptor();
    cf.setName(b("cf:"));
    cf.setMaxVersions(5);
    client.createTable(b(name), List.of(cf));
  }

  private static Mutation put(String column, String value) {
    Mutation m = new Mutation();
    m.setColumn(b(column));
    m.setValue(b(value));
    return m;
  }

  @Test
  void tablesAndDescriptors() throws Exception {
    createTable("t_admin");
    assertThat(client.getTableNames()).contains(b("t_admin"));
    assertThat(client.getTableNamesWithIsTableEnabled()).containsEntry(b("t_admin"), true);
    Map<ByteBuffer, ColumnDescriptor> families = client.getColumnDescriptors(b("t_admin"));
    assertThat(families).containsOnlyKeys(b("cf:"));
    assertThat(families.get(b("cf:")).getMaxVersions()).isEqualTo(5);
    List<TRegionInfo> regions = client.getTableRegions(b("t_admin"));
    assertThat(regions).hasSize(1);
    assertThat(regions.get(0).getPort()).isPositive();
    assertThat(regions.get(0).getStartKey()).isEmpty();
    assertThat(s(client.getRegionInfo(b("t_admin,,99999999999999")).getName())).startsWith("t_admin,");
    assertThat(client.getTableRegions(b("no_such_table"))).isEmpty();
    assertThat(client.getThriftServerType()).isEqualTo(TThriftServerType.ONE);
    assertThat(client.getClusterId()).isNotBlank();

    client.compact(b("t_admin"));
    client.majorCompact(regions.get(0).bufferForName());
    assertThatThrownBy(() -> client.compact(b("no_such_table"))).isInstanceOf(IOError.class);

    assertThatThrownBy(() -> createTable("t_admin")).isInstanceOf(AlreadyExists.class);
    assertThatThrownBy(() -> client.createTable(b("bad name!"), List.of()))
        .isInstanceOf(IllegalArgument.class);
    client.disableTable(b("t_admin"));
    assertThat(client.isTableEnabled(b("t_admin"))).isFalse();
    client.enableTable(b("t_admin"));
    client.disableTable(b("t_admin"));
    client.deleteTable(b("t_admin"));
    assertThat(client.getTableNames()).doesNotContain(b("t_admin"));
    assertThatThrownBy(() -> client.deleteTable(b("t_admin"))).isInstanceOf(IOError.class)
        .hasMessageContaining("table does not exist");
  }

  @Test
  void readsAtTimestampsAndVersions() throws Exception {
    createTable("t_read");
    client.mutateRowTs(b("t_read"), b("r"), List.of(put("cf:a", "v10")), 10, NO_ATTRS);
    client.mutateRowTs(b("t_read"), b("r"), List.of(put("cf:a", "v20"), put("cf:b", "b20")), 20, NO_ATTRS);
    assertThat(client.get(b("t_read"), b("r"), b("cf:a"), NO_ATTRS)).extracting(c -> s(c.getValue()))
        .containsExactly("v20");
    assertThat(client.getVer(b("t_read"), b("r"), b("cf:a"), 5, NO_ATTRS)).extracting(TCell::getTimestamp)
        .containsExactly(20L, 10L);
    assertThat(client.getVerTs(b("t_read"), b("r"), b("cf:a"), 20, 5, NO_ATTRS)).extracting(TCell::getTimestamp)
        .containsExactly(10L);
    List<TRowResult> row = client.getRowTs(b("t_read"), b("r"), 20, NO_ATTRS);
    assertThat(row.get(0).getColumns()).containsOnlyKeys(b("cf:a"));
    assertThat(client.getRowWithColumnsTs(b("t_read"), b("r"), List.of(b("cf:b")), Long.MAX_VALUE, NO_ATTRS)
        .get(0).getColumns()).containsOnlyKeys(b("cf:b"));
    assertThat(client.getRowsTs(b("t_read"), List.of(b("r"), b("missing")), 15, NO_ATTRS)).hasSize(1);

    client.deleteAllTs(b("t_read"), b("r"), b("cf:a"), 10, NO_ATTRS);
    assertThat(client.getVer(b("t_read"), b("r"), b("cf:a"), 5, NO_ATTRS)).extracting(TCell::getTimestamp)
        .containsExactly(20L);
    client.deleteAllRowTs(b("t_read"), b("r"), 20, NO_ATTRS);
    assertThat(client.getRow(b("t_read"), b("r"), NO_ATTRS)).isEmpty();
  }

  @Test
  void mutationsIncrementsAppendsAndCheckAndPut() throws Exception {
    createTable("t_write");
    Mutation del = new Mutation();
    del.setIsDelete(true);
    del.setColumn(b("cf:gone"));
    client.mutateRow(b("t_write"), b("r1"), List.of(put("cf:gone", "x")), NO_ATTRS);
    client.mutateRows(b("t_write"), List.of(new BatchMutation(b("r1"), List.of(del, put("cf:a", "1"))),
        new BatchMutation(b("r2"), List.of(put("cf:a", "2")))), NO_ATTRS);
    assertThat(client.getRow(b("t_write"), b("r1"), NO_ATTRS).get(0).getColumns()).containsOnlyKeys(b("cf:a"));

    assertThat(client.atomicIncrement(b("t_write"), b("c"), b("cf:n"), 3)).isEqualTo(3);
    client.increment(new TIncrement(b("t_write"), b("c"), b("cf:n"), 4));
    client.incrementRows(List.of(new TIncrement(b("t_write"), b("c"), b("cf:n"), 1),
        new TIncrement(b("t_write"), b("c2"), b("cf:n"), 1)));
    assertThat(client.atomicIncrement(b("t_write"), b("c"), b("cf:n"), 0)).isEqualTo(8);

    List<TCell> appended = client.append(new TAppend(b("t_write"), b("r2"), List.of(b("cf:a")), List.of(b("+x"))));
    assertThat(appended).extracting(c -> s(c.getValue())).containsExactly("2+x");

    assertThat(client.checkAndPut(b("t_write"), b("r2"), b("cf:a"), b("wrong"), put("cf:b", "no"), NO_ATTRS)).isFalse();
    assertThat(client.checkAndPut(b("t_write"), b("r2"), b("cf:a"), b("2+x"), put("cf:b", "yes"), NO_ATTRS)).isTrue();
    assertThat(client.checkAndPut(b("t_write"), b("r3"), b("cf:a"), null, put("cf:a", "new"), NO_ATTRS)).isTrue();
    assertThat(s(client.get(b("t_write"), b("r3"), b("cf:a"), NO_ATTRS).get(0).getValue())).isEqualTo("new");

    client.deleteAll(b("t_write"), b("r2"), b("cf:a"), NO_ATTRS);
    assertThat(client.getRow(b("t_write"), b("r2"), NO_ATTRS).get(0).getColumns()).containsOnlyKeys(b("cf:b"));
    client.deleteAllRow(b("t_write"), b("r2"), NO_ATTRS);
    assertThat(client.getRow(b("t_write"), b("r2"), NO_ATTRS)).isEmpty();

    // A put needs a qualifier (HBase's gateway drops such a put with a log line; we refuse it).
    assertThatThrownBy(() -> client.mutateRow(b("t_write"), b("r"), List.of(put("cf", "v")), NO_ATTRS))
        .isInstanceOf(IllegalArgument.class);
    assertThatThrownBy(() -> client.mutateRow(b("t_write"), b("r"), List.of(put("nofamily:q", "v")), NO_ATTRS))
        .isInstanceOf(IOError.class);
  }

  @Test
  void scanners() throws Exception {
    createTable("t_scan");
    List<BatchMutation> rows = new ArrayList<>();
    for (String r : List.of("a1", "a2", "b1", "b2", "c1")) {
      rows.add(new BatchMutation(b(r), List.of(put("cf:q", r))));
    }
    client.mutateRows(b("t_scan"), rows, NO_ATTRS);

    int id = client.scannerOpenWithPrefix(b("t_scan"), b("b"), null, NO_ATTRS);
    assertThat(keys(client.scannerGetList(id, 10))).containsExactly("b1", "b2");
    assertThat(client.scannerGet(id)).isEmpty();
    client.scannerClose(id);
    assertThatThrownBy(() -> client.scannerGet(id)).isInstanceOf(IllegalArgument.class)
        .hasMessageContaining("scanner ID is invalid");
    assertThatThrownBy(() -> client.scannerClose(id)).isInstanceOf(IllegalArgument.class);

    int stop = client.scannerOpenWithStop(b("t_scan"), b("a2"), b("c1"), List.of(b("cf:q")), NO_ATTRS);
    assertThat(keys(client.scannerGetList(stop, 10))).containsExactly("a2", "b1", "b2");
    client.scannerClose(stop);

    TScan reversed = new TScan();
    reversed.setStartRow(b("b2"));
    reversed.setReversed(true);
    reversed.setCaching(2);
    reversed.setFilterString(b("KeyOnlyFilter()"));
    reversed.setSortColumns(true);
    int rev = client.scannerOpenWithScan(b("t_scan"), reversed, NO_ATTRS);
    List<TRowResult> got = client.scannerGetList(rev, 10);
    assertThat(keys(got)).containsExactly("b2", "b1", "a2", "a1");
    assertThat(got.get(0).getSortedColumns()).hasSize(1);
    assertThat(got.get(0).getSortedColumns().get(0).getCell().getValue()).isEmpty();
    client.scannerClose(rev);

    TScan bad = new TScan();
    bad.setFilterString(b("NotAFilter(1"));
    assertThatThrownBy(() -> client.scannerOpenWithScan(b("t_scan"), bad, NO_ATTRS)).isInstanceOf(IOError.class);
    // The HBase client finds out that a table is missing when the scanner first reads (so does HBase's gateway).
    assertThatThrownBy(() -> client.scannerGet(client.scannerOpen(b("no_such_table"), b(""), null, NO_ATTRS)))
        .isInstanceOf(IOError.class).satisfies(e -> assertThat(((IOError) e).isCanRetry()).isFalse());
  }

  @Test
  void malformedInputEndsOnlyThatConnection() throws Exception {
    for (byte[] garbage : List.of("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
        new byte[] {(byte) 0x80, 0x01, 0x00, 0x01, 0x7f, 0x7f, 0x7f, 0x7f, 1, 2, 3})) {
      try (Socket raw = new Socket("127.0.0.1", gateway.port())) {
        raw.setSoTimeout(10_000);
        OutputStream out = raw.getOutputStream();
        out.write(garbage);
        out.flush();
        // The gateway hangs up on it (read returns -1) or answers an exception; either way it lets go.
        raw.getInputStream().read(new byte[256]);
      }
    }
    assertThat(client.getTableNames()).isNotNull();
    String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
        URI.create("http://127.0.0.1:" + gateway.metricsPort() + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
    assertThat(metrics).contains("basalt_thrift_connections_dropped_total")
        .contains("basalt_thrift_calls_seconds_count{method=\"getTableNames\",outcome=\"ok\"}")
        .contains("basalt_thrift_scanners_open");
    assertThat(droppedConnections(metrics)).isGreaterThanOrEqualTo(2);
  }

  @Test
  void oversizedFrameIsRefusedAndFramedGatewayKeepsServing() throws Exception {
    try (ThriftGateway framed = fixture.gateway(true, true)) {
      try (Socket raw = new Socket("127.0.0.1", framed.port())) {
        raw.setSoTimeout(10_000);
        raw.getOutputStream().write(new byte[] {0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 2, 3});
        raw.getOutputStream().flush();
        assertThat(raw.getInputStream().read()).as("the gateway hangs up").isEqualTo(-1);
      }
      TTransport t = new org.apache.thrift.transport.layered.TFramedTransport(
          new TSocket("127.0.0.1", framed.port(), 30_000));
      t.open();
      try {
        Hbase.Client c = new Hbase.Client(new org.apache.thrift.protocol.TCompactProtocol(t));
        assertThat(c.getThriftServerType()).isEqualTo(TThriftServerType.ONE);
      } finally {
        t.close();
      }
    }
  }

  private static double droppedConnections(String metrics) {
    return metrics.lines().filter(l -> l.startsWith("basalt_thrift_connections_dropped_total"))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
  }

  private static List<String> keys(List<TRowResult> rows) {
    return rows.stream().map(r -> s(r.getRow())).toList();
  }
}
