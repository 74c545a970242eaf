package io.basalt.storage.je;

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
  private int size;
  private byte[][] suffixBuf;
  private int[] suffixOff;
  private int[] suffixLen;
  private byte[][] valueBuf;
  private int[] valueOff;
  private int[] valueLen;

  private RowChunk(byte[] recordKey, byte[] rowPrefix, boolean more, int capacity) {
    this.recordKey = recordKey;
    this.rowPrefix = rowPrefix;
    this.more = more;
    int c = Math.max(capacity, 4);
    suffixBuf = new byte[c][];
    suffixOff = new int[c];
    suffixLen = new int[c];
    valueBuf = new byte[c][];
    valueOff = new int[c];
    valueLen = new int[c];
  }

  /** A chunk to be stored under {@code rowPrefix}, the row's first. */
  static RowChunk empty(byte[] rowPrefix, boolean more) {
    return new RowChunk(null, rowPrefix, more, 4);
  }

  static RowChunk decode(byte[] key, byte[] data) {
    int rowPrefixLength = io.basalt.storage.cell.CellKeyCodec.rowPrefixLength(key);
    byte[] rowPrefix = rowPrefixLength == key.length ? key : Arrays.copyOf(key, rowPrefixLength);
    int[] p = {1};
    int n = readVarint(data, p);
    RowChunk c = new RowChunk(key, rowPrefix, (data[0] & MORE) != 0, n);
    for (int i = 0; i < n; i++) {
      int sl = readVarint(data, p);
      c.suffixBuf[i] = data;
      c.suffixOff[i] = p[0];
      c.suffixLen[i] = sl;
      p[0] += sl;
      int vl = readVarint(data, p);
      c.valueBuf[i] = data;
      c.valueOff[i] = p[0];
      c.valueLen[i] = vl;
      p[0] += vl;
    }
    if (p[0] != data.length) {
      throw new IllegalStateException("corrupt row record: " + (data.length - p[0]) + " bytes after its cells");
    }
    c.size = n;
    return c;
  }

  /** The number of cells in a stored chunk, from its first bytes (see {@link CellLayout#countCells}). */
  static int countOf(byte[] data) {
    return readVarint(data, new int[] {1});
  }

  int size() {
    return size;
  }

  /** The full cell key of cell {@code i} (a new array). */
  byte[] key(int i) {
    byte[] k = Arrays.copyOf(rowPrefix, rowPrefix.length + suffixLen[i]);
    System.arraycopy(suffixBuf[i], suffixOff[i], k, rowPrefix.length, suffixLen[i]);
    return k;
  }

  /** The value of cell {@code i} (a new array). */
  byte[] value(int i) {
    return Arrays.copyOfRange(valueBuf[i], valueOff[i], valueOff[i] + valueLen[i]);
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
      if (Arrays.compareUnsigned(suffixBuf[mid], suffixOff[mid], suffixOff[mid] + suffixLen[mid], key, rp, key.length)
          < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Whether cell {@code i}'s key is {@code key}, a key of this row. */
  boolean keyEquals(int i, byte[] key) {
    int rp = rowPrefix.length;
    return i < size && key.length == rp + suffixLen[i]
        && Arrays.equals(suffixBuf[i], suffixOff[i], suffixOff[i] + suffixLen[i], key, rp, key.length);
  }

  /** Stores {@code value} (kept, not copied) for {@code key}, a key of this row, at index {@code i} from {@link #find}. */
  void put(int i, byte[] key, byte[] value) {
    if (!keyEquals(i, key)) {
      grow();
      shift(i, i + 1, size - i);
      size++;
      suffixBuf[i] = key;
      suffixOff[i] = rowPrefix.length;
      suffixLen[i] = key.length - rowPrefix.length;
    }
    valueBuf[i] = value;
    valueOff[i] = 0;
    valueLen[i] = value.length;
  }

  void remove(int i) {
    shift(i + 1, i, size - i - 1);
    size--;
    suffixBuf[size] = null;
    valueBuf[size] = null;
  }

  private void grow() {
    if (size < suffixBuf.length) {
      return;
    }
    int c = suffixBuf.length * 2;
    suffixBuf = Arrays.copyOf(suffixBuf, c);
    suffixOff = Arrays.copyOf(suffixOff, c);
    suffixLen = Arrays.copyOf(suffixLen, c);
    valueBuf = Arrays.copyOf(valueBuf, c);
    valueOff = Arrays.copyOf(valueOff, c);
    valueLen = Arrays.copyOf(valueLen, c);
  }

  private void shift(int from, int to, int n) {
    System.arraycopy(suffixBuf, from, suffixBuf, to, n);
    System.arraycopy(suffixOff, from, suffixOff, to, n);
    System.arraycopy(suffixLen, from, suffixLen, to, n);
    System.arraycopy(valueBuf, from, valueBuf, to, n);
    System.arraycopy(valueOff, from, valueOff, to, n);
    System.arraycopy(valueLen, from, valueLen, to, n);
  }

  /**
   * Where to cut the cells into records of about {@code maxBytes} each: the first index of every piece after the
   * first (a cell larger than {@code maxBytes} is a piece of its own). Empty when the chunk fits one record.
   */
  int[] cuts(int maxBytes) {
    int[] cuts = new int[0];
    long bytes = 0;
    for (int i = 0; i < size; i++) {
      long cell = varintLength(suffixLen[i]) + suffixLen[i] + varintLength(valueLen[i]) + (long) valueLen[i];
      if (bytes > 0 && bytes + cell > maxBytes) {
        cuts = Arrays.copyOf(cuts, cuts.length + 1);
        cuts[cuts.length - 1] = i;
        bytes = 0;
      }
      bytes += cell;
    }
    return cuts;
  }

  /** The record value of cells {@code [from, to)}. */
  byte[] encode(int from, int to, boolean moreFollow) {
    int length = 1 + varintLength(to - from);
    for (int i = from; i < to; i++) {
      length += varintLength(suffixLen[i]) + suffixLen[i] + varintLength(valueLen[i]) + valueLen[i];
    }
    byte[] out = new byte[length];
    out[0] = (byte) (moreFollow ? MORE : 0);
    int p = writeVarint(out, 1, to - from);
    for (int i = from; i < to; i++) {
      p = writeVarint(out, p, suffixLen[i]);
      System.arraycopy(suffixBuf[i], suffixOff[i], out, p, suffixLen[i]);
      p += suffixLen[i];
      p = writeVarint(out, p, valueLen[i]);
      System.arraycopy(valueBuf[i], valueOff[i], out, p, valueLen[i]);
      p += valueLen[i];
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

  private static int readVarint(byte[] in, int[] pos) {
    int p = pos[0];
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
    pos[0] = p;
    return v;
  }
}
