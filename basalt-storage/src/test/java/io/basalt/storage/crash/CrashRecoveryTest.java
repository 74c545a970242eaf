package io.basalt.storage.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.storage.StorageConfig;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.je.JeStorageEngine;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.read.RegionScanner;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.region.Region;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A child JVM writes rows across two families at one durability level and is killed with SIGKILL at a
 * random moment, several times over the same directory. After each kill the region must reopen with no
 * torn row, and at SYNC_WAL/FSYNC_WAL with every acknowledged row present. The writer applies rows one by
 * one, or in batches (acknowledged when the batch call returns) larger than the rows that share one log write (256).
 */
class CrashRecoveryTest {
  private static final int ROUNDS = 3;
  @TempDir Path dir;

  /** Rows per batch of the batched writer: more than share one log write (256), so a batch makes two. */
  private static final int BATCH_ROWS = 300;

  @ParameterizedTest
  @EnumSource(Durability.class)
  void killedWriterLosesNoAcknowledgedWriteAndTearsNoRow(Durability durability) throws Exception {
    killWriterRepeatedly(durability, 1);
  }

  @ParameterizedTest
  @EnumSource(value = Durability.class, names = {"SYNC_WAL", "FSYNC_WAL"})
  void killedBatchWriterLosesNoAcknowledgedWriteAndTearsNoRow(Durability durability) throws Exception {
    killWriterRepeatedly(durability, BATCH_ROWS);
  }

  private void killWriterRepeatedly(Durability durability, int batch) throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    Path regionDir = dir.resolve("region");
    Set<Long> acked = ConcurrentHashMap.newKeySet();
    int threads = durability == Durability.FSYNC_WAL ? 4 : 2;
    for (int round = 0; round < ROUNDS; round++) {
      long first = round * 10_000_000L;
      Process child = new ProcessBuilder(javaBinary(), "-Xmx256m", "-cp", System.getProperty("java.class.path"),
          CrashWriter.class.getName(), regionDir.toString(), durability.name(), Long.toString(first), Integer.toString(threads),
          Integer.toString(batch))
          .redirectError(ProcessBuilder.Redirect.INHERIT).start();
      CountDownLatch firstAck = new CountDownLatch(1);
      Thread reader = new Thread(() -> readAcks(child, acked, firstAck));
      reader.start();
      try {
        assertThat(firstAck.await(60, TimeUnit.SECONDS)).as("child acknowledged a write (seed %d)", seed).isTrue();
        Thread.sleep(200 + random.nextInt(1000));
      } finally {
        child.destroyForcibly();
        assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        reader.join(10_000);
      }
      assertThat(child.exitValue()).as("killed by SIGKILL").isEqualTo(137);
      verify(regionDir, durability, batch, acked, seed);
    }
  }

  private static void readAcks(Process child, Set<Long> acked, CountDownLatch firstAck) {
    try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = in.readLine()) != null) {
        if (line.startsWith("ACK ")) {
          acked.add(Long.parseLong(line.substring(4)));
          firstAck.countDown();
        }
      }
    } catch (IOException | NumberFormatException e) {
      // The child died mid-line: only complete lines count as acknowledgements.
    }
  }

  private static void verify(Path regionDir, Durability durability, int rowsPerCall, Set<Long> acked, long seed) {
    try (JeStorageEngine engine = new JeStorageEngine(StorageConfig.DEFAULT.withCacheBytes(32L << 20).withPurgeIntervalMillis(0))) {
      Region region = engine.open(regionDir);
      Map<Long, Integer> present = new HashMap<>();
      try (RegionScanner s = region.scan(ScanSpec.all())) {
        for (List<RowResult> batch = s.next(1000, Long.MAX_VALUE); !batch.isEmpty(); batch = s.next(1000, Long.MAX_VALUE)) {
          for (RowResult r : batch) {
            long n = Long.parseLong(Bytes.toStringBinary(r.row()).substring(3));
            assertThat(r.cells()).as("row %d whole (seed %d)", n, seed).hasSize(5);
            for (Cell c : r.cells()) {
              assertThat(Bytes.toStringBinary(c.value()))
                  .isEqualTo(CrashWriter.value(n, Bytes.toStringBinary(c.qualifier())));
            }
            present.put(n, r.cells().size());
          }
        }
      }
      // The count saved by the last clean close was dropped when the child opened: this one is counted afresh.
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
          .untilAsserted(() -> assertThat(region.stats().cellCount()).as("cell count (seed %d)", seed).isEqualTo(5L * present.size()));
      System.out.printf("%s, %d row(s) per call: %d acknowledged, %d present after SIGKILL%n", durability, rowsPerCall,
          acked.size(), present.size());
      if (durability == Durability.SYNC_WAL || durability == Durability.FSYNC_WAL) {
        for (long n : acked) {
          assertThat(present).as("acknowledged row %d at %s (seed %d)", n, durability, seed).containsKey(n);
        }
      }
      region.close();
    }
  }

  private static String javaBinary() {
    return ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
  }
}
