package io.basalt.storage.cell;

import java.io.ByteArrayOutputStream;
import java.util.Arrays;

/**
 * Encodes a cell's coordinates into one B+-tree key whose plain unsigned byte order is HBase's cell order
 * within a family: row ascending, family markers first, then qualifier ascending, timestamp descending,
 * and at equal timestamp delete markers before puts. The family is not in the key: each family is its own
 * JE database.
 *
 * <pre>
 * key        = esc(row) 00 01  slot  reversedTs(8, big-endian)  typeByte(1)
 * slot       = 00 00                      for family markers (DeleteFamily, DeleteFamilyVersion)
 *            | esc(qualifier) 00 01       for column cells (Put, Delete, DeleteColumn); qualifier may be empty
 * esc(x)     = x with every 00 byte written as 00 FF
 * reversedTs = Long.MAX_VALUE - timestamp   (timestamps are never negative, so this sorts newest first)
 * typeByte   = 0xFF - HBase type code       (DeleteFamily 0xF1 &lt; DeleteColumn 0xF3 &lt; DFV 0xF5 &lt; Delete 0xF7 &lt; Put 0xFB)
 * </pre>
 *
 * Why escaping instead of HBase's length-prefixed layout: a length prefix would sort rows by length under
 * JE's default byte comparator. The terminator {@code 00 01} sorts below any escaped byte ({@code 00 FF} or
 * non-zero), so a shorter string sorts before its extensions, exactly like the unescaped bytes. Rows and
 * qualifiers lead the key, so JE's key prefixing stores the shared row prefix once per B+-tree node.
 */
public final class CellKeyCodec {
  private static final byte ESCAPE = 0x00;
  private static final byte ESCAPED_ZERO = (byte) 0xFF;
  private static final byte TERMINATOR = 0x01;
  private static final byte FAMILY_SLOT = 0x00;
  /** Byte after the terminator that sorts after every key of the same prefix. */
  private static final byte PAST_TERMINATOR = 0x02;

  private CellKeyCodec() {}

  /** A decoded key. {@code qualifier} is null for family markers. */
  public record Key(byte[] row, byte[] qualifier, long timestamp, CellType type) {
    public boolean isFamilyMarker() {
      return qualifier == null;
    }
  }

  public static byte[] encode(byte[] row, byte[] qualifier, long timestamp, CellType type) {
    if (timestamp < 0) {
      throw new IllegalArgumentException("negative timestamp " + timestamp);
    }
    boolean marker = type.isFamilyMarker();
    // Every write encodes a key: fill an exactly sized array rather than a (synchronized) stream.
    byte[] out = new byte[escapedLength(row) + 2 + (marker ? 2 : escapedLength(qualifier) + 2) + 9];
    int p = escapeInto(out, 0, row);
    out[p++] = ESCAPE;
    out[p++] = TERMINATOR;
    if (marker) {
      out[p++] = ESCAPE;
      out[p++] = FAMILY_SLOT;
    } else {
      p = escapeInto(out, p, qualifier);
      out[p++] = ESCAPE;
      out[p++] = TERMINATOR;
    }
    long reversed = Long.MAX_VALUE - timestamp;
    for (int shift = 56; shift >= 0; shift -= 8) {
      out[p++] = (byte) (reversed >>> shift);
    }
    out[p] = (byte) (0xFF - type.code());
    return out;
  }

  private static int escapedLength(byte[] b) {
    int n = b.length;
    for (byte x : b) {
      if (x == ESCAPE) {
        n++;
      }
    }
    return n;
  }

  private static int escapeInto(byte[] out, int p, byte[] b) {
    for (byte x : b) {
      out[p++] = x;
      if (x == ESCAPE) {
        out[p++] = ESCAPED_ZERO;
      }
    }
    return p;
  }

  public static byte[] encode(Cell cell) {
    return encode(cell.row(), cell.type().isFamilyMarker() ? null : cell.qualifier(), cell.timestamp(), cell.type());
  }

  public static Key decode(byte[] key) {
    int[] pos = {0};
    byte[] row = unescape(key, pos);
    return decodeAfterRow(key, row, pos);
  }

  /**
   * {@link #decode} of a key known to start with {@code rowPrefix}, the {@link #rowPrefix} of {@code row}: the
   * row is not unescaped and copied again (a scan decodes every key of every row it reads).
   */
  public static Key decodeInRow(byte[] key, byte[] row, byte[] rowPrefix) {
    return decodeAfterRow(key, row, new int[] {rowPrefix.length});
  }

  private static Key decodeAfterRow(byte[] key, byte[] row, int[] pos) {
    byte[] qualifier;
    if (key[pos[0]] == ESCAPE && key[pos[0] + 1] == FAMILY_SLOT) {
      qualifier = null;
      pos[0] += 2;
    } else {
      qualifier = unescape(key, pos);
    }
    int p = pos[0];
    long reversed = 0;
    for (int i = 0; i < 8; i++) {
      reversed = (reversed << 8) | (key[p + i] & 0xFF);
    }
    CellType type = CellType.fromCode(0xFF - (key[p + 8] & 0xFF));
    return new Key(row, qualifier, Long.MAX_VALUE - reversed, type);
  }

  /** Only the type of an encoded key (its last byte), without decoding the rest. */
  public static CellType typeOf(byte[] key) {
    return CellType.fromCode(0xFF - (key[key.length - 1] & 0xFF));
  }

  /** Only the timestamp of an encoded cell key (the 8 bytes before its type), without decoding the rest. */
  public static long timestampOf(byte[] key) {
    int p = key.length - 9;
    long reversed = 0;
    for (int i = 0; i < 8; i++) {
      reversed = (reversed << 8) | (key[p + i] & 0xFF);
    }
    return Long.MAX_VALUE - reversed;
  }

