package io.basalt.server.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.transfer.SegmentManifest.Segment;
import io.basalt.server.security.ClusterSecret;
import io.basalt.server.security.MemberConnector;
import io.basalt.server.security.MemberHandshake;
import io.basalt.server.security.TlsOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SegmentServerTest {
  private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 0);

  @TempDir Path regions;
  @TempDir Path staging;
  private SegmentServer server;
  private byte[] seg0;
  private byte[] seg1;

  @BeforeEach
  void setUp() throws IOException {
    Random rnd = new Random(42);
    seg0 = new byte[1000];
    seg1 = new byte[50_000];
    rnd.nextBytes(seg0);
    rnd.nextBytes(seg1);
    Path r1 = Files.createDirectories(regions.resolve("r1"));
    Files.write(r1.resolve("00000000.jdb"), seg0);
    Files.write(r1.resolve("00000001.jdb"), seg1);
    Files.write(r1.resolve("00000002.jdb"), new byte[10]);
    Files.write(r1.resolve("notes.txt"), new byte[10]);
    Path r2 = Files.createDirectories(regions.resolve("r2"));
    Files.write(r2.resolve("00000000.jdb"), new byte[] {1, 2, 3});
    server = SegmentServer.start(regions, LOOPBACK, SegmentServer.Options.DEFAULT);
    server.export(new SegmentManifest("r1", List.of(new Segment(0, seg0.length), new Segment(1, seg1.length)), 1));
  }

  @AfterEach
  void tearDown() {
    server.close();
  }

  /** A connection that proved cluster membership, as a region server's fetcher opens. */
  private SocketChannel connect() throws IOException {
    SocketChannel ch = SocketChannel.open(server.address());
    try {
      MemberConnector.inProcess().prove(ch, server.address());
    } catch (MemberHandshake.Refused busy) {
      ch.close();
      throw new SegmentRefusedException(busy.getMessage());
    }
    return ch;
  }

  @Test
  void refusesConnectionsThatDoNotProveClusterMembership() throws IOException {
    try (SocketChannel ch = SocketChannel.open(server.address())) {
      SegmentProtocol.writeRequest(ch, "r1", "00000000.jdb", 0);
      assertThatThrownBy(() -> SegmentProtocol.readReply(ch)).isInstanceOf(SegmentRefusedException.class)
          .hasMessageContaining("for this cluster's servers only");
      // Closed after the refusal: an end of stream, or a reset since the rest of the request went unread.
      try {
        assertThat(ch.read(ByteBuffer.allocate(1))).isEqualTo(-1);
      } catch (java.net.SocketException reset) {
        assertThat(reset).hasMessageContaining("reset");
      }
    }
    MemberConnector otherCluster = new MemberConnector(ClusterSecret.of(new byte[32]), null, TlsOptions.DEFAULT);
    try (SocketChannel ch = SocketChannel.open(server.address())) {
      assertThatThrownBy(() -> otherCluster.prove(ch, server.address())).isInstanceOf(IOException.class)
          .hasMessageContaining("does not hold this cluster's secret");
    }
    SegmentFetcher stranger = new SegmentFetcher(SegmentFetcher.Options.DEFAULT, otherCluster);
    assertThatThrownBy(() -> stranger.fetch(server.address(),
        new SegmentManifest("r1", List.of(new Segment(0, seg0.length)), 0), staging))
        .isInstanceOf(IOException.class).hasStackTraceContaining("does not hold this cluster's secret");
    assertThat(staging.resolve("00000000.jdb")).doesNotExist();
  }

  private static byte[] request(SocketChannel ch, String region, String file, long offset) throws IOException {
    SegmentProtocol.writeRequest(ch, region, file, offset);
    long length = SegmentProtocol.readReply(ch);
    ByteBuffer body = ByteBuffer.allocate((int) (length - offset));
    while (body.hasRemaining()) {
      assertThat(ch.read(body)).isNotNegative();
    }
    return body.array();
  }

  private String refusal(String region, String file, long offset) throws IOException {
    SocketChannel connected;
    try {
      connected = connect();
    } catch (SegmentRefusedException turnedAway) { // refused before the handshake (too busy)
      return turnedAway.getMessage();
    }
    try (SocketChannel ch = connected) {
      SegmentProtocol.writeRequest(ch, region, file, offset);
      try {
        SegmentProtocol.readReply(ch);
      } catch (SegmentRefusedException e) {
        assertThat(ch.read(ByteBuffer.allocate(1))).as("closed after an error").isEqualTo(-1);
        return e.getMessage();
      }
      throw new AssertionError("served " + region + "/" + file);
    }
  }

  @Test
  void servesExportedSegmentsWholeOrFromAnOffsetOnOneConnection() throws IOException {
    try (SocketChannel ch = connect()) {
      assertThat(request(ch, "r1", "00000000.jdb", 0)).isEqualTo(seg0);
      assertThat(request(ch, "r1", "00000001.jdb", 12_345)).isEqualTo(Arrays.copyOfRange(seg1, 12_345, seg1.length));
      assertThat(request(ch, "r1", "00000001.jdb", seg1.length)).isEmpty();
    }
    assertThat(server.bytesSent()).isEqualTo(seg0.length + seg1.length - 12_345);
  }

  @Test
  void refusesPathsOutsideTheExportedSegments() throws IOException {
    assertThat(refusal("../r1", "00000000.jdb", 0)).contains("invalid region name");
    assertThat(refusal("..", "00000000.jdb", 0)).contains("invalid region name");
    assertThat(refusal("r1/../r2", "00000000.jdb", 0)).contains("invalid region name");
    assertThat(refusal("/etc", "passwd", 0)).contains("invalid region name");
    assertThat(refusal("r1", "../r2/00000000.jdb", 0)).contains("invalid segment file name");
    assertThat(refusal("r1", "/etc/passwd", 0)).contains("invalid segment file name");
    assertThat(refusal("r1", "notes.txt", 0)).contains("invalid segment file name");
    assertThat(refusal("r1", "00000000.JDB", 0)).contains("invalid segment file name");
    assertThat(refusal("r2", "00000000.jdb", 0)).contains("region r2 is not exported");
    assertThat(refusal("r1", "00000002.jdb", 0)).contains("00000002.jdb is not among the exported segments of r1");
    assertThat(refusal("r1", "00000000.jdb", -1)).contains("offset -1 outside");
    assertThat(refusal("r1", "00000000.jdb", seg0.length + 1)).contains("offset 1001 outside");
    server.unexport("r1");
    assertThat(refusal("r1", "00000000.jdb", 0)).contains("region r1 is not exported");
  }

  @Test
  void refusesASegmentThatChangedOrWasReplacedSinceItsExport() throws IOException {
    Files.write(regions.resolve("r1/00000001.jdb"), new byte[1], StandardOpenOption.APPEND);
    assertThat(refusal("r1", "00000001.jdb", 0)).contains("changed since it was exported (50001 bytes, exported 50000)");
    Path seg = regions.resolve("r1/00000000.jdb");
    Files.delete(seg);
    assertThat(refusal("r1", "00000000.jdb", 0)).contains("cannot serve 00000000.jdb of r1");
    Path elsewhere = Files.write(regions.resolve("secret"), seg0);
    Files.createSymbolicLink(seg, elsewhere);
    assertThat(refusal("r1", "00000000.jdb", 0)).contains("not a regular file");
  }

  @Test
  void exportChecksTheFilesOnDisk() throws IOException {
    assertThatThrownBy(() -> server.export(new SegmentManifest("r3", List.of(), -1))).isInstanceOf(NoSuchFileException.class);
    assertThatThrownBy(() -> server.export(new SegmentManifest("r2", List.of(new Segment(0, 4)), 0)))
        .isInstanceOf(IOException.class).hasMessageContaining("has 3 bytes, the manifest says 4");
    assertThatThrownBy(() -> server.export(new SegmentManifest("r2", List.of(new Segment(5, 4)), 5)))
        .isInstanceOf(NoSuchFileException.class);
    Files.createSymbolicLink(regions.resolve("r2/00000001.jdb"), regions.resolve("r1/00000000.jdb"));
    assertThatThrownBy(() -> server.export(new SegmentManifest("r2", List.of(new Segment(1, seg0.length)), 1)))
        .isInstanceOf(IOException.class).hasMessageContaining("not a regular file");
    assertThat(refusal("r2", "00000000.jdb", 0)).contains("not exported");
  }

  @Test
  void dropsGarbageAndIdleConnectionsAndBoundsConcurrentStreams() throws IOException {
    try (SocketChannel ch = connect()) {
      ch.write(ByteBuffer.wrap("GET / HTTP/1.1\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII)));
      // An error reply, unless the reset for the unread rest of the garbage overtook it.
      assertThatThrownBy(() -> SegmentProtocol.readReply(ch)).isInstanceOfAny(SegmentRefusedException.class,
          java.net.SocketException.class, java.io.EOFException.class);
    }
    server.close();
    server = SegmentServer.start(regions, LOOPBACK,
        new SegmentServer.Options(1, Duration.ofMillis(300), 0));
    server.export(new SegmentManifest("r1", List.of(new Segment(0, seg0.length)), 0));
    try (SocketChannel idle = connect()) {
      assertThat(refusal("r1", "00000000.jdb", 0)).contains("too many segment streams");
      long start = System.nanoTime();
      assertThat(idle.read(ByteBuffer.allocate(1))).as("an idle stream is closed").isEqualTo(-1);
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
    }
    for (int attempt = 0; ; attempt++) {
      // The closed connection's thread frees its slot a moment later.
      try (SocketChannel ch = connect()) {
        assertThat(request(ch, "r1", "00000000.jdb", 0)).isEqualTo(seg0);
        break;
      } catch (SegmentRefusedException busy) {
        assertThat(attempt).isLessThan(100);
        sleep(20);
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }
}
