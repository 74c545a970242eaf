package io.basalt.server.transfer;

import io.basalt.server.transfer.FetchStats.StreamStats;
import io.basalt.server.transfer.SegmentManifest.Segment;
import io.basalt.server.security.MemberConnector;
import io.basalt.server.security.MemberHandshake;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The target side of a region move: makes a staging directory hold exactly the segments of a
 * {@link SegmentManifest}, pulling what is missing from a {@link SegmentServer} over parallel streams
 * ({@link FileChannel#transferFrom} into the file), over TLS when its {@link MemberConnector} encrypts.
 *
 * <p>A fetch is idempotent and cheap to repeat. Complete segments of the right length are kept; a segment of
 * another length (the source's former tail, grown since) is fetched anew; segments the manifest does not
 * list are deleted. Bytes arrive in {@code NNNNNNNN.jdb.<length>.part} and the file is renamed when
 * complete and synced, so a fetch broken by a crash, a stalled stream or a closed source resumes each
 * partial file where it stopped. A move calls it twice: with the manifest of the segments sealed at
 * PRE-CLOSE while the source serves, then with the closed region's manifest, which ships only the tail.
 *
 * <p>A fetch fails (IOException; {@link SegmentRefusedException} if the source refused a request) when any
 * stream fails; the caller retries, and only what is still missing moves again.
 */
public final class SegmentFetcher {
  private static final Pattern SEGMENT = Pattern.compile("[0-9a-f]{8}\\.jdb");
  private static final Pattern PARTIAL = Pattern.compile("([0-9a-f]{8}\\.jdb)\\.([0-9]+)\\.part");
  private static final long CHUNK = 4L << 20;
  private static final int TLS_READ_BUFFER = 256 << 10;

  /**
   * @param streams parallel connections (a stream takes the next missing file when it finishes one)
   * @param connectTimeout bound on each connection attempt
   * @param idleTimeout a stream receiving nothing for this long fails
   */
  public record Options(int streams, Duration connectTimeout, Duration idleTimeout) {
    public static final Options DEFAULT = new Options(4, Duration.ofSeconds(5), Duration.ofSeconds(30));

    public Options {
      if (streams < 1 || connectTimeout.isNegative() || connectTimeout.isZero() || idleTimeout.isNegative()
          || idleTimeout.isZero()) {
        throw new IllegalArgumentException("invalid segment fetcher options");
      }
    }

    public Options withStreams(int v) {
      return new Options(v, connectTimeout, idleTimeout);
    }

    public Options withIdleTimeout(Duration v) {
      return new Options(streams, connectTimeout, v);
    }
  }

  private final Options options;
  private final MemberConnector members;

  /** A fetcher of this JVM's segment servers (tests). */
  public SegmentFetcher(Options options) {
    this(options, MemberConnector.inProcess());
  }

  /** Each connection proves membership with {@code members} before asking for anything. */
  public SegmentFetcher(Options options, MemberConnector members) {
    this.options = options;
    this.members = members;
  }

  /**
   * Makes {@code stagingDir} hold exactly {@code manifest}'s segments, fetching what is missing from
   * {@code source}, and syncs them to disk. One fetch per staging directory at a time. The directory should
   * not be where the region is opened from until the last fetch succeeded (stage, then rename).
   */
  public FetchStats fetch(InetSocketAddress source, SegmentManifest manifest, Path stagingDir) throws IOException {
    long start = System.nanoTime();
    Files.createDirectories(stagingDir);
    Staged staged = reconcile(manifest, stagingDir);
    List<Segment> missing = new ArrayList<>();
    for (Segment s : manifest.segments()) {
      if (!staged.complete().contains(s.fileName())) {
        missing.add(s);
      }
    }
    // Largest first, so streams finish together.
    missing.sort(Comparator.comparingLong(Segment::length).reversed().thenComparingLong(Segment::number));
    List<Stream> streams = pull(source, manifest.region(), missing, stagingDir);
    for (Segment s : missing) {
      Path p = stagingDir.resolve(s.fileName());
      if (!Files.exists(p) || Files.size(p) != s.length()) {
        throw new IOException("segment fetch of " + manifest.region() + " ended without " + p);
      }
    }
    syncDirectory(stagingDir);
    long bytes = 0;
    int fetched = 0;
    List<StreamStats> perStream = new ArrayList<>(streams.size());
    for (Stream s : streams) {
      bytes += s.bytes;
      fetched += s.files;
      perStream.add(new StreamStats(s.bytes, s.files, Duration.ofNanos(s.nanos)));
    }
    return new FetchStats(bytes, fetched, staged.complete().size(), staged.removed(),
        Duration.ofNanos(System.nanoTime() - start), perStream);
  }

  /** Names of the staged segments that are complete, and how many staged segments were deleted. */
  private record Staged(Set<String> complete, int removed) {}

  /** Keeps complete segments of the manifest, and partial ones of the right length; deletes the rest. */
  private static Staged reconcile(SegmentManifest manifest, Path stagingDir) throws IOException {
    Map<String, Segment> wanted = new HashMap<>();
    for (Segment s : manifest.segments()) {
      wanted.put(s.fileName(), s);
    }
    int removed = 0;
    Set<String> complete = new HashSet<>();
    try (DirectoryStream<Path> staged = Files.newDirectoryStream(stagingDir)) {
      for (Path p : staged) {
        String name = p.getFileName().toString();
        Matcher partial = PARTIAL.matcher(name);
        if (SEGMENT.matcher(name).matches()) {
          Segment s = wanted.get(name);
          if (s != null && Files.size(p) == s.length()) {
            complete.add(name);
          } else {
            Files.delete(p);
            removed++;
          }
        } else if (partial.matches()) {
          Segment s = wanted.get(partial.group(1));
          if (s == null || !partial.group(2).equals(Long.toString(s.length()))) {
            Files.delete(p);
          }
        }
      }
    }
    return new Staged(complete, removed);
  }

  /** Runs the streams until {@code missing} is fetched or one failed (then throws its failure). */
  private List<Stream> pull(InetSocketAddress source, String region, List<Segment> missing, Path stagingDir)
      throws IOException {
    ConcurrentLinkedQueue<Segment> queue = new ConcurrentLinkedQueue<>(missing);
    AtomicReference<IOException> failure = new AtomicReference<>();
    int n = Math.min(options.streams(), missing.size());
    List<Stream> streams = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      streams.add(new Stream(source, region, stagingDir, queue, failure, streams));
    }
    List<Thread> threads = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      Thread t = new Thread(streams.get(i), "basalt-segment-fetch-" + region + "-" + i);
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }
    boolean interrupted = false;
    for (Thread t : threads) {
      while (t.isAlive()) {
        try {
          t.join();
        } catch (InterruptedException e) {
          interrupted = true;
          failure.compareAndSet(null, new InterruptedIOException("segment fetch of " + region + " interrupted"));
          streams.forEach(Stream::abort);
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    return streams;
  }

  /** One connection, pulling files from the shared queue until it is empty or some stream failed. */
  private final class Stream implements Runnable {
    private final InetSocketAddress source;
    private final String region;
    private final Path dir;
    private final ConcurrentLinkedQueue<Segment> queue;
    private final AtomicReference<IOException> failure;
    private final List<Stream> all;
    private volatile java.io.Closeable channel;
    private volatile boolean aborted;
    private long bytes;
    private int files;
    private long nanos;

    Stream(InetSocketAddress source, String region, Path dir, ConcurrentLinkedQueue<Segment> queue,
        AtomicReference<IOException> failure, List<Stream> all) {
      this.source = source;
      this.region = region;
      this.dir = dir;
      this.queue = queue;
      this.failure = failure;
      this.all = all;
    }

    @Override
    public void run() {
      long start = System.nanoTime();
      try {
        if (members.encrypts()) {
          runTls();
        } else {
          runPlain();
        }
      } catch (IOException | RuntimeException e) {
        if (!aborted) {
          IOException why = e instanceof SegmentRefusedException refused ? refused
              : new IOException("fetching segments of " + region + " from " + source + " failed: " + e, e);
          if (failure.compareAndSet(null, why)) {
            all.forEach(Stream::abort);
          }
        }
      } finally {
        nanos = System.nanoTime() - start;
      }
    }

    private void runPlain() throws IOException {
      try (SocketChannel ch = SocketChannel.open()) {
        channel = ch;
        if (aborted) {
          return;
        }
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        ch.socket().connect(source, (int) options.connectTimeout().toMillis());
        try (StallWatch watch = StallWatch.on(ch, options.idleTimeout())) {
          try {
            members.prove(ch, source);
          } catch (MemberHandshake.Refused busy) {
            throw new SegmentRefusedException(busy.getMessage());
          } catch (IOException e) {
            throw watch.explain(e);
          }
          pullAll(ch, ch, null, watch);
        }
      }
    }

    /** TLS, then the member handshake inside it (both in {@link MemberConnector#open}), then the requests. */
    private void runTls() throws IOException {
      MemberConnector.Connected c;
      try {
        c = members.open(source, (int) options.connectTimeout().toMillis());
      } catch (MemberHandshake.Refused busy) {
        throw new SegmentRefusedException(busy.getMessage());
      }
      try (java.net.Socket tcp = c.tcp(); StallWatch watch = StallWatch.on(tcp, options.idleTimeout())) {
        channel = tcp;
        if (aborted) {
          return;
        }
        pullAll(Channels.newChannel(c.in()), new FlushingChannel(c.out(), tcp), c.in(), watch);
      }
    }

    /** Fetches files from the queue over one connection ({@code stream}: read file bytes from it, TLS). */
    private void pullAll(ReadableByteChannel in, WritableByteChannel out, InputStream stream, StallWatch watch)
        throws IOException {
      watch.progress();
      Segment s;
      while (!aborted && (s = queue.poll()) != null) {
        try {
          fetchOne(in, out, stream, watch, s);
        } catch (IOException e) {
          throw watch.explain(e);
        }
      }
    }

    /** Breaks the stream at once; what it received so far stays in its partial file. */
    void abort() {
      aborted = true;
      java.io.Closeable ch = channel;
      if (ch != null) {
        try {
          ch.close();
        } catch (IOException ignored) {
          // closing is the point
        }
      }
    }

    private void fetchOne(ReadableByteChannel ch, WritableByteChannel request, InputStream stream, StallWatch watch,
        Segment s) throws IOException {
      String name = s.fileName();
      Path part = dir.resolve(name + "." + s.length() + ".part");
      try (FileChannel out = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
        long position = out.size();
        if (position > s.length()) {
          out.truncate(0);
          position = 0;
        }
        SegmentProtocol.writeRequest(request, region, name, position);
        long length = SegmentProtocol.readReply(ch);
        if (length != s.length()) {
          throw new SegmentRefusedException(name + " of " + region + " has " + length + " bytes at the source, the manifest says "
              + s.length());
        }
        watch.progress();
        byte[] buffer = stream == null ? null : new byte[TLS_READ_BUFFER];
        while (position < length) {
          long got = buffer == null ? out.transferFrom(ch, position, Math.min(CHUNK, length - position))
              : copy(stream, buffer, out, position, length - position);
          if (got <= 0) {
            throw new EOFException("stream ended at byte " + position + " of " + name + " (" + length + " bytes)");
          }
          position += got;
          bytes += got;
          watch.progress();
        }
        out.force(true);
      }
      Files.move(part, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      files++;
    }
  }

  /** Requests over a buffered TLS stream: each frame is flushed as written, since a reply is awaited next. */
  private static final class FlushingChannel implements WritableByteChannel {
    private final java.io.OutputStream out;
    private final java.net.Socket tcp;

    FlushingChannel(java.io.OutputStream out, java.net.Socket tcp) {
      this.out = out;
      this.tcp = tcp;
    }

    @Override
    public int write(java.nio.ByteBuffer src) throws IOException {
      byte[] bytes = new byte[src.remaining()];
      src.get(bytes);
      out.write(bytes);
      out.flush();
      return bytes.length;
    }

    @Override
    public boolean isOpen() {
      return !tcp.isClosed();
    }

    @Override
    public void close() throws IOException {
      tcp.close();
    }
  }

  /** One read of up to {@code max} bytes from a TLS stream into the file at {@code position}; -1 at the end. */
  private static long copy(InputStream in, byte[] buffer, FileChannel file, long position, long max) throws IOException {
    int n = in.read(buffer, 0, (int) Math.min(buffer.length, max));
    if (n > 0) {
      java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(buffer, 0, n);
      for (long at = position; b.hasRemaining(); ) {
        at += file.write(b, at);
      }
    }
    return n;
  }

  private static void syncDirectory(Path dir) throws IOException {
    // Makes the renames durable; Linux allows fsync on a directory opened for reading.
    try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
      d.force(true);
    }
  }
}
