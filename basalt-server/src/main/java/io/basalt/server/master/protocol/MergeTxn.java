package io.basalt.server.master.protocol;

import java.io.IOException;
import java.util.Objects;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A merge of two adjacent regions in flight, as persisted before and after each step. The merged region follows
 * from the two and its region id, so it is not stored.
 * <pre>
 * version 1 (see TxnCodec for the framing):
 *   'J' | 1 | phase (1 STARTED, 2 MERGED, 3 PUBLISHED, 4 ROLLING_BACK) | id | lower region | upper region | server
 *       | varint merged region id | reason ("" if none) | CRC32C
 * </pre>
 */
public record MergeTxn(String id, Phase phase, RegionInfo lower, RegionInfo upper, ServerName server,
    long mergedRegionId, String reason) implements Txn {
  static final byte KIND = 'J';
  private static final byte VERSION = 1;

  /** How far a merge got; what a new master does from each is on {@link MergeProtocol}. */
  public enum Phase {
    /** About to mark both regions MERGING and close+merge them. Recovery: roll back. */
    STARTED(1),
    /** The merged region's directory is complete and durable: the point of no return. */
    MERGED(2),
    /** The merged region published and opened. Recovery: make sure it is open, drop the two old ones. */
    PUBLISHED(3),
    /** Being undone, for {@link #reason()}. Recovery: finish undoing. */
    ROLLING_BACK(4);

    final int code;

    Phase(int code) {
      this.code = code;
    }
  }

  public MergeTxn {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(lower, "lower");
    Objects.requireNonNull(upper, "upper");
    Objects.requireNonNull(server, "server");
    Objects.requireNonNull(reason, "reason");
    if (!lower.getTable().equals(upper.getTable()) || lower.getEndKey().length == 0
        || !Bytes.equals(lower.getEndKey(), upper.getStartKey())) {
      throw new IllegalArgumentException(lower.getRegionNameAsString() + " and " + upper.getRegionNameAsString()
          + " are not adjacent regions of one table, lower first");
    }
    if (mergedRegionId <= Math.max(lower.getRegionId(), upper.getRegionId())) {
      throw new IllegalArgumentException("merged region id " + mergedRegionId + " is not after both regions' ids");
    }
  }

  /** The merged region: [lower start, upper end), after both in meta's order (its id is larger). */
  public RegionInfo merged() {
    return RegionInfoBuilder.newBuilder(lower.getTable()).setStartKey(lower.getStartKey())
        .setEndKey(upper.getEndKey()).setRegionId(mergedRegionId).build();
  }

  public MergeTxn at(Phase next) {
    return new MergeTxn(id, next, lower, upper, server, mergedRegionId, reason);
  }

  public MergeTxn rollingBack(String why) {
    return new MergeTxn(id, Phase.ROLLING_BACK, lower, upper, server, mergedRegionId, why);
  }

  @Override
  public byte[] toBytes() {
    return new TxnCodec.Writer(KIND, VERSION).raw(phase.code).string(id).region(lower).region(upper).server(server)
        .varint(mergedRegionId).string(reason).toBytes();
  }

  public static MergeTxn parse(byte[] data) throws IOException {
    TxnCodec.Reader r = new TxnCodec.Reader(data, KIND, VERSION, "merge transaction");
    Phase phase = r.phase(Phase.values(), p -> p.code);
    String id = r.string();
    RegionInfo lower = r.region();
    RegionInfo upper = r.region();
    ServerName server = r.server();
    long mergedRegionId = r.varint();
    String reason = r.string();
    r.end();
    try {
      return new MergeTxn(id, phase, lower, upper, server, mergedRegionId, reason);
    } catch (IllegalArgumentException e) {
      throw new IOException("corrupt merge transaction record: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "MergeTxn[" + id + " " + phase + " " + lower.getRegionNameAsString() + " + " + upper.getRegionNameAsString()
        + " on " + server + (reason.isEmpty() ? "" : " (" + reason + ")") + "]";
  }
}
