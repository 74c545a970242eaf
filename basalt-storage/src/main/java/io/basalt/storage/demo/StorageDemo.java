package io.basalt.storage.demo;

import io.basalt.storage.StorageConfig;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.je.JeStorageEngine;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.Increment;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A tour of the region store on a local directory: writes, versions, deletes, a counter, a split by
 * cloning. Run it twice: the second run finds the first run's data. (The server replaces this demo.)
 */
public final class StorageDemo {
  private StorageDemo() {}

  public static void main(String[] args) throws Exception {
    Path dataDir = Path.of(args.length > 0 ? args[0] : "data");
    Path regionDir = dataDir.resolve("demo-region");
    byte[] info = Bytes.of("info");
    try (JeStorageEngine engine = new JeStorageEngine(StorageConfig.DEFAULT.withCacheBytes(64L << 20))) {
      boolean existed = Files.isDirectory(regionDir);
      Region region = existed ? engine.open(regionDir)
          : engine.create(regionDir, new RegionDescriptor(List.of(FamilySchema.of("info").withMaxVersions(3)), KeyRange.ALL));
      System.out.println((existed ? "Reopened" : "Created") + " region in " + regionDir.toAbsolutePath()
          + " holding " + region.stats().cellCount() + " cells");

      long runs = Bytes.toLong(region.increment(new Increment(Bytes.of("demo"),
          List.of(new Increment.Delta(info, Bytes.of("runs"), 1)), true), Durability.SYNC_WAL).get(0).value());
      System.out.println("This is run number " + runs + " on this data directory");

      for (int i = 0; i < 1000; i++) {
        region.mutate(RowMutation.of(Bytes.of(String.format("user%04d", i)))
            .put(info, Bytes.of("name"), Bytes.of("user " + i))
            .put(info, Bytes.of("visits"), Bytes.of(Long.toString(runs)))
            .build(), Durability.SYNC_WAL);
      }
      List<Cell> versions = region.get(Bytes.of("user0042"), ReadOptions.DEFAULT.withMaxVersions(10));
      System.out.println("user0042 (up to VERSIONS=3 versions, newest first):");
      versions.forEach(c -> System.out.println("  " + c));

      region.mutate(RowMutation.of(Bytes.of("user0007")).deleteFamily(info, RowMutation.LATEST).build(), Durability.SYNC_WAL);
      List<RowResult> scan = region.scan(ScanSpec.range(Bytes.of("user0005"), Bytes.of("user0010"))).next(10, Long.MAX_VALUE);
      System.out.print("rows user0005..user0009 after deleting user0007:");
      scan.forEach(r -> System.out.print(" " + Bytes.toStringBinary(r.row())));
      System.out.println();

      byte[] mid = region.midpointRow().orElseThrow();
      System.out.println("midpoint row (B+-tree cursor skip): " + Bytes.toStringBinary(mid)
          + "; region stats: " + region.stats());
      region.close();

      Path a = dataDir.resolve("demo-split-a");
      Path b = dataDir.resolve("demo-split-b");
      for (Path p : List.of(a, b)) {
        io.basalt.storage.io.LocalStorageFiles.INSTANCE.deleteRecursively(p);
      }
      long t0 = System.nanoTime();
      long copied = engine.cloneClosed(regionDir, a) + engine.cloneClosed(regionDir, b);
      System.out.printf("split by cloning log segments: %.1f ms, %d bytes copied%n", (System.nanoTime() - t0) / 1e6, copied);
      try (Region left = engine.openRestricted(a, new KeyRange(Bytes.EMPTY, mid));
          Region right = engine.openRestricted(b, new KeyRange(mid, Bytes.EMPTY))) {
        System.out.println("daughter A " + left.descriptor().range() + ": " + left.stats().cellCount() + " cells");
        System.out.println("daughter B " + right.descriptor().range() + ": " + right.stats().cellCount() + " cells");
      }
    }
  }
}
