package io.basalt.storage.je;

import static io.basalt.storage.cell.Bytes.of;

import io.basalt.storage.cell.Bytes;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.read.RegionScanner;
import io.basalt.storage.read.RowResult;
import io.basalt.storage.read.ScanSpec;
import io.basalt.storage.region.Region;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeepDeletedCells;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The content of the checked-in regions written by former releases ({@code src/test/resources/format-v1-region.tar.gz}
 * and {@code format-v2-region.tar.gz}): a fixed sequence of writes at a fixed clock, and a dump of what reads return,
 * so a later release can prove it reads such a region back equal. {@link #main} wrote each resource with the release
 * before row records (format 1, at 21f29d6) and a release of row records (format 2, at cbe54ec).
 */
public final class FormatFixture {
  /** The clock the region was written at; reads must use it too (the TTL family). */
  public static final long CLOCK = 1_700_000_000_000L;
  static final byte[] A = of("a");
  static final byte[] B = of("b");
  static final byte[] T = of("t");
  static final byte[] K = of("k");

  private FormatFixture() {}

  static FamilySchema[] families() {
    return new FamilySchema[] {
        FamilySchema.of("a").withMaxVersions(3),
        FamilySchema.of("b"),
        FamilySchema.of("k").withMaxVersions(2).withKeepDeletedCells(KeepDeletedCells.TRUE),
        FamilySchema.of("t").withTtlSeconds(3600).withMaxVersions(2)};
  }

  static byte[] row(int i) {
    return of(String.format("row%03d", i));
  }

  /** The writes, in order. */
  static void write(Region r) {
    for (int i = 0; i < 60; i++) {
      RowMutation.Builder m = RowMutation.of(row(i));
      for (int q = 0; q < 1 + i % 7; q++) {
        for (int v = 0; v < 1 + i % 5; v++) {
          m.put(A, of("q" + q), CLOCK - 10_000 + v * 10 + q, of("a" + i + "." + q + "." + v));
        }
        m.put(B, of("q" + q), CLOCK - 5_000 + q, of("b" + i + "." + q));
      }
      // Half fresh, half past the TTL.
      m.put(T, of("x"), i % 2 == 0 ? CLOCK - 1_000 : CLOCK - 7_200_000, of("t" + i));
      m.put(K, of("k"), CLOCK - 3_000, of("k" + i));
      r.mutate(m.build(), Durability.SYNC_WAL);
    }
    for (int i = 0; i < 60; i += 3) {
      RowMutation.Builder d = RowMutation.of(row(i));
      switch (i % 4) {
        case 0 -> d.deleteColumn(A, of("q0"), CLOCK - 9_000);
        case 1 -> d.deleteFamily(B, CLOCK - 4_000);
        case 2 -> d.deleteVersion(A, of("q0"), CLOCK - 10_000);
        default -> d.deleteFamilyVersion(A, CLOCK - 10_000 + 10);
      }
      d.deleteColumn(K, of("k"), CLOCK - 2_000);
      r.mutate(d.build(), Durability.SYNC_WAL);
    }
    // A row whose key holds zero bytes, and a wide row.
    r.mutate(RowMutation.of(new byte[] {'z', 0, 0, 1}).put(A, new byte[] {0, 'q'}, CLOCK - 1, new byte[] {0, 1, 2})
        .build(), Durability.SYNC_WAL);
    RowMutation.Builder wide = RowMutation.of(of("wide"));
    for (int q = 0; q < 2_000; q++) {
      wide.put(B, of(String.format("c%05d", q)), CLOCK - 100, of("value-" + q + "-".repeat(q % 50)));
    }
    r.mutate(wide.build(), Durability.SYNC_WAL);
  }

  /** What reads return: a raw scan of every version, a plain scan and a get of every row, one line a result. */
  static List<String> dump(Region r) {
    List<String> out = new ArrayList<>();
    ReadOptions all = ReadOptions.DEFAULT.withMaxVersions(Integer.MAX_VALUE);
    for (ReadOptions read : List.of(ReadOptions.DEFAULT, all, all.withRaw(true))) {
      List<byte[]> rows = new ArrayList<>();
      try (RegionScanner s = r.scan(ScanSpec.all().withRead(read))) {
        for (List<RowResult> batch = s.next(7, Long.MAX_VALUE); !batch.isEmpty(); batch = s.next(7, Long.MAX_VALUE)) {
          for (RowResult rr : batch) {
            out.add("scan " + Bytes.toStringBinary(rr.row()) + " " + show(rr.cells()));
            rows.add(rr.row());
          }
        }
      }
      for (byte[] row : rows) {
        out.add("get " + Bytes.toStringBinary(row) + " " + show(r.get(row, read)));
      }
    }
    return out;
  }

  private static String show(List<Cell> cells) {
    StringBuilder b = new StringBuilder();
    for (Cell c : cells) {
      b.append(Bytes.toStringBinary(c.family())).append(':').append(Bytes.toStringBinary(c.qualifier())).append('@')
          .append(c.timestamp()).append('/').append(c.type()).append('=').append(Bytes.toStringBinary(c.value()))
          .append(' ');
    }
    return b.toString();
  }

  /** Writes the fixture region under {@code args[0]} and its dump to {@code args[0]/expected.txt}. */
  public static void main(String[] args) throws IOException {
    Path out = Path.of(args[0]);
    try (RegionFixture fx = new RegionFixture(out)) {
      fx.clock.set(CLOCK);
      Region r = fx.create(families());
      write(r);
      Files.write(out.resolve("expected.txt"), dump(r), StandardCharsets.UTF_8);
      r.close();
    }
  }
}
