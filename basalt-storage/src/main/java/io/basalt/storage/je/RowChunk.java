package io.basalt.storage.je;

import io.basalt.storage.cell.Cell;
import io.basalt.storage.cell.CellType;
import java.util.Arrays;

/**
 * The cells of one row of one family that share one JE record in {@link CellLayout#ROW_RECORDS} (a chunk of the
 * row: a row over {@link RowRecordCursor#CHUNK_BYTES} takes several), decoded for a {@link RowRecordCursor}.
 *
 * <pre>
 * record key = rowPrefix                      the row's first chunk: CellKeyCodec.rowPrefix(row)
 *            | cell key of its first cell     a later chunk of the same row (at most the key of its first cell)
 * value      = flags(1) count(varint) cell*   cells in cell-key order
 * flags      = bit 0: a later chunk of the same row may follow (never clear when one does)
 * cell       = suffixLength(varint) suffix valueLength(varint) value
 * suffix     = the cell key without the row prefix: qualifier slot, reversed timestamp, type (see CellKeyCodec)
 * varint     = unsigned LEB128, 7 bits a byte, low first
 * </pre>
 *
 * A chunk never spans rows, so the records of a range of rows are the records with keys in that range of row
 * prefixes, as cell records were: splits, merges and the range collector move records without decoding them.
 * Cells point into the record's bytes until changed, so a read copies only what it returns.
 */
final class RowChunk {
  static final int MORE = 1;

  /** The record's key; null for a chunk not yet stored. */
  final byte[] recordKey;
  final byte[] rowPrefix;
  /** Whether a later chunk of the row may follow this one. */
  final boolean more;
  /** The record's bytes, which the cells point into until changed (null for a new chunk). */
  private final byte[] data;
  private int size;
  /** Per cell: suffix offset, suffix length, value offset, value length. One array: a read allocates little. */
  private int[] at;
  /** Per cell, once the chunk changes: the arrays its suffix and value are in (null: both in {@link #data}). */
  private byte[][] bufs;

  private RowChunk(byte[] recordKey, byte[] rowPrefix, boolean more, byte[] data, int capacity) {
    this.recordKey = recordKey;
    this.rowPrefix = rowPrefix;
    this.more = more;
    this.data = data;
    this.at = new int[4 * Math.max(capacity, 1)];
  }

  /** A chunk to be stored under {@code rowPrefix}, the row's first. */
  static RowChunk empty(byte[] rowPrefix, boolean more) {
    RowChunk c = new RowChunk(null, rowPrefix, more, null, 4);
    c.bufs = new byte[8][];
    return c;
  }

  static RowChunk decode(byte[] key, byte[] data) {
    int rowPrefixLength = io.basalt.storage.cell.CellKeyCodec.rowPrefixLength(key);
    byte[] rowPrefix = rowPrefixLength == key.length ? key : Arrays.copyOf(key, rowPrefixLength);
    long v = readVarint(data, 1);
    int n = (int) v;
    int p = (int) (v >>> 32);
    RowChunk c = new RowChunk(key, rowPrefix, (data[0] & MORE) != 0, data, n);
    int[] at = c.at;
    for (int i = 0; i < n; i++) {
      v = readVarint(data, p);
      at[4 * i] = (int) (v >>> 32);
      at[4 * i + 1] = (int) v;
      p = at[4 * i] + (int) v;
      v = readVarint(data, p);
      at[4 * i + 2] = (int) (v >>> 32);
      at[4 * i + 3] = (int) v;
      p = at[4 * i + 2] + (int) v;
    }
    if (p != data.length) {
      throw new IllegalStateException("corrupt row record: " + (data.length - p) + " bytes after its cells");
    }
    c.size = n;
    return c;
  }

  /** The number of cells in a stored chunk, from its first bytes (see {@link CellLayout#countCells}). */
  static int countOf(byte[] data) {
    return (int) readVarint(data, 1);
  }

  int size() {
    return size;
  }

  private byte[] suffixBuf(int i) {
    return bufs == null ? data : bufs[2 * i];
  }

  private byte[] valueBuf(int i) {
    return bufs == null ? data : bufs[2 * i + 1];
  }

  /** The full cell key of cell {@code i} (a new array). */
  byte[] key(int i) {
    int sl = at[4 * i + 1];
    byte[] k = Arrays.copyOf(rowPrefix, rowPrefix.length + sl);
    System.arraycopy(suffixBuf(i), at[4 * i], k, rowPrefix.length, sl);
    return k;
  }

  /** The value of cell {@code i} (a new array). */
  byte[] value(int i) {
    int off = at[4 * i + 2];
    return Arrays.copyOfRange(valueBuf(i), off, off + at[4 * i + 3]);
  }

  /** Cell {@code i} with the given coordinates, its value a slice of this chunk's bytes (not copied). */
  Cell cell(int i, byte[] row, byte[] family, byte[] qualifier, long timestamp, CellType type) {
    return new Cell(row, family, qualifier, timestamp, type, valueBuf(i), at[4 * i + 2], at[4 * i + 3]);
  }

