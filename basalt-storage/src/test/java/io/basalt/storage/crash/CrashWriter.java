package io.basalt.storage.crash;

import io.basalt.storage.StorageConfig;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.je.JeStorageEngine;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Child process of {@link CrashRecoveryTest}: writes rows forever at one durability level and prints
 * {@code ACK n} once the mutation of row n returned. Killed with SIGKILL by the test.
 *
 * <p>Arguments: region directory, durability, first row number, writer threads, and optionally rows per
 * batch: with more than 1, each writer applies its rows in {@link Region#mutateBatch} calls and acknowledges
 * a batch's rows once the call returned.
 */
public final class CrashWriter {
  static final byte[] F1 = Bytes.of("f1");
  static final byte[] F2 = Bytes.of("f2");
  static final String[] F1_COLUMNS = {"a", "b", "c"};
  static final String[] F2_COLUMNS = {"x", "y"};

  private CrashWriter() {}

  static String row(long n) {
    return String.format("row%012d", n);
  }

  static String value(long n, String column) {
    return "v" + n + "-" + column + "-" + "x".repeat((int) (n % 200));
  }

  static RowMutation mutation(long n) {
    RowMutation.Builder b = RowMutation.of(Bytes.of(row(n)));
    for (String c : F1_COLUMNS) {
      b.put(F1, Bytes.of(c), Bytes.of(value(n, c)));
    }
    for (String c : F2_COLUMNS) {
      b.put(F2, Bytes.of(c), Bytes.of(value(n, c)));
    }
    return b.build();
  }

  static RegionDescriptor descriptor() {
    return new RegionDescriptor(List.of(FamilySchema.of("f1"), FamilySchema.of("f2")), KeyRange.ALL);
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    Durability durability = Durability.valueOf(args[1]);
    long first = Long.parseLong(args[2]);
    int threads = Integer.parseInt(args[3]);
    int batch = args.length > 4 ? Integer.parseInt(args[4]) : 1;
    JeStorageEngine engine = new JeStorageEngine(StorageConfig.DEFAULT.withCacheBytes(32L << 20).withPurgeIntervalMillis(0));
    Region region = Files.isDirectory(dir) ? engine.open(dir) : engine.create(dir, descriptor());
    PrintStream out = System.out;
    synchronized (out) {
      out.println("READY");
      out.flush();
    }
    Thread[] writers = new Thread[threads];
    for (int t = 0; t < threads; t++) {
      int id = t;
      writers[t] = new Thread(() -> {
        for (long n = first + id; ; n += (long) threads * batch) {
          if (batch == 1) {
            region.mutate(mutation(n), durability);
          } else {
            List<RowMutation> rows = new ArrayList<>(batch);
            for (int i = 0; i < batch; i++) {
              rows.add(mutation(n + (long) i * threads));
            }
            if (!region.mutateBatch(rows, durability).allApplied()) {
              throw new IllegalStateException("a batched row failed");
            }
          }
          synchronized (out) {
            for (int i = 0; i < batch; i++) {
              out.println("ACK " + (n + (long) i * threads));
            }
            out.flush();
          }
        }
      });
      writers[t].start();
    }
    for (Thread w : writers) {
      w.join();
    }
  }
}