  /** The length of an encoded key's {@link #rowPrefixOf}, without copying it. */
  public static int rowPrefixLength(byte[] key) {
    int p = 0;
    while (!(key[p] == ESCAPE && key[p + 1] == TERMINATOR)) {
      p += key[p] == ESCAPE ? 2 : 1;
    }
    return p + 2;
  }

  /**
   * The length of {@code key}'s row prefix if it has one (it is a row prefix, or extends one: a cell key, a column
   * prefix), else -1 (a {@link #rowEnd}, a truncated or foreign key). Never reads past the key.
   */
  public static int safeRowPrefixLength(byte[] key) {
    int p = 0;
    while (p + 1 < key.length) {
      if (key[p] != ESCAPE) {
        p++;
      } else if (key[p + 1] == TERMINATOR) {
        return p + 2;
      } else if (key[p + 1] == ESCAPED_ZERO) {
        p += 2;
      } else {
        return -1;
      }
    }
    return -1;
  }

  /** Whether {@code key} is a {@link #rowEnd}: above every key of its row, below every key of any later row. */
  public static boolean isRowEnd(byte[] key) {
    int p = 0;
    while (p + 1 < key.length) {
      if (key[p] != ESCAPE) {
        p++;
      } else if (key[p + 1] == ESCAPED_ZERO) {
        p += 2;
      } else {
        return key[p + 1] == PAST_TERMINATOR && p + 2 == key.length;
      }
    }
    return false;
  }

  /** Whether {@code key} starts with the first {@code length} bytes of {@code other}. */
  public static boolean sharesPrefix(byte[] key, byte[] other, int length) {
    return key.length >= length && Arrays.equals(key, 0, length, other, 0, length);
  }

  /** Only the row of an encoded key. */
  public static byte[] decodeRow(byte[] key) {
    return unescape(key, new int[] {0});
  }

  /** Smallest key of a row: every key of {@code row} starts with it. */
  public static byte[] rowPrefix(byte[] row) {
    byte[] out = new byte[escapedLength(row) + 2];
    int p = escapeInto(out, 0, row);
    out[p++] = ESCAPE;
    out[p] = TERMINATOR;
    return out;
  }

  /** A key above every key of {@code row} and below every key of any greater row. */
  public static byte[] rowEnd(byte[] row) {
    byte[] p = rowPrefix(row);
    p[p.length - 1] = PAST_TERMINATOR;
    return p;
  }

  /** Prefix of all family-marker keys of a row. */
  public static byte[] familyMarkerPrefix(byte[] row) {
    byte[] p = rowPrefix(row);
    byte[] r = Arrays.copyOf(p, p.length + 2);
    r[p.length] = ESCAPE;
    r[p.length + 1] = FAMILY_SLOT;
    return r;
  }

  /** Prefix of all keys of one column of a row. */
  public static byte[] columnPrefix(byte[] row, byte[] qualifier) {
    byte[] out = new byte[escapedLength(row) + escapedLength(qualifier) + 4];
    int p = escapeInto(out, 0, row);
    out[p++] = ESCAPE;
    out[p++] = TERMINATOR;
    p = escapeInto(out, p, qualifier);
    out[p++] = ESCAPE;
    out[p] = TERMINATOR;
    return out;
  }

  /** The {@link #rowPrefix} of an encoded key: its escaped row and the terminator after it. */
  public static byte[] rowPrefixOf(byte[] key) {
    return Arrays.copyOf(key, rowPrefixLength(key));
  }

  /** The {@link #columnPrefix} of a column cell's encoded key: the key without its timestamp and type. */
  public static byte[] columnPrefixOf(byte[] key) {
    return Arrays.copyOf(key, key.length - 9);
  }

  /** A key above every key of the column and below every key of the next column. */
  public static byte[] columnEnd(byte[] row, byte[] qualifier) {
    byte[] p = columnPrefix(row, qualifier);
    p[p.length - 1] = PAST_TERMINATOR;
    return p;
  }

  /** Seek key for a column starting at a given timestamp (newest first, so later keys are older). */
  public static byte[] columnAt(byte[] row, byte[] qualifier, long timestamp) {
    byte[] p = columnPrefix(row, qualifier);
    byte[] r = Arrays.copyOf(p, p.length + 8);
    long reversed = Long.MAX_VALUE - timestamp;
    for (int i = 0; i < 8; i++) {
      r[p.length + i] = (byte) (reversed >>> (56 - 8 * i));
    }
    return r;
  }

  public static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  private static byte[] unescape(byte[] key, int[] pos) {
    ByteArrayOutputStream out = null;
    int p = pos[0];
    int start = p;
    while (true) {
      byte b = key[p];
      if (b == ESCAPE) {
        byte next = key[p + 1];
        if (next == TERMINATOR) {
          byte[] r = out == null ? Arrays.copyOfRange(key, start, p) : appendRange(out, key, start, p);
          pos[0] = p + 2;
          return r;
        }
        if (next != ESCAPED_ZERO) {
          throw new IllegalArgumentException("corrupt cell key at byte " + p);
        }
        if (out == null) {
          out = new ByteArrayOutputStream();
        }
        out.write(key, start, p - start + 1);
        p += 2;
        start = p;
      } else {
        p++;
      }
    }
  }

  private static byte[] appendRange(ByteArrayOutputStream out, byte[] key, int from, int to) {
    out.write(key, from, to - from);
    return out.toByteArray();
  }
}
