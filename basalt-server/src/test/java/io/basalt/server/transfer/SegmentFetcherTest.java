package io.basalt.server.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.transfer.SegmentManifest.Segment;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fetcher against a real segment server on loopback, with plain files standing in for JE segments. */
class SegmentFetcherTest {
  private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 0);
  private static final String REGION = "0123456789abcdef0123456789abcdef";

  @TempDir Path tmp;
  private final List<SegmentServer> servers = new ArrayList<>();
  private final Random rnd = new Random(7);

  @AfterEach
  void closeServers() {
    servers.forEach(SegmentServer::close);
  }

  private Path source() {
    return tmp.resolve("source").resolve(REGION);
  }

  private Path staging() {
    return tmp.resolve("staging");
  }

  private SegmentServer server(SegmentServer.Options options) throws IOException {
    SegmentServer s = SegmentServer.start(tmp.resolve("source"), LOOPBACK, options);
    servers.add(s);
    return s;
  }

  private void writeSegment(long number, int bytes) throws IOException {
    byte[] b = new byte[bytes];
    rnd.nextBytes(b);
    Files.createDirectories(source());
    Files.write(source().resolve(String.format("%08x.jdb", number)), b);
  }

  private SegmentManifest manifestOfSource() throws IOException {
    List<Segment> segments = new ArrayList<>();
    for (var e : contents(source()).entrySet()) {
      segments.add(new Segment(Long.parseLong(e.getKey().substring(0, 8), 16), e.getValue().length));
    }
    return new SegmentManifest(REGION, segments, segments.isEmpty() ? -1 : segments.get(segments.size() - 1).number());
  }

  /** Every file of a directory, by name. */
  private static TreeMap<String, byte[]> contents(Path dir) throws IOException {
    TreeMap<String, byte[]> out = new TreeMap<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
      for (Path p : ds) {
        out.put(p.getFileName().toString(), Files.readAllBytes(p));
      }
    }
    return out;
  }

  private static void assertSameFiles(Path a, Path b) throws IOException {
    TreeMap<String, byte[]> x = contents(a);
    TreeMap<String, byte[]> y = contents(b);
    assertThat(y.keySet()).isEqualTo(x.keySet());
    for (String name : x.keySet()) {
      assertThat(Arrays.equals(x.get(name), y.get(name))).as(name).isTrue();
    }
  }

  @Test
  void pullsInParallelThenSkipsWhatIsCompleteAndReplacesWhatChanged() throws IOException {
    for (int i = 0; i < 12; i++) {
      writeSegment(i, 100_000 + rnd.nextInt(400_000));
    }
    SegmentServer server = server(SegmentServer.Options.DEFAULT);
    SegmentManifest first = manifestOfSource();
    server.export(first);
    SegmentFetcher fetcher = new SegmentFetcher(SegmentFetcher.Options.DEFAULT.withStreams(4));

    FetchStats full = fetcher.fetch(server.address(), first, staging());
    assertSameFiles(source(), staging());
    assertThat(full.bytes()).isEqualTo(first.totalBytes()).isEqualTo(server.bytesSent());
    assertThat(full.filesFetched()).isEqualTo(12);
    assertThat(full.streams()).hasSize(4);
    assertThat(full.streams().stream().mapToLong(FetchStats.StreamStats::bytes).sum()).isEqualTo(full.bytes());

    FetchStats again = fetcher.fetch(server.address(), first, staging());
    assertThat(again.bytes()).isZero();
    assertThat(again.filesSkipped()).isEqualTo(12);
    assertThat(again.streams()).isEmpty();

    // The source cleaned segment 0, its tail (11) grew, and it wrote two new segments.
    Files.delete(source().resolve("00000000.jdb"));
    byte[] more = new byte[30_000];
    rnd.nextBytes(more);
    Files.write(source().resolve("0000000b.jdb"), more, StandardOpenOption.APPEND);
    writeSegment(12, 50_000);
    writeSegment(14, 70_000);
    Files.writeString(staging().resolve("unrelated.txt"), "left alone");
    SegmentManifest second = manifestOfSource();
    server.export(second);
    FetchStats delta = fetcher.fetch(server.address(), second, staging());
    assertThat(delta.bytes()).isEqualTo(Files.size(source().resolve("0000000b.jdb")) + 50_000 + 70_000);
    assertThat(delta.filesFetched()).isEqualTo(3);
    assertThat(delta.filesSkipped()).isEqualTo(10);
    assertThat(delta.filesRemoved()).as("segment 0 and the old tail").isEqualTo(2);
    Files.delete(staging().resolve("unrelated.txt"));
    assertSameFiles(source(), staging());
  }

  @Test
  void resumesAPartialFileWhereItStopped() throws IOException {
    writeSegment(5, 1_000_000);
    writeSegment(6, 10);
    SegmentServer server = server(SegmentServer.Options.DEFAULT);
    SegmentManifest m = manifestOfSource();
    server.export(m);
    Files.createDirectories(staging());
    byte[] seg = Files.readAllBytes(source().resolve("00000005.jdb"));
    Files.write(staging().resolve("00000005.jdb.1000000.part"), Arrays.copyOf(seg, 400_000));
    Files.write(staging().resolve("00000006.jdb.99.part"), new byte[50]); // of another length: dropped
    FetchStats stats = new SegmentFetcher(SegmentFetcher.Options.DEFAULT).fetch(server.address(), m, staging());
    assertThat(stats.bytes()).isEqualTo(600_000 + 10);
    assertSameFiles(source(), staging());
  }

  @Test
  void aFetchBrokenByTheSourceClosingResumesAndCompletes() throws Exception {
    for (int i = 0; i < 6; i++) {
      writeSegment(i, 5_000_000);
    }
    SegmentManifest m = manifestOfSource();
    SegmentServer slow = server(SegmentServer.Options.DEFAULT.withMaxBytesPerSecond(20_000_000));
    slow.export(m);
    SegmentFetcher fetcher = new SegmentFetcher(SegmentFetcher.Options.DEFAULT.withStreams(3));
    CompletableFuture<FetchStats> broken = CompletableFuture.supplyAsync(() -> {
      try {
        return fetcher.fetch(slow.address(), m, staging());
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (slow.bytesSent() < 8_000_000) {
      assertThat(System.nanoTime()).as("transfer progressing").isLessThan(deadline);
      Thread.sleep(10);
    }
    slow.close();
    assertThatThrownBy(() -> broken.get(10, TimeUnit.SECONDS)).hasRootCauseInstanceOf(IOException.class);
    assertThat(slow.bytesSent()).isLessThan(m.totalBytes());
    long kept = 0;
    for (byte[] b : contents(staging()).values()) {
      kept += b.length;
    }
    assertThat(kept).as("bytes the broken fetch left in complete and partial files").isPositive();

    SegmentServer restarted = server(SegmentServer.Options.DEFAULT);
    restarted.export(m);
    FetchStats resumed = fetcher.fetch(restarted.address(), m, staging());
    assertThat(resumed.bytes()).as("only what the first attempt did not write").isEqualTo(m.totalBytes() - kept)
        .isEqualTo(restarted.bytesSent());
    assertSameFiles(source(), staging());
  }

  @Test
  void aStalledSourceFailsTheFetchWithinTheIdleTimeout() throws IOException {
    writeSegment(0, 1000);
    SegmentManifest m = manifestOfSource();
    try (ServerSocketChannel mute = ServerSocketChannel.open().bind(LOOPBACK)) {
      CompletableFuture<SocketChannel> accepted = CompletableFuture.supplyAsync(() -> {
        try {
          return mute.accept(); // accepts and never answers
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
      SegmentFetcher fetcher = new SegmentFetcher(SegmentFetcher.Options.DEFAULT.withIdleTimeout(Duration.ofMillis(300)));
      long start = System.nanoTime();
      assertThatThrownBy(() -> fetcher.fetch((InetSocketAddress) mute.getLocalAddress(), m, staging()))
          .isInstanceOf(IOException.class).hasCauseInstanceOf(SocketTimeoutException.class);
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
      accepted.join().close();
    }
  }

  @Test
  void aRefusalIsReportedAsSuch() throws IOException {
    writeSegment(0, 1000);
    writeSegment(1, 1000);
    SegmentServer server = server(SegmentServer.Options.DEFAULT);
    SegmentFetcher fetcher = new SegmentFetcher(SegmentFetcher.Options.DEFAULT);
    SegmentManifest m = manifestOfSource();
    assertThatThrownBy(() -> fetcher.fetch(server.address(), m, staging()))
        .isInstanceOf(SegmentRefusedException.class).hasMessageContaining("not exported");
    server.export(m);
    SegmentManifest wrong = new SegmentManifest(REGION, List.of(new Segment(0, 1000), new Segment(1, 999)), 1);
    assertThatThrownBy(() -> fetcher.fetch(server.address(), wrong, staging()))
        .isInstanceOf(SegmentRefusedException.class).hasMessageContaining("has 1000 bytes at the source, the manifest says 999");
  }
}
