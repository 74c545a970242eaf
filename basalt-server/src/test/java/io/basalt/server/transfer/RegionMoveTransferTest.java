package io.basalt.server.transfer;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.transfer.SegmentManifest.Segment;
import io.basalt.storage.StorageConfig;
import io.basalt.storage.cell.Cell;
import io.basalt.storage.error.RegionClosedException;
import io.basalt.storage.io.LocalStorageFiles;
import io.basalt.storage.je.JeStorageEngine;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.region.Region;
import io.basalt.storage.region.StorageEngine;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import io.basalt.storage.segment.LogSegmentSet;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The data plane of a move, end to end on loopback: a JE region under write load is shipped to another
 * directory while it serves, closed, its tail shipped, and the copy opened by another engine.
 */
class RegionMoveTransferTest {
  private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 0);
  private static final String REGION = "9b1f9c7e4a7e3f0d2c5b8a6e1d0f4c3b";
  private static final byte[] FAMILY = "f".getBytes(StandardCharsets.UTF_8);
  private static final byte[] QUALIFIER = "q".getBytes(StandardCharsets.UTF_8);
  private static final int VALUE_BYTES = 1000;

  @TempDir Path tmp;
  private StorageEngine source;
  private StorageEngine target;
  private SegmentServer server;

  @AfterEach
  void tearDown() {
    if (server != null) {
      server.close();
    }
    if (source != null) {
      source.close();
    }
    if (target != null) {
      target.close();
    }
  }

  private static StorageEngine engine(long logFileBytes) {
    return new JeStorageEngine(StorageConfig.DEFAULT.withCacheBytes(64L << 20).withLogFileBytes(logFileBytes)
        .withPurgeIntervalMillis(0));
  }

  private static byte[] key(int k) {
    return String.format("row%07d", k).getBytes(StandardCharsets.UTF_8);
  }

  /** Write number {@code i}'s value: its number, then filler, so every write is recognisable. */
  private static byte[] value(int i) {
    ByteBuffer b = ByteBuffer.allocate(VALUE_BYTES);
    b.putInt(i);
    while (b.hasRemaining()) {
      b.put((byte) (i * 31 + b.position()));
    }
    return b.array();
  }

  /** Write {@code i} puts {@link #value}(i) into row {@code i % keys}. */
  private static void write(Region r, int i, int keys, Durability durability) {
    r.mutate(RowMutation.of(key(i % keys)).put(FAMILY, QUALIFIER, 1, value(i)).build(), durability);
  }

  private Region createRegion(Path regions) {
    return source.create(regions.resolve(REGION), new RegionDescriptor(List.of(FamilySchema.of("f")), KeyRange.ALL));
  }

  /** Bytes of {@code after}'s segments that {@code before} did not hold at the same length. */
  private static long newOrChanged(SegmentManifest before, SegmentManifest after) {
    long bytes = 0;
    for (Segment s : after.segments()) {
      OptionalLong had = before.lengthOf(s.fileName());
      if (had.isEmpty() || had.getAsLong() != s.length()) {
        bytes += s.length();
      }
    }
    return bytes;
  }

  @Test
  void aRegionUnderWriteLoadMovesWithEveryAcknowledgedWrite() throws Exception {
    source = engine(1L << 20);
    target = engine(1L << 20);
    Path regions = tmp.resolve("source/regions");
    Path staging = tmp.resolve("target/regions").resolve(REGION);
    Region region = createRegion(regions);
    int keys = 10_000;
    for (int i = 0; i < 15_000; i++) {
      write(region, i, keys, Durability.SYNC_WAL);
    }
    // The writer overwrites rows, so the JE cleaner has work while segments are pinned for the move.
    AtomicInteger acknowledged = new AtomicInteger(15_000);
    AtomicReference<Throwable> writerFailure = new AtomicReference<>();
    Thread writer = new Thread(() -> {
      try {
        for (int i = acknowledged.get(); ; i++) {
          write(region, i, keys, Durability.SYNC_WAL);
          acknowledged.set(i + 1);
        }
      } catch (RegionClosedException closed) {
        // the move closed the region: the writes acknowledged so far must all move
      } catch (Throwable t) {
        writerFailure.set(t);
      }
    }, "writer");
    writer.start();
    server = SegmentServer.start(regions, LOOPBACK, SegmentServer.Options.DEFAULT);
    SegmentFetcher fetcher = new SegmentFetcher(SegmentFetcher.Options.DEFAULT);

    // PRE-CLOSE: pin the sealed segments and export them; the target pulls them while the region serves.
    LogSegmentSet pinned = region.logSegments();
    SegmentManifest prefetch = SegmentManifest.of(REGION, pinned);
    server.export(prefetch);
    int atExport = acknowledged.get();
    FetchStats first = fetcher.fetch(server.address(), prefetch, staging);
    assertThat(first.bytes()).isEqualTo(prefetch.totalBytes());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (acknowledged.get() < atExport + 3_000 && writerFailure.get() == null) {
      assertThat(System.nanoTime()).as("writer progressing").isLessThan(deadline);
      Thread.sleep(5);
    }

    // CLOSE (sync) at the source, then the target pulls what was written or grown since.
    region.close();
    writer.join(TimeUnit.SECONDS.toMillis(30));
    assertThat(writer.isAlive()).isFalse();
    assertThat(writerFailure.get()).isNull();
    int acked = acknowledged.get();
    pinned.close();
    SegmentManifest last;
    FetchStats second;
    try (LogSegmentSet closed = source.closedSegments(regions.resolve(REGION))) {
      last = SegmentManifest.of(REGION, closed);
      server.export(last);
      second = fetcher.fetch(server.address(), last, staging);
      server.unexport(REGION);
    }
    for (Segment s : last.segments()) {
      if (s.number() <= prefetch.lastSegment()) {
        assertThat(prefetch.lengthOf(s.fileName())).as("a sealed segment never changes").hasValue(s.length());
      }
    }
    long tail = newOrChanged(prefetch, last);
    assertThat(second.bytes()).as("the second pull ships only the tail").isEqualTo(tail);
    assertThat(second.filesFetched()).isEqualTo(last.segments().stream().filter(s -> s.number() > prefetch.lastSegment()).count());
    assertThat(tail).isLessThan(last.totalBytes() / 2);
    System.out.printf("move under load: %d writes acknowledged (%d after the export)%n  prefetch %s%n  after close %s%n",
        acked, acked - atExport, first, second);

    // OPEN at the target: every acknowledged write is there with its value, and nothing else.
    Region moved = target.open(staging);
    for (int k = 0; k < keys; k++) {
      int newest = acked - 1 - Math.floorMod(acked - 1 - k, keys); // the last acknowledged write to row k
      List<Cell> cells = moved.get(key(k), ReadOptions.DEFAULT);
      assertThat(cells).as("row %d", k).hasSize(1);
      assertThat(cells.get(0).value()).as("row %d holds write %d", k, newest).isEqualTo(value(newest));
    }
    assertThat(moved.get(key(keys), ReadOptions.DEFAULT)).isEmpty();
    write(moved, acked, keys, Durability.SYNC_WAL);
    moved.close();
  }

  /**
   * Prints rates; {@code -Dbasalt.transfer.mb=200} for the figure of a 200 MB region (loading it takes a
   * while), {@code -Dbasalt.transfer.staging=/dev/shm/x} to receive into memory and see the network side alone.
   */
  @Test
  void loopbackThroughputOfARegion() throws Exception {
    int megabytes = Integer.getInteger("basalt.transfer.mb", 16);
    Path stagingRoot = Path.of(System.getProperty("basalt.transfer.staging", tmp.resolve("target").toString()));
    source = engine(StorageConfig.DEFAULT.logFileBytes());
    target = engine(StorageConfig.DEFAULT.logFileBytes());
    Path regions = tmp.resolve("source/regions");
    Region region = createRegion(regions);
    int rows = megabytes * 1000;
    long loadStart = System.nanoTime();
    for (int i = 0; i < rows; i++) {
      write(region, i, rows, Durability.SKIP_WAL);
    }
    long loadMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - loadStart);
    server = SegmentServer.start(regions, LOOPBACK, SegmentServer.Options.DEFAULT);
    StringBuilder report = new StringBuilder(String.format("loopback transfer of a %d MB region (loaded in %d ms) into %s:%n",
        megabytes, loadMillis, stagingRoot));
    try {
      try (LogSegmentSet pinned = region.logSegments()) {
        SegmentManifest m = SegmentManifest.of(REGION, pinned);
        server.export(m);
        for (int streams : new int[] {1, 4}) {
          Path staging = stagingRoot.resolve(streams + "-streams").resolve(REGION);
          FetchStats stats = new SegmentFetcher(SegmentFetcher.Options.DEFAULT.withStreams(streams))
              .fetch(server.address(), m, staging);
          assertThat(stats.bytes()).isEqualTo(m.totalBytes());
          report.append(String.format("  %d stream(s): %s%n", streams, stats));
        }
      }
      region.close();
      Path staging = stagingRoot.resolve("4-streams").resolve(REGION);
      try (LogSegmentSet closed = source.closedSegments(regions.resolve(REGION))) {
        SegmentManifest last = SegmentManifest.of(REGION, closed);
        server.export(last);
        FetchStats tail = new SegmentFetcher(SegmentFetcher.Options.DEFAULT).fetch(server.address(), last, staging);
        report.append(String.format("  after close: %s%n", tail));
      }
      long openStart = System.nanoTime();
      Region moved = target.open(staging);
      report.append(String.format("  opened the copy in %d ms%n", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - openStart)));
      for (int i = 0; i < rows; i += 997) {
        assertThat(moved.get(key(i), ReadOptions.DEFAULT).get(0).value()).isEqualTo(value(i));
      }
      moved.close();
    } finally {
      LocalStorageFiles.INSTANCE.deleteRecursively(stagingRoot);
    }
    System.out.print(report);
  }
}
