package io.basalt.server.bulk;

import io.basalt.storage.cell.Cell;
import io.basalt.storage.mutation.RowMutation;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.PriorityQueue;

/**
 * The parsed rows of the whole input in row order (an external merge sort): rows are kept compactly in an arena
 * (about the input's size, not objects per cell), each full arena sorted and spilled to a temporary file as a run,
 * and the runs merged when the input ends. Sorting is stable and the merge prefers earlier runs, so the lines of
 * one row keep their input order (the last line's cell wins, as with ImportTsv).
 *
 * <p>Why sort the whole input: a region's B+-tree takes keys in order far faster than at random, because each
 * leaf is then fetched and written once instead of once per cell when the tree outgrows the cache.
 */
final class SortedRuns implements AutoCloseable {
  private final List<byte[]> families;
  private final long runBytes;
  private final Path tmpParent;
  private Path tmpDir;
  private byte[] arena = new byte[1 << 20];
  private int used;
  private int[] offsets = new int[1 << 12];
  private int count;
  private final List<Path> runs = new ArrayList<>();
  private long spilledBytes;

  /** {@code runBytes}: the arena's size before it is sorted and spilled (the memory the sort takes). */
  SortedRuns(List<byte[]> families, long runBytes, Path tmpParent) {
    this.families = families;
    this.runBytes = Math.max(1 << 16, Math.min(runBytes, 1L << 30));
    this.tmpParent = tmpParent;
  }

  /** Bytes written to temporary runs so far. */
  long spilledBytes() {
    return spilledBytes;
  }

  void add(RowMutation m) throws IOException {
    int size = 8 + m.row().length;
    for (Cell c : m.cells()) {
      size += 1 + 4 + c.qualifier().length + 8 + 4 + c.value().length;
    }
    if (used + size > arena.length) {
      arena = Arrays.copyOf(arena, (int) Math.min(Integer.MAX_VALUE - 8, Math.max((long) arena.length * 2, used + size)));
    }
    if (count == offsets.length) {
      offsets = Arrays.copyOf(offsets, count * 2);
    }
    offsets[count++] = used;
    ByteBuffer b = ByteBuffer.wrap(arena, used, size);
    b.putInt(m.row().length).put(m.row()).putInt(m.cells().size());
    for (Cell c : m.cells()) {
      b.put((byte) familyIndex(c.family())).putInt(c.qualifier().length).put(c.qualifier()).putLong(c.timestamp())
          .putInt(c.value().length).put(c.value());
    }
    used += size;
    if (used >= runBytes) {
      spill();
    }
  }

