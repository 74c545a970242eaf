import com.sun.management.ThreadMXBean;
import io.basalt.storage.StorageConfig;
import io.basalt.storage.je.JeStorageEngine;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import java.lang.management.ManagementFactory;
import java.nio.file.*;
import java.util.*;

/** Bytes allocated and CPU of the calling thread per put, storage write path, PE rows overwritten (VERSIONS=1). */
public class WriteCount {
  static final ThreadMXBean MX = (ThreadMXBean) ManagementFactory.getThreadMXBean();
  static byte[] row(long i) { return String.format("%026d", i).getBytes(); }
  public static void main(String[] a) throws Exception {
    Path dir = Files.createTempDirectory("wc");
    int rows = 20_000;
    byte[] fam = "info".getBytes(), q = "0".getBytes();
    byte[] value = new byte[1000]; new Random(1).nextBytes(value);
    JeStorageEngine e = new JeStorageEngine(StorageConfig.DEFAULT.withCacheBytes(64L << 20).withPurgeIntervalMillis(0)); {
      Region r = e.create(dir.resolve("r"), new RegionDescriptor(List.of(FamilySchema.of("info")), KeyRange.ALL));
      Random rnd = new Random(2);
      for (int pass = 0; pass < 6; pass++) {
        boolean random = pass % 2 == 1; boolean batch = pass < 4;
        long b0 = MX.getCurrentThreadAllocatedBytes(), c0 = MX.getCurrentThreadCpuTime();
        if (batch) {
          List<RowMutation> part = new ArrayList<>();
          for (int i = 0; i < rows; i++) {
            long k = random ? rnd.nextInt(rows) : i;
            part.add(RowMutation.of(row(k)).put(fam, q, RowMutation.LATEST, value).build());
            if (part.size() == 240) { r.mutateBatch(part, Durability.SYNC_WAL); part = new ArrayList<>(); }
          }
          if (!part.isEmpty()) r.mutateBatch(part, Durability.SYNC_WAL);
        } else {
          for (int i = 0; i < rows; i++) {
            long k = random ? rnd.nextInt(rows) : i;
            r.mutate(RowMutation.of(row(k)).put(fam, q, RowMutation.LATEST, value).build(), Durability.SYNC_WAL);
          }
        }
        long b = MX.getCurrentThreadAllocatedBytes() - b0, c = MX.getCurrentThreadCpuTime() - c0;
        System.out.printf("pass %d %-6s %-10s: %6.0f B/put (incl. building the mutation), %5.1f us CPU/put, cells %d%n", pass,
            random ? "random" : "seq", batch ? "batch240" : "single", (double) b / rows, c / 1e3 / rows, r.stats().cellCount());
      }
    }
  }
}