  private int compareSuffix(int i, byte[] key, int from) {
    int off = at[4 * i];
    return Arrays.compareUnsigned(suffixBuf(i), off, off + at[4 * i + 1], key, from, key.length);
  }

  /**
   * The index of the first cell whose key is at or after {@code key} ({@link #size} if none). {@code key} need not
   * be of this row.
   */
  int find(byte[] key) {
    int rp = rowPrefix.length;
    int m = Math.min(rp, key.length);
    int c = Arrays.compareUnsigned(rowPrefix, 0, m, key, 0, m);
    if (c != 0) {
      return c > 0 ? 0 : size;
    }
    if (key.length <= rp) {
      return 0; // every cell key extends the row prefix
    }
    int lo = 0;
    int hi = size;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (compareSuffix(mid, key, rp) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Whether cell {@code i}'s key is {@code key}, a key of this row. */
  boolean keyEquals(int i, byte[] key) {
    return i < size && key.length == rowPrefix.length + at[4 * i + 1] && compareSuffix(i, key, rowPrefix.length) == 0;
  }

  /**
   * Stores {@code length} bytes of {@code value} from {@code offset} (kept, not copied) for {@code key}, a key of
   * this row, at index {@code i} from {@link #find}.
   */
  void put(int i, byte[] key, byte[] value, int offset, int length) {
    editable();
    if (!keyEquals(i, key)) {
      grow();
      shift(i, i + 1, size - i);
      size++;
      bufs[2 * i] = key;
      at[4 * i] = rowPrefix.length;
      at[4 * i + 1] = key.length - rowPrefix.length;
    }
    bufs[2 * i + 1] = value;
    at[4 * i + 2] = offset;
    at[4 * i + 3] = length;
  }

  void remove(int i) {
    editable();
    shift(i + 1, i, size - i - 1);
    size--;
    bufs[2 * size] = null;
    bufs[2 * size + 1] = null;
  }

  /** A chunk that changes keeps each cell's arrays apart: new cells are not in the record's bytes. */
  private void editable() {
    if (bufs == null) {
      bufs = new byte[at.length / 2][];
      Arrays.fill(bufs, 0, 2 * size, data);
    }
  }

  private void grow() {
    if (4 * size < at.length) {
      return;
    }
    at = Arrays.copyOf(at, Math.max(at.length * 2, 16));
    bufs = Arrays.copyOf(bufs, at.length / 2);
  }

  private void shift(int from, int to, int n) {
    System.arraycopy(at, 4 * from, at, 4 * to, 4 * n);
    System.arraycopy(bufs, 2 * from, bufs, 2 * to, 2 * n);
  }

  /**
   * Where to cut the cells into records of about {@code maxBytes} each: the first index of every piece after the
   * first (a cell larger than {@code maxBytes} is a piece of its own). Empty when the chunk fits one record.
   */
  int[] cuts(int maxBytes) {
    int[] cuts = new int[0];
    long bytes = 0;
    for (int i = 0; i < size; i++) {
      long cell = encodedLength(i);
      if (bytes > 0 && bytes + cell > maxBytes) {
        cuts = Arrays.copyOf(cuts, cuts.length + 1);
        cuts[cuts.length - 1] = i;
        bytes = 0;
      }
      bytes += cell;
    }
    return cuts;
  }

  private int encodedLength(int i) {
    int sl = at[4 * i + 1];
    int vl = at[4 * i + 3];
    return varintLength(sl) + sl + varintLength(vl) + vl;
  }

  /** The record value of cells {@code [from, to)}. */
  byte[] encode(int from, int to, boolean moreFollow) {
    int length = 1 + varintLength(to - from);
    for (int i = from; i < to; i++) {
      length += encodedLength(i);
    }
    byte[] out = new byte[length];
    out[0] = (byte) (moreFollow ? MORE : 0);
    int p = writeVarint(out, 1, to - from);
    for (int i = from; i < to; i++) {
      int sl = at[4 * i + 1];
      p = writeVarint(out, p, sl);
      System.arraycopy(suffixBuf(i), at[4 * i], out, p, sl);
      p += sl;
      int vl = at[4 * i + 3];
      p = writeVarint(out, p, vl);
      System.arraycopy(valueBuf(i), at[4 * i + 2], out, p, vl);
      p += vl;
    }
    return out;
  }

  private static int varintLength(int v) {
    int n = 1;
    while ((v >>>= 7) != 0) {
      n++;
    }
    return n;
  }

  private static int writeVarint(byte[] out, int p, int v) {
    while ((v & ~0x7F) != 0) {
      out[p++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    out[p++] = (byte) v;
    return p;
  }

  /** The varint at {@code p}: its value in the low 32 bits, the position after it in the high 32. */
  private static long readVarint(byte[] in, int p) {
    int v = 0;
    for (int shift = 0; ; shift += 7) {
      byte b = in[p++];
      v |= (b & 0x7F) << shift;
      if (b >= 0) {
        break;
      }
      if (shift > 28) {
        throw new IllegalStateException("corrupt row record: varint too long");
      }
    }
    return ((long) p << 32) | (v & 0xFFFFFFFFL);
  }
}
