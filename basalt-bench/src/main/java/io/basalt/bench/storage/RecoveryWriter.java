package io.basalt.bench.storage;

import io.basalt.storage.StorageConfig;
import io.basalt.storage.je.JeStorageEngine;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.region.Region;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * Child process of {@link RecoveryBench}: creates a region, overwrites random rows until its log segments hold
 * the given amount, makes that log durable, prints {@code WRITTEN <log bytes> <puts>} and waits to be killed
 * with SIGKILL, so the region is left as a crash leaves it.
 *
 * <p>Arguments: region directory, JE cache MB, log segment MB, value bytes, log MB to write, distinct rows.
 */
public final class RecoveryWriter {
  /** Puts between two looks at the directory's size. */
  private static final int CHECK_EVERY = 2_000;

  private RecoveryWriter() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long cacheMb = Long.parseLong(args[1]);
    long logFileMb = Long.parseLong(args[2]);
    int valueBytes = Integer.parseInt(args[3]);
    long targetBytes = Long.parseLong(args[4]) * Settings.MB;
    long rows = Long.parseLong(args[5]);
    JeStorageEngine engine = new JeStorageEngine(StorageConfig.DEFAULT.withCacheBytes(cacheMb * Settings.MB)
        .withLogFileBytes(logFileMb * Settings.MB).withPurgeIntervalMillis(0));
    Region region = engine.create(dir, Keys.descriptor());
    byte[] value = Keys.value(valueBytes);
    ThreadLocalRandom random = ThreadLocalRandom.current();
    long puts = 0;
    long logBytes = logBytes(dir);
    while (logBytes < targetBytes) {
      for (int i = 0; i < CHECK_EVERY; i++) {
        region.mutate(Keys.put(random.nextLong(rows), value), Durability.ASYNC_WAL);
      }
      puts += CHECK_EVERY;
      logBytes = logBytes(dir);
    }
    // One synced put makes everything logged before it durable too.
    region.mutate(Keys.put(0, value), Durability.FSYNC_WAL);
    System.out.println("WRITTEN " + logBytes(dir) + " " + (puts + 1));
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE);
  }

  static long logBytes(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".jdb")).mapToLong(p -> p.toFile().length()).sum();
    }
  }
}
