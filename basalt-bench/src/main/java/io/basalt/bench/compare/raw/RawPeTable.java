package io.basalt.bench.compare.raw;

import io.basalt.bench.compare.workload.PeRows;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.region.Region;
import io.basalt.storage.region.StorageEngine;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A PE table straight on the storage engine: the 8 regions PE's pre-split makes over {@code [0, keyspace)}, in
 * one engine (one JE cache shared by all, as in a region server), with PE's rows (26-digit keys, 1000 random
 * bytes in info:0, VERSIONS 1).
 */
final class RawPeTable implements AutoCloseable {
  final long keyspace;
  private final List<Region> regions = new ArrayList<>();
  /** The first row of regions 1..7 (region 0 starts at the beginning). */
  private final byte[][] starts;

  RawPeTable(StorageEngine engine, Path dir, long keyspace) {
    this.keyspace = keyspace;
    this.starts = new byte[7][];
    for (int r = 1; r < 8; r++) {
      starts[r - 1] = PeRows.key(keyspace * r / 8);
    }
    for (int r = 0; r < 8; r++) {
      byte[] start = r == 0 ? Bytes.EMPTY : starts[r - 1];
      byte[] end = r == 7 ? Bytes.EMPTY : starts[r];
      regions.add(engine.create(dir.resolve("region-" + r),
          new RegionDescriptor(List.of(FamilySchema.of("info")), new KeyRange(start, end))));
    }
  }

  int regionIndex(byte[] row) {
    int r = 0;
    while (r < starts.length && Bytes.compare(row, starts[r]) >= 0) {
      r++;
    }
    return r;
  }

  Region region(int index) {
    return regions.get(index);
  }

  Region regionOf(byte[] row) {
    return regions.get(regionIndex(row));
  }

  static RowMutation put(long i) {
    byte[] value = new byte[PeRows.VALUE_BYTES];
    ThreadLocalRandom.current().nextBytes(value);
    return RowMutation.of(PeRows.key(i)).put(PeRows.FAMILY, PeRows.QUALIFIER, value).build();
  }

  /** Rows {@code [0, rows)}, in batches per region as a buffered client sends them. */
  void load(long rows) {
    List<List<RowMutation>> pending = new ArrayList<>();
    for (int r = 0; r < 8; r++) {
      pending.add(new ArrayList<>());
    }
    for (long i = 0; i < rows; i++) {
      RowMutation m = put(i);
      int r = regionIndex(m.row());
      pending.get(r).add(m);
      if (pending.get(r).size() == 1000) {
        regions.get(r).mutateBatch(pending.get(r), Durability.SYNC_WAL);
        pending.get(r).clear();
      }
    }
    for (int r = 0; r < 8; r++) {
      if (!pending.get(r).isEmpty()) {
        regions.get(r).mutateBatch(pending.get(r), Durability.SYNC_WAL);
      }
    }
  }

  @Override
  public void close() {
    for (Region r : regions) {
      r.close();
    }
  }
}
