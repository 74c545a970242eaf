package io.basalt.it.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import io.basalt.server.status.StatusServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The status pages and /metrics of a standalone server, after a table was created with split keys through
 * the HBase client, written, read and split: /metrics over plain HTTP, the pages in headless Chromium.
 */
@Timeout(300)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StatusPagesTest {
  private static final byte[] CF = Bytes.toBytes("cf");
  /** A table name and split key that would break the page if not escaped (keys may be any bytes). */
  private static final TableName TABLE = TableName.valueOf("web_status");
  private static final byte[] TRICKY_KEY = Bytes.toBytes("m<b>&\"x");

  @TempDir static Path dir;
  private StandaloneServer server;
  private StatusServer status;
  private String base;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @BeforeAll
  void start() throws Exception {
    server = new StandaloneServer(StandaloneConfig.defaults(dir.resolve("data")).withPorts(0, 0, 0));
    status = StatusServer.standalone(server.masterNode(), server.regionServerNode(), "127.0.0.1", 0);
    base = "http://127.0.0.1:" + status.address().getPort();
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", server.zookeeperQuorum());
    conf.setInt("hbase.zookeeper.property.clientPort", server.zookeeperPort());
    conf.setInt("hbase.client.retries.number", 5);
    try (Connection conn = ConnectionFactory.createConnection(conf); Admin admin = conn.getAdmin()) {
      admin.createTable(TableDescriptorBuilder.newBuilder(TABLE).setColumnFamily(ColumnFamilyDescriptorBuilder.of(CF)).build(),
          new byte[][] {Bytes.toBytes("g"), TRICKY_KEY});
      try (Table t = conn.getTable(TABLE)) {
        List<Put> puts = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
          puts.add(new Put(Bytes.toBytes(String.format("%c%04d", 'a' + i % 26, i))).addColumn(CF, CF, Bytes.toBytes(i)));
        }
        t.put(puts);
        for (int i = 0; i < 50; i++) {
          t.get(new Get(Bytes.toBytes(String.format("%c%04d", 'a' + i % 26, i))));
        }
      }
      // One split through the master (the region [g, m<b>...) at row "k"), so the history has an entry.
      int before = admin.getRegions(TABLE).size();
      admin.split(TABLE, Bytes.toBytes("k"));
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (admin.getRegions(TABLE).size() <= before && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(admin.getRegions(TABLE)).hasSize(before + 1);
    }
  }

  @AfterAll
  void stop() {
    if (status != null) {
      status.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(30)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void metricsAnswerInPrometheusFormat() throws Exception {
    HttpResponse<String> r = get("/metrics");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(v -> assertThat(v).startsWith("text/plain"));
    String m = r.body();
    assertThat(m).containsPattern("basalt_rpc_calls_seconds_count\\{method=\"Multi\",outcome=\"ok\",role=\"regionserver\",service=\"ClientService\"} [1-9]");
    assertThat(m).containsPattern("basalt_rpc_calls_seconds_bucket\\{method=\"Get\",outcome=\"ok\",role=\"regionserver\","
        + "service=\"ClientService\",le=\"0\\.001\"} [1-9]");
    assertThat(m).containsPattern("basalt_rpc_calls_seconds_count\\{method=\"CreateTable\",outcome=\"ok\",role=\"master\"");
    assertThat(m).containsPattern("basalt_region_writes_total\\{region=\"[0-9a-f]{32}\",table=\"web_status\"} [1-9]");
    assertThat(m).containsPattern("basalt_region_reads_total\\{region=\"[0-9a-f]{32}\",table=\"web_status\"} [1-9]");
    assertThat(m).containsPattern("(?m)^basalt_regions [1-9]");
    assertThat(m).containsPattern("(?m)^basalt_storage_cache_bytes [1-9]");
    assertThat(m).containsPattern("(?m)^basalt_storage_log_size_bytes [1-9]");
    assertThat(m).contains("basalt_storage_cache_hit_ratio", "basalt_storage_cleaner_backlog_files");
    assertThat(m).containsPattern("(?m)^basalt_master_splits_total 1");
    assertThat(m).containsPattern("basalt_master_operation_duration_seconds_count\\{kind=\"split\"");
    assertThat(m).containsPattern("basalt_master_regions\\{server=\"[^\"]+\",state=\"OPEN\"} [1-9]");
    assertThat(m).contains("jvm_memory_used_bytes", "jvm_gc_", "process_cpu_usage");
    assertThat(get("/nothing").statusCode()).isEqualTo(404);
  }

  @Test
  void pagesRenderInABrowser() throws Exception {
    Chromium chromium = new Chromium(dir.resolve("chromium-profile"));

    String overview = chromium.dumpDom(base + "/");
    assertThat(overview).contains("<h1>Cluster</h1>", "Region servers", "1 live of 1", "Recent splits and moves");
    assertThat(overview).contains("<a href=\"/table?name=web_status\">web_status</a>");
    assertThat(overview).containsPattern("<td>split</td><td>\\d+ ms</td><td>\\d+ ms</td><td>SPLIT</td>"
        + "<td><code>web_status,g,\\d+\\.[0-9a-f]{32}\\.</code></td>");
    assertThat(overview).contains("close ", "clone ", "publish ");

    String table = chromium.dumpDom(base + "/table?name=web_status");
    assertThat(table).contains("<h1>Table web_status</h1>", "ENABLED");
    // Five regions served (split keys g, k, m<b>&"x) and the retired parent of the split.
    assertThat(table.split("<td>OPEN").length - 1).isEqualTo(4);
    assertThat(table).contains("SPLIT into ", "<td>(start)</td>", "<td>(end)</td>");
    // Row keys are escaped: the browser shows the text, it builds no <b> element from it.
    assertThat(table).contains("<code>m&lt;b&gt;&amp;\"x</code>");
    assertThat(table).doesNotContain("<b>&amp;");

    String rs = chromium.dumpDom(base + "/rs");
    assertThat(rs).contains("Region server ", "Cache hit ratio", "ClientService.Multi", "ClientService.Get");
    assertThat(rs.split("<a href=\"/table\\?name=web_status\">").length - 1).isEqualTo(4);

    String missing = chromium.dumpDom(base + "/table?name=%3Cscript%3Ealert(1)%3C/script%3E");
    assertThat(missing).contains("No table &lt;script&gt;alert(1)&lt;/script&gt;").doesNotContain("<script>alert");
  }
}
