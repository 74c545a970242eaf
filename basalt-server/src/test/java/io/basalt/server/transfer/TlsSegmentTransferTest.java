package io.basalt.server.transfer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.security.ClusterSecret;
import io.basalt.server.security.MemberConnector;
import io.basalt.server.security.MemberTls;
import io.basalt.server.security.TestCertificates;
import io.basalt.server.security.TlsOptions;
import io.basalt.server.transfer.SegmentManifest.Segment;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Segment transfer with internal TLS: fetches work between members, the bytes on the wire carry no
 * plaintext of the segments, and plaintext connections, ordinary client certificates of the same CA and
 * members without the cluster secret fetch nothing. Also measures the cost of TLS against sendfile.
 */
@Timeout(180)
class TlsSegmentTransferTest {
  private static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 0);
  private static final ClusterSecret SECRET = ClusterSecret.of("0123456789abcdef".getBytes(StandardCharsets.US_ASCII));
  private static final byte[] MARKER = "row-0042/f:q=plaintext-cell-value".getBytes(StandardCharsets.US_ASCII);

  @TempDir static Path pkiDir;
  private static TestCertificates pki;
  private static Path server1;
  private static Path server2;
  private static Path client;

  @TempDir Path regions;
  @TempDir Path staging;
  private SegmentServer server;

  @BeforeAll
  static void certificates() throws Exception {
    pki = TestCertificates.create(pkiDir);
    server1 = pki.memberKeystore("server1");
    server2 = pki.memberKeystore("server2");
    client = pki.clientKeystore("alice");
  }

  @AfterEach
  void tearDown() {
    if (server != null) {
      server.close();
    }
  }

  private SegmentManifest exportSegments(int files, int bytesEach) throws IOException {
    Path r = Files.createDirectories(regions.resolve("r1"));
    Random rnd = new Random(7);
    Segment[] segments = new Segment[files];
    for (int i = 0; i < files; i++) {
      byte[] data = new byte[bytesEach];
      rnd.nextBytes(data);
      for (int at = 0; at + MARKER.length < data.length; at += 4096) {
        System.arraycopy(MARKER, 0, data, at, MARKER.length); // what a row would look like in a log
      }
      Files.write(r.resolve(String.format("%08x.jdb", i)), data);
      segments[i] = new Segment(i, data.length);
    }
    SegmentManifest manifest = new SegmentManifest("r1", List.of(segments), files - 1);
    server.export(manifest);
    return manifest;
  }

  private void startServer(MemberTls tls) throws IOException {
    server = SegmentServer.start(regions, LOOPBACK, SegmentServer.Options.DEFAULT, SECRET, tls);
  }

  private static SegmentFetcher fetcher(MemberConnector connector) {
    return new SegmentFetcher(SegmentFetcher.Options.DEFAULT, connector);
  }

  @Test
  void membersFetchOverTlsAndTheWireShowsNoPlaintext() throws Exception {
    startServer(pki.memberTls(server1, TestCertificates.MEMBER_SUBJECT));
    SegmentManifest manifest = exportSegments(2, 300_000);
    try (CapturingProxy proxy = new CapturingProxy(server.address())) {
      fetcher(new MemberConnector(SECRET, pki.memberTls(server2, TestCertificates.MEMBER_SUBJECT)))
          .fetch(proxy.address(), manifest, staging);
      for (int i = 0; i < 2; i++) {
        String name = String.format("%08x.jdb", i);
        assertThat(Files.readAllBytes(staging.resolve(name))).isEqualTo(Files.readAllBytes(regions.resolve("r1/" + name)));
      }
      byte[] wire = proxy.captured();
      assertThat(wire.length).as("the segments crossed the proxy").isGreaterThan(600_000);
      assertThat(indexOf(wire, MARKER)).as("no row data in clear on the wire").isEqualTo(-1);
    }
  }

  @Test
  void withoutTlsTheSameCaptureShowsTheRows() throws Exception {
    startServer(null);
    SegmentManifest manifest = exportSegments(1, 100_000);
    try (CapturingProxy proxy = new CapturingProxy(server.address())) {
      fetcher(new MemberConnector(SECRET, null, TlsOptions.DEFAULT)).fetch(proxy.address(), manifest, staging);
      assertThat(indexOf(proxy.captured(), MARKER)).as("the capture sees plaintext").isNotEqualTo(-1);
    }
  }

  @Test
  void plaintextOrdinaryCertificatesAndStrangersFetchNothing() throws Exception {
    startServer(pki.memberTls(server1, TestCertificates.MEMBER_SUBJECT));
    SegmentManifest manifest = exportSegments(1, 10_000);
    assertThatThrownBy(() -> fetcher(new MemberConnector(SECRET, null, TlsOptions.DEFAULT))
        .fetch(server.address(), manifest, staging.resolve("plain"))).as("plaintext with the secret")
        .isInstanceOf(IOException.class);
    try (SocketChannel raw = SocketChannel.open(server.address())) {
      SegmentProtocol.writeRequest(raw, "r1", "00000000.jdb", 0);
      assertThatThrownBy(() -> SegmentProtocol.readReply(raw)).as("a raw plaintext request")
          .isInstanceOf(IOException.class);
    }
    assertThatThrownBy(() -> fetcher(new MemberConnector(SECRET, pki.memberTls(client, "")))
        .fetch(server.address(), manifest, staging.resolve("client"))).as("an ordinary client certificate")
        .isInstanceOf(IOException.class);
    ClusterSecret other = ClusterSecret.of(new byte[16]);
    assertThatThrownBy(() -> fetcher(new MemberConnector(other, pki.memberTls(server2, TestCertificates.MEMBER_SUBJECT)))
        .fetch(server.address(), manifest, staging.resolve("stranger"))).as("a member certificate without the secret")
        .isInstanceOf(IOException.class).hasStackTraceContaining("does not hold this cluster's secret");
    assertThat(server.bytesSent()).isZero();
  }

  @Test
  void aMemberDoesNotSendToAServerWhoseCertificateIsNotAMembers() throws Exception {
    startServer(pki.memberTls(client, ""));
    SegmentManifest manifest = exportSegments(1, 10_000);
    assertThatThrownBy(() -> fetcher(new MemberConnector(SECRET, pki.memberTls(server2, TestCertificates.MEMBER_SUBJECT)))
        .fetch(server.address(), manifest, staging)).isInstanceOf(IOException.class)
        .hasStackTraceContaining("is not a cluster member's");
  }

  @Test
  void aReloadedKeystoreServesTheNextConnection() throws Exception {
    Path live = pkiDir.resolve("live.p12");
    Files.copy(server1, live, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    io.basalt.server.security.ReloadingTls reloading = pki.reloading(live);
    startServer(TestCertificates.memberTls(reloading, TestCertificates.MEMBER_SUBJECT));
    SegmentManifest manifest = exportSegments(1, 10_000);
    MemberConnector member = new MemberConnector(SECRET, pki.memberTls(server2, TestCertificates.MEMBER_SUBJECT));
    fetcher(member).fetch(server.address(), manifest, staging.resolve("before"));
    // The server's certificate replaced by one that is not a member's: members stop sending to it.
    Files.copy(client, live, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    Files.setLastModifiedTime(live, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 5_000));
    assertThat(reloading.reloadIfChanged()).isTrue();
    assertThatThrownBy(() -> fetcher(member).fetch(server.address(), manifest, staging.resolve("after")))
        .isInstanceOf(IOException.class).hasStackTraceContaining("CN=alice");
  }

  /** Not a pass/fail check: prints MB/s of one 64 MB segment over one stream, sendfile against TLS. */
  @Test
  void measuresTheCostOfTls() throws Exception {
    int size = 64 << 20;
    for (int round = 0; round < 3; round++) {
      for (boolean tls : new boolean[] {false, true}) {
        startServer(tls ? pki.memberTls(server1, TestCertificates.MEMBER_SUBJECT) : null);
        Path dir = regions.resolve("r1");
        if (Files.exists(dir)) {
          server.export(new SegmentManifest("r1", List.of(new Segment(0, size)), 0));
        } else {
          exportSegments(1, size);
        }
        MemberConnector connector = tls ? new MemberConnector(SECRET, pki.memberTls(server2, TestCertificates.MEMBER_SUBJECT))
            : new MemberConnector(SECRET, null, TlsOptions.DEFAULT);
        Path target = staging.resolve("round" + round + (tls ? "-tls" : "-plain"));
        long start = System.nanoTime();
        fetcher(connector).fetch(server.address(), new SegmentManifest("r1", List.of(new Segment(0, size)), 0), target);
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("segment transfer %s: %d MB in %.3f s = %.0f MB/s%n", tls ? "TLS" : "plaintext (sendfile)",
            size >> 20, seconds, (size >> 20) / seconds);
        assertThat(Files.size(target.resolve("00000000.jdb"))).isEqualTo(size);
        server.close();
        server = null;
      }
    }
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /** A TCP relay to {@code target} that records every byte it passes in either direction. */
  static final class CapturingProxy implements AutoCloseable {
    private final ServerSocket listener = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
    private final InetSocketAddress target;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private final List<Socket> sockets = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Thread acceptor;

    CapturingProxy(InetSocketAddress target) throws IOException {
      this.target = target;
      acceptor = new Thread(this::acceptLoop, "capturing-proxy");
      acceptor.setDaemon(true);
      acceptor.start();
    }

    InetSocketAddress address() {
      return new InetSocketAddress("127.0.0.1", listener.getLocalPort());
    }

    byte[] captured() {
      synchronized (captured) {
        return captured.toByteArray();
      }
    }

    private void acceptLoop() {
      try {
        while (true) {
          Socket in = listener.accept();
          Socket out = new Socket(target.getAddress(), target.getPort());
          sockets.add(in);
          sockets.add(out);
          relay(in, out);
          relay(out, in);
        }
      } catch (IOException closed) {
        // the test is over
      }
    }

    private void relay(Socket from, Socket to) {
      Thread t = new Thread(() -> {
        byte[] buffer = new byte[65536];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
          for (int n; (n = in.read(buffer)) > 0; ) {
            synchronized (captured) {
              captured.write(buffer, 0, n);
            }
            out.write(buffer, 0, n);
          }
        } catch (IOException ended) {
          // one side closed
        } finally {
          try {
            to.shutdownOutput();
          } catch (IOException ignored) {
            // already closed
          }
        }
      }, "capturing-proxy-relay");
      t.setDaemon(true);
      t.start();
    }

    @Override
    public void close() throws IOException {
      listener.close();
      for (Socket s : sockets) {
        s.close();
      }
    }
  }

}
