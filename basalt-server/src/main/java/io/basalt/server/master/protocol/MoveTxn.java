package io.basalt.server.master.protocol;

import java.io.IOException;
import java.util.Objects;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * A move in flight, as persisted before and after each step. Manifests are not stored: a new master
 * never resumes a move before its point of no return, and after it none is needed.
 * <pre>
 * version 1 (see TxnCodec for the framing):
 *   'M' | 1 | phase (1 STARTED, 2 PREFETCHED, 3 OPENED, 4 ROLLING_BACK) | id | region | source | target
 *       | reason ("" if none) | CRC32C
 * </pre>
 */
public record MoveTxn(String id, Phase phase, RegionInfo region, ServerName source, ServerName target,
    String reason) implements Txn {
  static final byte KIND = 'M';
  private static final byte VERSION = 1;

  /** How far a move got; what a new master does from each is on {@link MoveProtocol}. */
  public enum Phase {
    /** About to mark the region MOVING, pre-close it and prefetch. Recovery: roll back. */
    STARTED(1),
    /** The target holds the closed segments; about to close the source and open the target. Recovery: roll back. */
    PREFETCHED(2),
    /** The target has opened a complete, durable copy: the point of no return. Recovery: publish, forget the source. */
    OPENED(3),
    /** Being undone, for {@link #reason()}. Recovery: finish undoing. */
    ROLLING_BACK(4);

    final int code;

    Phase(int code) {
      this.code = code;
    }
  }

  public MoveTxn {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(source, "source");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(reason, "reason");
  }

  public MoveTxn at(Phase next) {
    return new MoveTxn(id, next, region, source, target, reason);
  }

  public MoveTxn rollingBack(String why) {
    return new MoveTxn(id, Phase.ROLLING_BACK, region, source, target, why);
  }

  @Override
  public byte[] toBytes() {
    return new TxnCodec.Writer(KIND, VERSION).raw(phase.code).string(id).region(region).server(source)
        .server(target).string(reason).toBytes();
  }

  public static MoveTxn parse(byte[] data) throws IOException {
    TxnCodec.Reader r = new TxnCodec.Reader(data, KIND, VERSION, "move transaction");
    Phase phase = r.phase(Phase.values(), p -> p.code);
    String id = r.string();
    RegionInfo region = r.region();
    ServerName source = r.server();
    ServerName target = r.server();
    String reason = r.string();
    r.end();
    return new MoveTxn(id, phase, region, source, target, reason);
  }

  @Override
  public String toString() {
    return "MoveTxn[" + id + " " + phase + " " + region.getRegionNameAsString() + " " + source + " -> " + target
        + (reason.isEmpty() ? "" : " (" + reason + ")") + "]";
  }
}
