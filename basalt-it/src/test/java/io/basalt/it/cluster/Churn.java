package io.basalt.it.cluster;

import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * What an elastic cluster does on its own while clients write: every few seconds a split of a random region
 * (until the table has {@link #MAX_REGIONS}), a move of a random region to a random server (a copy moves to a
 * server without one, or the primary role to one with a copy) or a balancer run. A refusal (a member down, the
 * region busy in another protocol) is counted as such: it is what an operator would see, not a test failure.
 */
final class Churn implements AutoCloseable {
  static final int MAX_REGIONS = 12;
  private static final long PAUSE_MILLIS = 4_000;

  private final Connection conn;
  private final TableName table;
  private final Random random;
  private final AtomicBoolean stop = new AtomicBoolean();
  private final AtomicInteger done = new AtomicInteger();
  private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();
  private final Thread thread = new Thread(this::run, "churn");

  Churn(Connection conn, TableName table, Random random) {
    this.conn = conn;
    this.table = table;
    this.random = random;
  }

  Churn start() {
    thread.setDaemon(true);
    thread.start();
    return this;
  }

  /** Operations that happened (splits, moves, balancer runs that moved something). */
  int done() {
    return done.get();
  }

  String summary() {
    return new java.util.TreeMap<>(counts).toString();
  }

  private void run() {
    while (!stop.get()) {
      try {
        Thread.sleep(PAUSE_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      String what = "?";
      try (Admin admin = conn.getAdmin()) {
        List<RegionInfo> regions = admin.getRegions(table).stream().filter(r -> r.getReplicaId() == 0).toList();
        RegionInfo region = regions.get(random.nextInt(regions.size()));
        int pick = random.nextInt(3);
        if (pick == 0 && regions.size() < MAX_REGIONS) {
          what = "split";
          admin.splitRegionAsync(region.getRegionName()).get(90, TimeUnit.SECONDS);
        } else if (pick <= 1) {
          what = "move";
          List<ServerName> servers = List.copyOf(admin.getRegionServers());
          admin.move(region.getEncodedNameAsBytes(), servers.get(random.nextInt(servers.size())));
        } else {
          what = "balance";
          if (!admin.balance()) {
            count("balance-refused");
            continue;
          }
        }
        done.incrementAndGet();
        count(what);
      } catch (Exception e) {
        if (stop.get()) {
          return;
        }
        count(what + "-refused");
        System.out.println("churn: " + what + " refused at " + LocalTime.now() + ": " + e);
      }
    }
  }

  private void count(String what) {
    counts.computeIfAbsent(what, k -> new AtomicInteger()).incrementAndGet();
  }

  @Override
  public void close() throws InterruptedException {
    stop.set(true);
    thread.interrupt();
    thread.join(120_000);
  }
}
