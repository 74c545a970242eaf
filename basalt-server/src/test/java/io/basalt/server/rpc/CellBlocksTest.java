package io.basalt.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class CellBlocksTest {
  /** r1/cf:q/ts5/Put/"v" as the real KeyValueCodec writes it (verified against hbase-client 2.6.4). */
  private static final String GOLDEN = "0000001a" + "00000011" + "00000001" + "0002" + "7231" + "02" + "6366" + "71"
      + "0000000000000005" + "04" + "76";

  @Test
  void encodesTheGoldenVector() {
    List<Cell> cells = List.of(new KeyValue(Bytes.toBytes("r1"), Bytes.toBytes("cf"), Bytes.toBytes("q"), 5L, Bytes.toBytes("v")));
    ByteBuffer out = ByteBuffer.allocate(CellBlocks.encodedLength(cells));
    CellBlocks.encode(cells, out);
    assertThat(HexFormat.of().formatHex(out.array())).isEqualTo(GOLDEN);
  }

  @Test
  void decodesWhatItEncodes() throws Exception {
    List<Cell> cells = List.of(
        new KeyValue(Bytes.toBytes("r1"), Bytes.toBytes("cf"), Bytes.toBytes("q"), 5L, Bytes.toBytes("v")),
        new KeyValue(Bytes.toBytes("r2"), Bytes.toBytes("cf"), new byte[0], 7L, KeyValue.Type.DeleteFamily));
    ByteBuffer out = ByteBuffer.allocate(CellBlocks.encodedLength(cells));
    CellBlocks.encode(cells, out);
    List<Cell> back = CellBlocks.decode(out.array(), 0, out.capacity());
    assertThat(back).hasSize(2);
    for (int i = 0; i < 2; i++) {
      assertThat(CellUtil.equals(back.get(i), cells.get(i))).isTrue();
      assertThat(back.get(i).getType()).isEqualTo(cells.get(i).getType());
    }
  }

  @Test
  void rejectsTruncatedOrLyingBlocks() {
    byte[] golden = HexFormat.of().parseHex(GOLDEN);
    assertThatThrownBy(() -> CellBlocks.decode(golden, 0, golden.length - 3)).isInstanceOf(DoNotRetryIOException.class);
    byte[] lying = golden.clone();
    lying[3] = (byte) 0x7F;
    assertThatThrownBy(() -> CellBlocks.decode(lying, 0, lying.length)).isInstanceOf(DoNotRetryIOException.class);
  }
}
