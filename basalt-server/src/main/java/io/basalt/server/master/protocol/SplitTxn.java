package io.basalt.server.master.protocol;

import java.io.IOException;
import java.util.Arrays;
import java.util.Objects;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A split in flight, as persisted before and after each step. The daughters follow from the parent, the
 * split row and the daughters' region id, so they are not stored.
 * <pre>
 * version 1 (see TxnCodec for the framing):
 *   'S' | 1 | phase (1 STARTED, 2 CLONED, 3 PUBLISHED, 4 ROLLING_BACK) | id | parent | server
 *       | split row | varint daughter region id | reason ("" if none) | CRC32C
 * </pre>
 * A few hundred bytes for ordinary keys.
 */
public record SplitTxn(String id, Phase phase, RegionInfo parent, ServerName server, byte[] splitRow,
    long daughterRegionId, String reason) implements Txn {
  static final byte KIND = 'S';
  private static final byte VERSION = 1;

  /** How far a split got; what a new master does from each is on {@link SplitProtocol}. */
  public enum Phase {
    /** About to mark the parent SPLITTING and close+clone it. Recovery: roll back. */
    STARTED(1),
    /** Both daughters are cloned durably: the point of no return. Recovery: publish, open, drop parent. */
    CLONED(2),
    /** Daughters published and opened. Recovery: make sure they are open, drop the parent's files. */
    PUBLISHED(3),
    /** Being undone, for {@link #reason()}. Recovery: finish undoing. */
    ROLLING_BACK(4);

    final int code;

    Phase(int code) {
      this.code = code;
    }
  }

  public SplitTxn {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(parent, "parent");
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(reason, "reason");
    splitRow = splitRow.clone();
    if (daughterRegionId < 0) {
      throw new IllegalArgumentException("negative region id " + daughterRegionId);
    }
  }

  @Override
  public byte[] splitRow() {
    return splitRow.clone();
  }

  /** The lower daughter: [parent start, split row). */
  public RegionInfo daughterA() {
    return RegionInfoBuilder.newBuilder(parent.getTable()).setStartKey(parent.getStartKey()).setEndKey(splitRow)
        .setRegionId(daughterRegionId).build();
  }

  /** The upper daughter: [split row, parent end). */
  public RegionInfo daughterB() {
    return RegionInfoBuilder.newBuilder(parent.getTable()).setStartKey(splitRow).setEndKey(parent.getEndKey())
        .setRegionId(daughterRegionId).build();
  }

  public SplitTxn at(Phase next) {
    return new SplitTxn(id, next, parent, server, splitRow, daughterRegionId, reason);
  }

  public SplitTxn rollingBack(String why) {
    return new SplitTxn(id, Phase.ROLLING_BACK, parent, server, splitRow, daughterRegionId, why);
  }

  @Override
  public byte[] toBytes() {
    return new TxnCodec.Writer(KIND, VERSION).raw(phase.code).string(id).region(parent).server(server)
        .bytes(splitRow).varint(daughterRegionId).string(reason).toBytes();
  }

  public static SplitTxn parse(byte[] data) throws IOException {
    TxnCodec.Reader r = new TxnCodec.Reader(data, KIND, VERSION, "split transaction");
    Phase phase = r.phase(Phase.values(), p -> p.code);
    String id = r.string();
    RegionInfo parent = r.region();
    ServerName server = r.server();
    byte[] splitRow = r.bytes();
    long daughterRegionId = r.varint();
    String reason = r.string();
    r.end();
    return new SplitTxn(id, phase, parent, server, splitRow, daughterRegionId, reason);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SplitTxn t && id.equals(t.id) && phase == t.phase && parent.equals(t.parent)
        && server.equals(t.server) && Arrays.equals(splitRow, t.splitRow) && daughterRegionId == t.daughterRegionId
        && reason.equals(t.reason);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, phase, parent, server, Arrays.hashCode(splitRow), daughterRegionId, reason);
  }

  @Override
  public String toString() {
    return "SplitTxn[" + id + " " + phase + " " + parent.getRegionNameAsString() + " on " + server + " at "
        + Bytes.toStringBinary(splitRow) + (reason.isEmpty() ? "" : " (" + reason + ")") + "]";
  }
}
