package io.basalt.server.transfer;

import io.basalt.server.security.ClusterSecret;
import io.basalt.server.security.MemberHandshake;
import io.basalt.server.security.MemberTls;
import io.basalt.server.transfer.SegmentProtocol.Request;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.channels.Channels;
import java.util.Arrays;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The source side of a region move: serves the log segments of regions under {@code regionsDir}
 * ({@code regionsDir/<encoded region name>/NNNNNNNN.jdb}) to {@link SegmentFetcher}s, sending file bytes
 * with {@link FileChannel#transferTo} (sendfile: no copy through user space), one thread per connection.
 * With {@link MemberTls} a connection is TLS from its first byte (the fetcher's certificate must be a
 * member's) and file bytes go through the TLS engine instead, read into a buffer and encrypted.
 *
 * <p>Only what a move has exported is served: {@link #export} registers a region's {@link SegmentManifest}
 * (taken from a pinned segment set at PRE-CLOSE, then from the closed directory at CLOSE), and a request
 * for anything else is refused. A served file must still have its exported length.
 *
 * <p>A connection opens with the cluster member handshake ({@link MemberHandshake}); then frames (all
 * integers big-endian), any number of requests, one at a time:
 *
 * <pre>
 *   request:  int32  magic 0x42534701 ("BSG", version 1)
 *             uint16 length of the region's encoded name, then the name (UTF-8)
 *             uint16 length of the segment file name, then the name (NNNNNNNN.jdb, lower-case hex)
 *             int64  offset of the first byte wanted (a resumed partial file asks for the rest)
 *   reply OK:    byte 0, int64 the file's length L, then exactly L - offset bytes of the file from offset
 *   reply ERROR: byte 1, uint16 message length, then the message (UTF-8); the server then closes the
 *                connection
 * </pre>
 */
public final class SegmentServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SegmentServer.class);
  private static final long CHUNK = 4L << 20;
  private static final int TLS_COPY_BUFFER = 256 << 10;

  /**
   * @param maxConnections streams served at once; more are refused
   * @param idleTimeout a connection making no progress this long (a stalled or vanished peer) is closed
   * @param maxBytesPerSecond total send rate over all connections, 0 for unlimited (bounds what moves take
   *     from serving)
   */
  public record Options(int maxConnections, Duration idleTimeout, long maxBytesPerSecond) {
    public static final Options DEFAULT = new Options(32, Duration.ofSeconds(30), 0);

    public Options {
      if (maxConnections < 1 || idleTimeout.isNegative() || idleTimeout.isZero() || maxBytesPerSecond < 0) {
        throw new IllegalArgumentException("invalid segment server options");
      }
    }

    public Options withMaxBytesPerSecond(long v) {
      return new Options(maxConnections, idleTimeout, v);
    }

    public Options withIdleTimeout(Duration v) {
      return new Options(maxConnections, v, maxBytesPerSecond);
    }
  }

  private final Path regionsDir;
  private final Options options;
  private final ClusterSecret secret;
  private final MemberTls tls;
  private final ServerSocketChannel listener;
  private final ThreadPoolExecutor workers;
  private final Thread acceptor;
  private final Map<String, SegmentManifest> exports = new ConcurrentHashMap<>();
  private final Set<SocketChannel> connections = ConcurrentHashMap.newKeySet();
  private final AtomicLong bytesSent = new AtomicLong();
  private final Pacer pacer;
  private volatile boolean closed;

  private SegmentServer(Path regionsDir, Options options, ClusterSecret secret, MemberTls tls,
      ServerSocketChannel listener) {
    this.regionsDir = regionsDir;
    this.options = options;
    this.secret = secret;
    this.tls = tls;
    this.listener = listener;
    this.pacer = options.maxBytesPerSecond() > 0 ? new Pacer(options.maxBytesPerSecond()) : null;
    AtomicInteger ids = new AtomicInteger();
    this.workers = new ThreadPoolExecutor(0, options.maxConnections(), 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
        r -> {
          Thread t = new Thread(r, "basalt-segment-server-" + ids.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    this.acceptor = new Thread(this::acceptLoop, "basalt-segment-server-accept");
    this.acceptor.setDaemon(true);
  }

  /** As {@link #start(Path, InetSocketAddress, Options, ClusterSecret)} for fetchers of this JVM. */
  public static SegmentServer start(Path regionsDir, InetSocketAddress bindAddress, Options options) throws IOException {
    return start(regionsDir, bindAddress, options, ClusterSecret.inProcess());
  }

  /**
   * Listens on {@code bindAddress} (port 0 picks a free one) and serves segments of {@code regionsDir} to
   * connections that prove they hold {@code secret} (the cluster's servers); others get an error reply.
   */
  public static SegmentServer start(Path regionsDir, InetSocketAddress bindAddress, Options options,
      ClusterSecret secret) throws IOException {
    return start(regionsDir, bindAddress, options, secret, null);
  }

  /**
   * As {@link #start(Path, InetSocketAddress, Options, ClusterSecret)}, over TLS when {@code tls} is set:
   * plaintext connections are then refused by the TLS handshake.
   */
  public static SegmentServer start(Path regionsDir, InetSocketAddress bindAddress, Options options,
      ClusterSecret secret, MemberTls tls) throws IOException {
    ServerSocketChannel listener = ServerSocketChannel.open();
    try {
      listener.setOption(StandardSocketOptions.SO_REUSEADDR, true);
      listener.bind(bindAddress, 64);
    } catch (IOException e) {
      listener.close();
      throw e;
    }
    SegmentServer server = new SegmentServer(regionsDir.toAbsolutePath().normalize(), options, secret, tls,
        listener);
    server.acceptor.start();
    LOG.info("segment server listening on {} for {}{}", server.address(), server.regionsDir,
        tls == null ? "" : " (TLS)");
    return server;
  }

  public InetSocketAddress address() {
    try {
      return (InetSocketAddress) listener.getLocalAddress();
    } catch (IOException e) {
      throw new IllegalStateException("segment server is closed", e);
    }
  }

  /**
   * Serves the segments of {@code manifest} (replacing an earlier export of its region). The files must be
   * on disk with the listed lengths, and the caller keeps them so (an open segment set) until it
   * {@link #unexport}s.
   */
  public void export(SegmentManifest manifest) throws IOException {
    Path dir = regionsDir.resolve(manifest.region());
    if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
      throw new NoSuchFileException(dir.toString(), null, "no region directory");
    }
    for (SegmentManifest.Segment s : manifest.segments()) {
      long size = regularFileSize(dir.resolve(s.fileName()));
      if (size != s.length()) {
        throw new IOException("segment " + s.fileName() + " of " + manifest.region() + " has " + size
            + " bytes, the manifest says " + s.length());
      }
    }
    exports.put(manifest.region(), manifest);
  }

  /** Stops serving a region's segments (the move finished or was abandoned); streams in flight finish. */
  public void unexport(String region) {
    exports.remove(region);
  }

  /** Bytes of segment files sent since start. */
  public long bytesSent() {
    return bytesSent.get();
  }

  private void acceptLoop() {
    while (!closed) {
      SocketChannel ch;
      try {
        ch = listener.accept();
      } catch (IOException e) {
        if (!closed) {
          LOG.warn("segment server stopped accepting", e);
        }
        return;
      }
      connections.add(ch);
      try {
        workers.execute(() -> serve(ch));
      } catch (RejectedExecutionException e) {
        connections.remove(ch);
        refuse(ch, "too many segment streams (" + options.maxConnections() + "), try again later");
      }
    }
  }

  private void serve(SocketChannel ch) {
    try (ch; StallWatch watch = StallWatch.on(ch, options.idleTimeout())) {
      ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
      Object peer = remote(ch); // a failed TLS handshake closes the channel
      Wire wire;
      try {
        wire = tls == null ? new Wire(ch, ch, null) : Wire.over(tls.accept(ch.socket()));
      } catch (IOException e) {
        if (!closed) {
          LOG.warn("refused a segment stream from {}: TLS failed: {}", peer, watch.explain(e).getMessage());
        }
        return;
      }
      if (!admitMember(wire, ch)) {
        return;
      }
      watch.progress();
      try {
        Request request;
        while ((request = SegmentProtocol.readRequest(wire.in())) != null) {
          watch.progress();
          try {
            send(wire, watch, request);
          } catch (SegmentRefusedException refused) {
            LOG.warn("refused segment request from {}: {}", remote(ch), refused.getMessage());
            SegmentProtocol.writeError(wire.out(), refused.getMessage());
            return;
          }
        }
      } catch (java.net.ProtocolException e) {
        LOG.warn("dropped a segment stream from {}: {}", remote(ch), e.getMessage());
        SegmentProtocol.writeError(wire.out(), e.getMessage());
      } catch (IOException e) {
        IOException why = watch.explain(e);
        if (!closed) {
          LOG.info("segment stream from {} ended: {}", remote(ch), why.toString());
        }
      }
    } catch (IOException ignored) {
      // closing
    } finally {
      connections.remove(ch);
    }
  }

  /**
   * Runs the member handshake a fetcher opens with. Anything else (a client, a scanner, a fetcher of another
   * cluster) gets an error reply or is closed before it can name a file.
   */
  private boolean admitMember(Wire wire, SocketChannel ch) throws IOException {
    DataInputStream in = new DataInputStream(Channels.newInputStream(wire.in()));
    // Buffered (the handshake flushes): over TLS each unbuffered write would be a record of its own.
    DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(
        Channels.newOutputStream(wire.out())));
    byte[] first = new byte[MemberHandshake.MAGIC.length];
    try {
      in.readFully(first);
      if (!Arrays.equals(first, MemberHandshake.MAGIC)) {
        LOG.warn("refused a segment stream from {}: it did not prove cluster membership", remote(ch));
        SegmentProtocol.writeError(wire.out(), "segment transfer is for this cluster's servers only");
        return false;
      }
      if (!MemberHandshake.accept(in, out, secret)) {
        LOG.warn("refused a segment stream from {}: wrong cluster member proof", remote(ch));
        return false;
      }
      return true;
    } catch (java.io.EOFException e) {
      return false;
    }
  }

  /** Sends the requested bytes, or refuses (before sending anything) what is not exported as asked. */
  private void send(Wire wire, StallWatch watch, Request request) throws IOException {
    long length = exportedLength(request);
    Path file = regionsDir.resolve(request.region()).resolve(request.file());
    FileChannel in;
    try {
      long size = regularFileSize(file);
      if (size != length) {
        throw new SegmentRefusedException(request.file() + " of " + request.region()
            + " changed since it was exported (" + size + " bytes, exported " + length + ")");
      }
      in = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    } catch (SegmentRefusedException e) {
      throw e;
    } catch (IOException e) {
      throw new SegmentRefusedException("cannot serve " + request.file() + " of " + request.region() + ": " + e);
    }
    try (in) {
      SegmentProtocol.writeOk(wire.out(), length);
      java.nio.ByteBuffer buffer = wire.tlsOut() == null ? null : java.nio.ByteBuffer.allocate(TLS_COPY_BUFFER);
      long position = request.offset();
      while (position < length) {
        long chunk = Math.min(CHUNK, length - position);
        if (pacer != null) {
          pacer.await(chunk);
          watch.progress();
        }
        long n = buffer == null ? in.transferTo(position, chunk, wire.out())
            : copy(in, position, chunk, buffer, wire.tlsOut());
        if (n <= 0) {
          throw new IOException(file + " ended at byte " + position + " of " + length);
        }
        position += n;
        bytesSent.addAndGet(n);
        watch.progress();
      }
    }
  }

  /** Reads up to {@code max} bytes of {@code file} at {@code position} and writes them to {@code out}. */
  private static long copy(FileChannel file, long position, long max, java.nio.ByteBuffer buffer,
      java.io.OutputStream out) throws IOException {
    buffer.clear().limit((int) Math.min(buffer.capacity(), max));
    int n = file.read(buffer, position);
    if (n > 0) {
      out.write(buffer.array(), 0, n);
    }
    return n;
  }

  /**
   * Where a connection's frames are read and written: the socket channel itself (plaintext, so file bytes
   * can go by sendfile), or the streams of its TLS socket ({@code tlsOut}: whole buffers become records).
   */
  private record Wire(ReadableByteChannel in, WritableByteChannel out, java.io.OutputStream tlsOut) {
    static Wire over(javax.net.ssl.SSLSocket ssl) throws IOException {
      java.io.OutputStream out = ssl.getOutputStream();
      return new Wire(Channels.newChannel(ssl.getInputStream()), Channels.newChannel(out), out);
    }
  }

  /** The exported length of the requested file, after validating every part of the request. */
  private long exportedLength(Request request) throws SegmentRefusedException {
    if (!SegmentManifest.isValidRegionName(request.region())) {
      throw new SegmentRefusedException("invalid region name");
    }
    if (!request.file().matches("[0-9a-f]{8}\\.jdb")) {
      throw new SegmentRefusedException("invalid segment file name (NNNNNNNN.jdb expected)");
    }
    SegmentManifest export = exports.get(request.region());
    if (export == null) {
      throw new SegmentRefusedException("region " + request.region() + " is not exported for transfer");
    }
    OptionalLong length = export.lengthOf(request.file());
    if (length.isEmpty()) {
      throw new SegmentRefusedException(request.file() + " is not among the exported segments of " + request.region());
    }
    if (request.offset() < 0 || request.offset() > length.getAsLong()) {
      throw new SegmentRefusedException("offset " + request.offset() + " outside " + request.file()
          + " (" + length.getAsLong() + " bytes)");
    }
    return length.getAsLong();
  }

  private static long regularFileSize(Path file) throws IOException {
    BasicFileAttributes attrs = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    if (!attrs.isRegularFile()) {
      throw new IOException(file.getFileName() + " is not a regular file");
    }
    return attrs.size();
  }

  /**
   * Answers with an error without reading the request: closing at once with the request unread would reset
   * the connection and lose the answer, so the close waits a moment after the error is sent.
   */
  private static void refuse(SocketChannel ch, String message) {
    try {
      SegmentProtocol.writeError(ch, message);
      ch.shutdownOutput();
    } catch (IOException ignored) {
      // the peer is gone anyway
    }
    StallWatch.closeLater(ch, Duration.ofSeconds(1));
  }

  private static Object remote(SocketChannel ch) {
    try {
      return ch.getRemoteAddress();
    } catch (IOException e) {
      return "?";
    }
  }

  /** Stops listening and breaks every stream in flight. */
  @Override
  public void close() {
    closed = true;
    try {
      listener.close();
    } catch (IOException ignored) {
      // closing
    }
    for (SocketChannel ch : connections) {
      try {
        ch.close();
      } catch (IOException ignored) {
        // closing
      }
    }
    workers.shutdownNow();
    try {
      acceptor.join(5_000);
      workers.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Spaces sends so that all connections together stay under a byte rate. */
  private static final class Pacer {
    private final double nanosPerByte;
    private long nextFree = System.nanoTime();

    Pacer(long bytesPerSecond) {
      this.nanosPerByte = 1e9 / bytesPerSecond;
    }

    void await(long bytes) throws IOException {
      long wait;
      synchronized (this) {
        long now = System.nanoTime();
        long start = Math.max(now, nextFree);
        nextFree = start + (long) (bytes * nanosPerByte);
        wait = start - now;
      }
      if (wait > 0) {
        try {
          TimeUnit.NANOSECONDS.sleep(wait);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new java.io.InterruptedIOException("segment server closing");
        }
      }
    }
  }
}
