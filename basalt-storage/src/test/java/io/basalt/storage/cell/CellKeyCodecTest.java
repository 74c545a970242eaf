package io.basalt.storage.cell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CellKeyCodecTest {
  private static final CellType[] TYPES = CellType.values();

  /** HBase's order within one family: row, qualifier (family markers have the empty one), ts desc, type code desc. */
  private static final Comparator<Cell> HBASE_ORDER = (a, b) -> {
    int c = Bytes.compare(a.row(), b.row());
    if (c != 0) {
      return c;
    }
    boolean am = a.type().isFamilyMarker();
    boolean bm = b.type().isFamilyMarker();
    if (am != bm) {
      return am ? -1 : 1;
    }
    if (!am) {
      c = Bytes.compare(a.qualifier(), b.qualifier());
      if (c != 0) {
        return c;
      }
    }
    c = Long.compare(b.timestamp(), a.timestamp());
    return c != 0 ? c : Integer.compare(b.type().code(), a.type().code());
  };

  @Test
  void roundTripsEveryType() {
    for (CellType t : TYPES) {
      byte[] q = t.isFamilyMarker() ? null : new byte[] {0, 1, 0, (byte) 0xFF};
      byte[] key = CellKeyCodec.encode(new byte[] {0, 0, 'r'}, q, 42, t);
      CellKeyCodec.Key k = CellKeyCodec.decode(key);
      assertThat(k.row()).containsExactly(0, 0, 'r');
      assertThat(k.qualifier()).isEqualTo(q);
      assertThat(k.timestamp()).isEqualTo(42);
      assertThat(k.type()).isEqualTo(t);
      assertThat(CellKeyCodec.typeOf(key)).isEqualTo(t);
      assertThat(CellKeyCodec.decodeRow(key)).containsExactly(0, 0, 'r');
      byte[] row = {0, 0, 'r'};
      CellKeyCodec.Key inRow = CellKeyCodec.decodeInRow(key, row, CellKeyCodec.rowPrefix(row));
      assertThat(inRow.row()).isSameAs(row);
      assertThat(inRow.qualifier()).isEqualTo(q);
      assertThat(inRow.timestamp()).isEqualTo(42);
      assertThat(inRow.type()).isEqualTo(t);
      assertThat(CellKeyCodec.rowPrefixOf(key)).isEqualTo(CellKeyCodec.rowPrefix(row));
      if (q != null) {
        assertThat(CellKeyCodec.startsWith(key, CellKeyCodec.columnPrefix(new byte[] {0, 0, 'r'}, q))).isTrue();
        assertThat(CellKeyCodec.columnPrefixOf(key)).isEqualTo(CellKeyCodec.columnPrefix(new byte[] {0, 0, 'r'}, q));
      }
    }
  }

  @Test
  void emptyQualifierIsAColumnNotAFamilyMarker() {
    CellKeyCodec.Key k = CellKeyCodec.decode(CellKeyCodec.encode(Bytes.of("r"), Bytes.EMPTY, 0, CellType.PUT));
    assertThat(k.qualifier()).isEmpty();
    assertThat(k.isFamilyMarker()).isFalse();
  }

  @Test
  void byteOrderOfKeysIsHBaseCellOrder() {
    Random rnd = new Random(7);
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      CellType t = TYPES[rnd.nextInt(TYPES.length)];
      byte[] q = t.isFamilyMarker() ? Bytes.EMPTY : randomBytes(rnd, 0, 3);
      long ts = rnd.nextBoolean() ? rnd.nextInt(4) : Math.abs(rnd.nextLong());
      cells.add(new Cell(randomBytes(rnd, 1, 3), Bytes.of("f"), q, ts, t, null));
    }
    List<Cell> byHBase = new ArrayList<>(cells);
    byHBase.sort(HBASE_ORDER);
    List<Cell> byKey = new ArrayList<>(cells);
    byKey.sort((a, b) -> Bytes.compare(CellKeyCodec.encode(a), CellKeyCodec.encode(b)));
    for (int i = 0; i < cells.size(); i++) {
      assertThat(HBASE_ORDER.compare(byKey.get(i), byHBase.get(i))).as("position %d", i).isZero();
    }
  }

  @Test
  void prefixesBracketTheirKeys() {
    byte[] row = {'a', 0};
    byte[] key = CellKeyCodec.encode(row, new byte[] {'q'}, 5, CellType.PUT);
    assertThat(CellKeyCodec.startsWith(key, CellKeyCodec.rowPrefix(row))).isTrue();
    assertThat(CellKeyCodec.startsWith(key, CellKeyCodec.columnPrefix(row, new byte[] {'q'}))).isTrue();
    assertThat(Bytes.compare(key, CellKeyCodec.rowEnd(row))).isNegative();
    assertThat(Bytes.compare(key, CellKeyCodec.columnEnd(row, new byte[] {'q'}))).isNegative();
    byte[] nextRowKey = CellKeyCodec.encode(new byte[] {'a', 0, 0}, Bytes.EMPTY, Long.MAX_VALUE, CellType.DELETE_FAMILY);
    assertThat(Bytes.compare(CellKeyCodec.rowEnd(row), nextRowKey)).isNegative();
    byte[] marker = CellKeyCodec.encode(row, null, 1, CellType.DELETE_FAMILY);
    assertThat(Bytes.compare(marker, CellKeyCodec.columnPrefix(row, Bytes.EMPTY))).isNegative();
  }

  @Test
  void rejectsNegativeTimestamps() {
    assertThatThrownBy(() -> CellKeyCodec.encode(Bytes.of("r"), Bytes.EMPTY, -1, CellType.PUT))
        .isInstanceOf(IllegalArgumentException.class);
  }

  private static byte[] randomBytes(Random rnd, int min, int max) {
    byte[] b = new byte[min + rnd.nextInt(max - min + 1)];
    for (int i = 0; i < b.length; i++) {
      int pick = rnd.nextInt(4);
      b[i] = (byte) (pick == 0 ? 0 : pick == 1 ? 0xFF : pick == 2 ? 1 : 'a' + rnd.nextInt(3));
    }
    return b;
  }
}
