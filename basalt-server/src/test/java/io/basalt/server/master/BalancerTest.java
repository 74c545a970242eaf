package io.basalt.server.master;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class BalancerTest {
  private static final TableName T = TableName.valueOf("t");

  private static ServerName server(int i) {
    return ServerName.valueOf("127.0.0.1", 16020 + i, 1L);
  }

  private static List<RegionInfo> regions(int from, int n) {
    List<RegionInfo> out = new ArrayList<>();
    for (int i = from; i < from + n; i++) {
      out.add(RegionInfoBuilder.newBuilder(T).setStartKey(Bytes.toBytes(String.format("%04d", i)))
          .setEndKey(Bytes.toBytes(String.format("%04d", i + 1))).setRegionId(1).build());
    }
    return out;
  }

  @Test
  void aNewServerGetsAFairShareAndNothingElseMoves() {
    Map<ServerName, List<RegionInfo>> a = new HashMap<>();
    a.put(server(0), regions(0, 12));
    a.put(server(1), regions(12, 12));
    a.put(server(2), List.of());
    List<Balancer.Move> moves = Balancer.plan(a);
    assertThat(moves).hasSize(8);
    assertThat(moves).allMatch(m -> m.to().equals(server(2)));
    assertThat(moves.stream().filter(m -> m.from().equals(server(0)))).hasSize(4);
  }

  @Test
  void balancedClustersAreLeftAlone() {
    Map<ServerName, List<RegionInfo>> a = new HashMap<>();
    a.put(server(0), regions(0, 3));
    a.put(server(1), regions(3, 2));
    a.put(server(2), regions(5, 3));
    assertThat(Balancer.plan(a)).isEmpty();
    assertThat(Balancer.plan(Map.of(server(0), regions(0, 9)))).isEmpty();
  }

  @Test
  void anyAssignmentEndsWithinOneOfTheAverageWithTheFewestMoves() {
    Random random = new Random(7);
    for (int round = 0; round < 200; round++) {
      int servers = 2 + random.nextInt(6);
      Map<ServerName, List<RegionInfo>> a = new HashMap<>();
      int next = 0;
      for (int s = 0; s < servers; s++) {
        int n = random.nextInt(20);
        a.put(server(s), regions(next, n));
        next += n;
      }
      int total = next;
      Map<ServerName, Integer> after = new HashMap<>();
      a.forEach((s, rs) -> after.put(s, rs.size()));
      List<Balancer.Move> moves = Balancer.plan(a);
      for (Balancer.Move m : moves) {
        assertThat(a.get(m.from())).contains(m.region());
        after.merge(m.from(), -1, Integer::sum);
        after.merge(m.to(), 1, Integer::sum);
      }
      int floor = total / servers;
      assertThat(after.values()).allMatch(n -> n == floor || n == floor + 1);
      int minimum = a.values().stream().mapToInt(rs -> Math.max(0, rs.size() - (floor + 1))).sum();
      assertThat(moves.size()).isGreaterThanOrEqualTo(minimum);
      int excess = a.values().stream().mapToInt(rs -> Math.max(0, rs.size() - floor)).sum();
      assertThat(moves.size()).isLessThanOrEqualTo(excess);
    }
  }
}
