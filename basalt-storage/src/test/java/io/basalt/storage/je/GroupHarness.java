package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.region.StorageEngine;
import io.basalt.storage.replication.GroupMembership;
import io.basalt.storage.replication.ReplicaRole;
import io.basalt.storage.replication.ReplicatedRegion;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.Awaitility;

/**
 * What the replica-group storage tests (split, merge, new groups) share: one engine per member's server, as on
 * three region servers, members on loopback ports, rows written and read back, and the clean-up.
 */
final class GroupHarness implements AutoCloseable {
  static final byte[] F = of("f");

  /** One engine per member's server. */
  final List<StorageEngine> engines = new ArrayList<>();
  private final List<ReplicatedRegion> open = new ArrayList<>();
  private final Path dir;

  GroupHarness(Path dir) {
    this.dir = dir;
  }

  /** Member {@code i} of {@code group}, the others its helpers; the same node name in every group of a server. */
  static GroupMembership member(String group, int[] ports, int i) {
    List<String> helpers = new ArrayList<>();
    for (int j = 0; j < ports.length; j++) {
      if (j != i) {
        helpers.add("127.0.0.1:" + ports[j]);
      }
    }
    return new GroupMembership(group, "node" + i, "127.0.0.1", ports[i], helpers);
  }

  /** The directory of {@code region}'s member on server {@code i}. */
  Path memberDir(String region, int i) {
    return dir.resolve("server" + i).resolve(region);
  }

  /** Closes {@code r} at the end of the test. */
  ReplicatedRegion track(ReplicatedRegion r) {
    open.add(r);
    return r;
  }

  static void put(ReplicatedRegion r, String row, String value) {
    r.mutate(RowMutation.of(of(row)).put(F, of("q"), 1, of(value)).build(), Durability.SYNC_WAL);
  }

  static String row(int i) {
    return String.format("row%03d", i);
  }

  static List<String> rows(ReplicatedRegion r) {
    List<String> out = new ArrayList<>();
    try (var s = r.scan(ScanSpec.all())) {
      for (List<RowResult> batch = s.next(100, Long.MAX_VALUE); !batch.isEmpty(); batch = s.next(100, Long.MAX_VALUE)) {
        batch.forEach(b -> out.add(Bytes.toStringBinary(b.row())));
      }
    }
    return out;
  }

  /** Rows {@code from} to {@code to} (exclusive) and {@code extra}, sorted. */
  static List<String> expected(int from, int to, String... extra) {
    List<String> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      out.add(row(i));
    }
    out.addAll(List.of(extra));
    out.sort(null);
    return out;
  }

  static ReplicatedRegion awaitPrimary(List<ReplicatedRegion> among) {
    ReplicatedRegion[] found = new ReplicatedRegion[1];
    Awaitility.await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).until(() -> {
      for (ReplicatedRegion r : among) {
        if (r.role() == ReplicaRole.PRIMARY) {
          found[0] = r;
          return true;
        }
      }
      return false;
    });
    return found[0];
  }

  @Override
  public void close() {
    for (ReplicatedRegion r : open) {
      try {
        r.close();
      } catch (RuntimeException ignored) {
        // closed by the test
      }
    }
    engines.forEach(StorageEngine::close);
  }
}