  /** The rows in order; call once, after the last {@link #add}. */
  Iterator<RowMutation> sorted() throws IOException {
    if (runs.isEmpty()) {
      Integer[] order = sortedOffsets();
      byte[] data = arena;
      return new Iterator<>() {
        private int next;

        @Override
        public boolean hasNext() {
          return next < order.length;
        }

        @Override
        public RowMutation next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          return decode(ByteBuffer.wrap(data, order[next++], data.length - order[next - 1]));
        }
      };
    }
    spill();
    return new Merge();
  }

  private Integer[] sortedOffsets() {
    Integer[] order = new Integer[count];
    for (int i = 0; i < count; i++) {
      order[i] = offsets[i];
    }
    byte[] data = arena;
    Comparator<Integer> byRow = (a, b) -> {
      int la = ByteBuffer.wrap(data, a, 4).getInt();
      int lb = ByteBuffer.wrap(data, b, 4).getInt();
      return Arrays.compareUnsigned(data, a + 4, a + 4 + la, data, b + 4, b + 4 + lb);
    };
    Arrays.sort(order, byRow); // stable: equal rows keep their input order
    return order;
  }

  private void spill() throws IOException {
    if (count == 0) {
      return;
    }
    if (tmpDir == null) {
      tmpDir = Files.createTempDirectory(tmpParent, "basalt-import-");
    }
    Integer[] order = sortedOffsets();
    Path run = tmpDir.resolve("run-" + runs.size());
    try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(run), 1 << 20))) {
      for (int i = 0; i < order.length; i++) {
        int start = order[i];
        out.write(arena, start, recordLength(start));
      }
    }
    spilledBytes += used;
    runs.add(run);
    used = 0;
    count = 0;
    if (arena.length > runBytes * 2) {
      arena = new byte[(int) runBytes];
    }
  }

  private int recordLength(int start) {
    ByteBuffer b = ByteBuffer.wrap(arena, start, arena.length - start);
    skip(b); // the row
    int cells = b.getInt();
    for (int c = 0; c < cells; c++) {
      b.get();
      skip(b);
      b.getLong();
      skip(b);
    }
    return b.position() - start;
  }

  /** Skips a length-prefixed field. */
  private static void skip(ByteBuffer b) {
    int length = b.getInt();
    b.position(b.position() + length);
  }

  private RowMutation decode(ByteBuffer b) {
    byte[] row = new byte[b.getInt()];
    b.get(row);
    RowMutation.Builder m = RowMutation.of(row);
    int cells = b.getInt();
    for (int c = 0; c < cells; c++) {
      byte[] family = families.get(b.get());
      byte[] qualifier = new byte[b.getInt()];
      b.get(qualifier);
      long ts = b.getLong();
      byte[] value = new byte[b.getInt()];
      b.get(value);
      m.put(family, qualifier, ts, value);
    }
    return m.build();
  }

  private int familyIndex(byte[] family) {
    for (int i = 0; i < families.size(); i++) {
      if (Arrays.equals(families.get(i), family)) {
        return i;
      }
    }
    throw new IllegalArgumentException("family " + new String(family, java.nio.charset.StandardCharsets.UTF_8)
        + " not among the import's columns");
  }

  /** A k-way merge of the spilled runs; ties go to the earlier run (earlier input). */
  private final class Merge implements Iterator<RowMutation> {
    private final PriorityQueue<RunReader> heads = new PriorityQueue<>((a, b) -> {
      int c = Arrays.compareUnsigned(a.head.row(), b.head.row());
      return c != 0 ? c : Integer.compare(a.index, b.index);
    });

    Merge() throws IOException {
      for (int i = 0; i < runs.size(); i++) {
        RunReader r = new RunReader(runs.get(i), i);
        if (r.advance()) {
          heads.add(r);
        }
      }
    }

    @Override
    public boolean hasNext() {
      return !heads.isEmpty();
    }

    @Override
    public RowMutation next() {
      RunReader r = heads.poll();
      if (r == null) {
        throw new NoSuchElementException();
      }
      RowMutation out = r.head;
      try {
        if (r.advance()) {
          heads.add(r);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return out;
    }
  }

  private final class RunReader {
    private final DataInputStream in;
    private final int index;
    private RowMutation head;

    RunReader(Path file, int index) throws IOException {
      this.in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 18));
      this.index = index;
    }

    boolean advance() throws IOException {
      int rowLength;
      try {
        rowLength = in.readInt();
      } catch (EOFException e) {
        in.close();
        head = null;
        return false;
      }
      byte[] row = new byte[rowLength];
      in.readFully(row);
      RowMutation.Builder m = RowMutation.of(row);
      int cells = in.readInt();
      for (int c = 0; c < cells; c++) {
        byte[] family = families.get(in.readByte());
        byte[] qualifier = new byte[in.readInt()];
        in.readFully(qualifier);
        long ts = in.readLong();
        byte[] value = new byte[in.readInt()];
        in.readFully(value);
        m.put(family, qualifier, ts, value);
      }
      head = m.build();
      return true;
    }
  }

  /** Deletes the temporary runs. */
  @Override
  public void close() throws IOException {
    if (tmpDir != null) {
      try (var files = Files.list(tmpDir)) {
        for (Path p : (Iterable<Path>) files::iterator) {
          Files.deleteIfExists(p);
        }
      }
      Files.deleteIfExists(tmpDir);
    }
  }
}
