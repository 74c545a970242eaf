package io.basalt.it;

import static io.basalt.it.Fixtures.CF;
import static io.basalt.it.Fixtures.Q;
import static io.basalt.it.Fixtures.b;
import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.it.target.BothTargets;
import io.basalt.it.target.ClusterTarget;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Timeout;

/** A client with cell-block codecs switched off: every cell travels inside the protobuf messages. */
@Timeout(120)
class NoCodecTest {
  @BothTargets
  void readsAndWritesWithoutCellBlocks(ClusterTarget target) throws Exception {
    Configuration conf = new Configuration(target.clientConfiguration());
    conf.set("hbase.client.rpc.codec", "");
    conf.set("hbase.client.default.rpc.codec", "");
    try (Connection conn = ConnectionFactory.createConnection(conf);
        Table table = conn.getTable(Fixtures.createTable(conn, "nc_plain", Fixtures.splits("m")))) {
      List<Put> puts = new ArrayList<>();
      for (int i = 0; i < 30; i++) {
        puts.add(new Put(b(String.format("k%02d", i))).addColumn(CF, Q, b("v" + i)).addColumn(CF, b("z"), b("w" + i)));
      }
      table.put(puts);
      Result r = table.get(new Get(b("k07")));
      assertThat(Bytes.toString(r.getValue(CF, Q))).isEqualTo("v7");
      assertThat(r.size()).isEqualTo(2);
      assertThat(table.exists(new Get(b("nope")))).isFalse();
      List<String> rows = new ArrayList<>();
      try (ResultScanner s = table.getScanner(new Scan().setCaching(4))) {
        for (Result x : s) {
          rows.add(Bytes.toString(x.getRow()));
          assertThat(x.size()).isEqualTo(2);
        }
      }
      assertThat(rows).hasSize(30).startsWith("k00").endsWith("k29");
      long n = Bytes.toLong(table.increment(new Increment(b("c")).addColumn(CF, Q, 5)).getValue(CF, Q));
      assertThat(n).isEqualTo(5);
      Object[] results = new Object[2];
      table.batch(List.of(new Get(b("k01")), new Get(b("k29"))), results);
      assertThat(Bytes.toString(((Result) results[1]).getValue(CF, Q))).isEqualTo("v29");
    }
  }
}
