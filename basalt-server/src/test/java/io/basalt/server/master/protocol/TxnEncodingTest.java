package io.basalt.server.master.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class TxnEncodingTest {
  private static final RegionInfo PARENT = RegionInfoBuilder.newBuilder(TableName.valueOf("ns", "orders"))
      .setStartKey(new byte[0]).setEndKey(Bytes.toBytes("m")).setRegionId(1_700_000_000_000L).build();
  private static final ServerName RS = ServerName.valueOf("host-1.example", 16020, 1_700_000_000_123L);
  private static final ServerName RS2 = ServerName.valueOf("host-2.example", 16021, 1_700_000_000_456L);

  private static SplitTxn split(SplitTxn.Phase phase) {
    return new SplitTxn("split-" + PARENT.getEncodedName(), phase, PARENT, RS, new byte[] {'f', 0, (byte) 0xFF},
        1_700_000_000_999L, phase == SplitTxn.Phase.ROLLING_BACK ? "CloseAndClone failed: disk — full" : "");
  }

  private static MoveTxn move(MoveTxn.Phase phase) {
    return new MoveTxn("move-" + PARENT.getEncodedName(), phase, PARENT, RS, RS2,
        phase == MoveTxn.Phase.ROLLING_BACK ? "Open on host-2 failed" : "");
  }

  @Test
  void splitRecordsRoundTripInEveryPhase() throws IOException {
    for (SplitTxn.Phase phase : SplitTxn.Phase.values()) {
      SplitTxn txn = split(phase);
      byte[] bytes = txn.toBytes();
      SplitTxn back = SplitTxn.parse(bytes);
      assertThat(back).isEqualTo(txn).hasSameHashCodeAs(txn);
      assertThat(Txn.parse(bytes)).isEqualTo(txn);
      assertThat(back.splitRow()).containsExactly('f', 0, 0xFF);
      assertThat(back.daughterA()).isEqualTo(txn.daughterA());
      assertThat(back.daughterB()).isEqualTo(txn.daughterB());
      assertThat(back.daughterA().getEncodedName()).isEqualTo(txn.daughterA().getEncodedName());
      assertThat(bytes[0]).isEqualTo((byte) 'S');
      assertThat(bytes[1]).isEqualTo((byte) 1);
      assertThat(bytes[2]).isEqualTo((byte) phase.code);
      assertThat(bytes.length).isLessThan(220);
    }
    // The codes are the format: never renumber them.
    assertThat(Arrays.stream(SplitTxn.Phase.values()).mapToInt(p -> p.code)).containsExactly(1, 2, 3, 4);
  }

  @Test
  void daughtersSplitTheParentAtTheRow() {
    SplitTxn txn = split(SplitTxn.Phase.STARTED);
    assertThat(txn.daughterA().getStartKey()).isEmpty();
    assertThat(txn.daughterA().getEndKey()).isEqualTo(txn.splitRow());
    assertThat(txn.daughterB().getStartKey()).isEqualTo(txn.splitRow());
    assertThat(txn.daughterB().getEndKey()).isEqualTo(Bytes.toBytes("m"));
    assertThat(txn.daughterA().getRegionId()).isEqualTo(1_700_000_000_999L);
    assertThat(txn.daughterA().getTable()).isEqualTo(PARENT.getTable());
  }

  @Test
  void moveRecordsRoundTripInEveryPhase() throws IOException {
    for (MoveTxn.Phase phase : MoveTxn.Phase.values()) {
      MoveTxn txn = move(phase);
      byte[] bytes = txn.toBytes();
      assertThat(MoveTxn.parse(bytes)).isEqualTo(txn);
      assertThat(Txn.parse(bytes)).isEqualTo(txn);
      assertThat(MoveTxn.parse(bytes).target().getStartcode()).isEqualTo(RS2.getStartcode());
      assertThat(bytes[0]).isEqualTo((byte) 'M');
      assertThat(bytes[2]).isEqualTo((byte) phase.code);
      assertThat(bytes.length).isLessThan(220);
    }
    assertThat(Arrays.stream(MoveTxn.Phase.values()).mapToInt(p -> p.code)).containsExactly(1, 2, 3, 4);
  }

  @Test
  void everyFlippedBitAndEveryTruncationIsRejected() {
    for (byte[] good : new byte[][] {split(SplitTxn.Phase.CLONED).toBytes(), move(MoveTxn.Phase.OPENED).toBytes()}) {
      for (int i = 0; i < good.length; i++) {
        for (int bit = 0; bit < 8; bit++) {
          byte[] bad = good.clone();
          bad[i] ^= (byte) (1 << bit);
          assertThatThrownBy(() -> Txn.parse(bad)).isInstanceOf(IOException.class);
        }
        byte[] cut = Arrays.copyOf(good, i);
        assertThatThrownBy(() -> Txn.parse(cut)).isInstanceOf(IOException.class);
      }
    }
  }

  @Test
  void unknownVersionsKindsPhasesAndTrailingBytesAreRejectedWithAReason() {
    byte[] body = withoutCrc(split(SplitTxn.Phase.STARTED).toBytes());
    byte[] newer = body.clone();
    newer[1] = 2;
    assertThatThrownBy(() -> Txn.parse(withCrc(newer))).hasMessageContaining("unknown version 2");
    byte[] phase = body.clone();
    phase[2] = 9;
    assertThatThrownBy(() -> Txn.parse(withCrc(phase))).hasMessageContaining("unknown phase 9");
    byte[] longer = Arrays.copyOf(body, body.length + 1);
    assertThatThrownBy(() -> Txn.parse(withCrc(longer))).hasMessageContaining("after the last field");
    byte[] asMove = body.clone();
    asMove[0] = 'M';
    assertThatThrownBy(() -> SplitTxn.parse(withCrc(asMove))).hasMessageContaining("not a split");
    byte[] other = body.clone();
    other[0] = 'X';
    assertThatThrownBy(() -> Txn.parse(withCrc(other))).hasMessageContaining("not a split, move or member");
  }

  private static byte[] withoutCrc(byte[] record) {
    return Arrays.copyOf(record, record.length - 4);
  }

  private static byte[] withCrc(byte[] body) {
    CRC32C crc = new CRC32C();
    crc.update(body);
    return ByteBuffer.allocate(body.length + 4).put(body).putInt((int) crc.getValue()).array();
  }
}
