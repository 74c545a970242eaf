package io.basalt.server.regionserver;

import io.basalt.storage.io.LocalStorageFiles;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.region.Region;
import io.basalt.storage.region.StorageEngine;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the region open path a few times on a throwaway region before the server registers. Measured: the
 * first region a fresh JVM opens took 5-15x longer than later ones (the JE and Basalt open code still
 * interpreted, JIT busy), and with moves and splits that first open falls inside a client-visible window.
 */
final class EngineWarmup {
  private static final Logger LOG = LoggerFactory.getLogger(EngineWarmup.class);
  private static final byte[] F = "f".getBytes(StandardCharsets.UTF_8);

  private EngineWarmup() {}

  static void run(StorageEngine engine, Path dir, int rounds) {
    long start = System.nanoTime();
    LocalStorageFiles files = LocalStorageFiles.INSTANCE;
    try {
      files.deleteRecursively(dir);
      Path source = dir.resolve("source");
      try (Region r = engine.create(source, new RegionDescriptor(List.of(FamilySchema.of("f")), KeyRange.ALL))) {
        for (int i = 0; i < 2_000; i++) {
          byte[] row = String.format("row-%06d", i).getBytes(StandardCharsets.UTF_8);
          r.mutate(RowMutation.of(row).put(F, F, row).build(), Durability.SKIP_WAL);
        }
        r.midpointRow();
      }
      byte[] middle = "row-001000".getBytes(StandardCharsets.UTF_8);
      for (int round = 0; round < rounds; round++) {
        Path a = dir.resolve("a" + round);
        Path b = dir.resolve("b" + round);
        engine.cloneClosed(source, a);
        engine.cloneClosed(source, b);
        try (Region ra = engine.openRestricted(a, new KeyRange(new byte[0], middle));
             Region rb = engine.openRestricted(b, new KeyRange(middle, new byte[0]))) {
          ra.get("row-000001".getBytes(StandardCharsets.UTF_8), ReadOptions.DEFAULT);
          rb.get("row-001001".getBytes(StandardCharsets.UTF_8), ReadOptions.DEFAULT);
        }
        try (Region again = engine.open(source)) {
          again.get(middle, ReadOptions.DEFAULT);
        }
      }
      LOG.info("storage warm-up took {} ms", (System.nanoTime() - start) / 1_000_000);
    } catch (RuntimeException | IOException e) {
      LOG.warn("storage warm-up failed (the server still starts): {}", e.toString());
    } finally {
      try {
        files.deleteRecursively(dir);
      } catch (IOException e) {
        LOG.warn("cannot delete the warm-up directory {}: {}", dir, e.toString());
      }
    }
  }
}
