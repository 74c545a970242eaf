package io.basalt.server.master.protocol;

import io.basalt.server.catalog.Member;
import io.basalt.server.catalog.SnapshotRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.exceptions.DeserializationException;

/**
 * A clone of a snapshot into a new table, or a restore of a disabled table from a snapshot, as persisted before
 * and after each step. The new regions follow from the snapshot's regions, the table and the new region id, so
 * they are not stored.
 * <pre>
 * version 2 (see TxnCodec for the framing):
 *   'C' | 2 | phase (1 STARTED, 2 CLONED, 3 ROLLING_BACK) | id | restore (0 clone, 1 restore) | snapshot name
 *       | table descriptor (PBUF, the new table's) | varint new region id
 *       | varint parts | (region | server)*        the snapshot's regions and the servers holding their files
 *       | varint replaced | (region | server)*     a restore's old regions, dropped once the new ones are published
 *                                                  (a replicated one once per member's server)
 *       | varint groups | members*                 a replicated clone: each new region's members, in the order of
 *                                                  parts, the founder (the part's server) first; 0 groups otherwise
 *       | reason | CRC32C
 * version 1: the same without the groups (written before replicated clones; still read).
 * </pre>
 */
public record CloneTxn(String id, Phase phase, boolean restore, String snapshot, TableDescriptor table,
    long newRegionId, List<SnapshotRecord.Part> parts, List<SnapshotRecord.Part> replaced, List<List<Member>> groups,
    String reason) implements Txn {
  static final byte KIND = 'C';
  private static final byte VERSION = 2;
  private static final byte VERSION_WITHOUT_GROUPS = 1;

  /** How far it got; what a new master does from each is on {@link CloneSnapshotProtocol}. */
  public enum Phase {
    /** Cloning the snapshot's regions. Recovery: roll back (drop the clones; a clone's table too). */
    STARTED(1),
    /** Every region is cloned: the point of no return. Recovery: publish, open, drop what a restore replaced. */
    CLONED(2),
    /** Being undone, for {@link #reason()}. Recovery: finish undoing. */
    ROLLING_BACK(3);

    final int code;

    Phase(int code) {
      this.code = code;
    }
  }

  public CloneTxn {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(snapshot, "snapshot");
    Objects.requireNonNull(table, "table");
    Objects.requireNonNull(reason, "reason");
    parts = List.copyOf(parts);
    replaced = List.copyOf(replaced);
    groups = groups.stream().map(List::copyOf).toList();
    if (!groups.isEmpty()) {
      if (groups.size() != parts.size()) {
        throw new IllegalArgumentException(groups.size() + " groups for " + parts.size() + " regions");
      }
      for (int i = 0; i < parts.size(); i++) {
        if (groups.get(i).isEmpty() || !groups.get(i).get(0).isOn(parts.get(i).server())) {
          throw new IllegalArgumentException("the founder of region " + i + " must be on " + parts.get(i).server()
              + ", which holds its snapshot files: " + groups.get(i));
        }
      }
    }
    if (newRegionId < 0) {
      throw new IllegalArgumentException("negative region id " + newRegionId);
    }
  }

  /** The new table's regions, in the order of {@link #parts()}: the snapshot's key ranges, named anew. */
  public List<RegionInfo> targets() {
    return targets(parts, table, newRegionId);
  }

  static List<RegionInfo> targets(List<SnapshotRecord.Part> parts, TableDescriptor table, long newRegionId) {
    return parts.stream().map(p -> RegionInfoBuilder.newBuilder(table.getTableName())
        .setStartKey(p.region().getStartKey()).setEndKey(p.region().getEndKey()).setRegionId(newRegionId).build())
        .toList();
  }

  /** Whether the new regions are replica groups ({@link #groups()} their members). */
  public boolean replicated() {
    return !groups.isEmpty();
  }

  public CloneTxn at(Phase next) {
    return new CloneTxn(id, next, restore, snapshot, table, newRegionId, parts, replaced, groups, reason);
  }

  public CloneTxn rollingBack(String why) {
    return new CloneTxn(id, Phase.ROLLING_BACK, restore, snapshot, table, newRegionId, parts, replaced, groups, why);
  }

  @Override
  public byte[] toBytes() {
    TxnCodec.Writer w = new TxnCodec.Writer(KIND, VERSION).raw(phase.code).string(id).raw(restore ? 1 : 0)
        .string(snapshot).bytes(TableDescriptorBuilder.toByteArray(table)).varint(newRegionId);
    for (List<SnapshotRecord.Part> list : List.of(parts, replaced)) {
      w.varint(list.size());
      for (SnapshotRecord.Part p : list) {
        w.region(p.region()).server(p.server());
      }
    }
    w.varint(groups.size());
    groups.forEach(w::members);
    return w.string(reason).toBytes();
  }

  public static CloneTxn parse(byte[] data) throws IOException {
    boolean withGroups = data.length < 2 || data[1] != VERSION_WITHOUT_GROUPS;
    TxnCodec.Reader r = new TxnCodec.Reader(data, KIND, withGroups ? VERSION : VERSION_WITHOUT_GROUPS,
        "clone transaction");
    Phase phase = r.phase(Phase.values(), p -> p.code);
    String id = r.string();
    int restore = r.raw();
    if (restore > 1) {
      throw new IOException("corrupt clone transaction record: restore flag " + restore);
    }
    String snapshot = r.string();
    TableDescriptor table;
    try {
      table = TableDescriptorBuilder.parseFrom(r.bytes());
    } catch (DeserializationException e) {
      throw new IOException("corrupt clone transaction record: bad table descriptor", e);
    }
    long newRegionId = r.varint();
    List<List<SnapshotRecord.Part>> lists = new ArrayList<>();
    for (int l = 0; l < 2; l++) {
      long n = r.varint();
      if (n > 1_000_000) {
        throw new IOException("corrupt clone transaction record: " + n + " regions");
      }
      List<SnapshotRecord.Part> parts = new ArrayList<>();
      for (long i = 0; i < n; i++) {
        parts.add(new SnapshotRecord.Part(r.region(), r.server()));
      }
      lists.add(parts);
    }
    List<List<Member>> groups = new ArrayList<>();
    long g = withGroups ? r.varint() : 0;
    if (g > 1_000_000) {
      throw new IOException("corrupt clone transaction record: " + g + " groups");
    }
    for (long i = 0; i < g; i++) {
      groups.add(r.members());
    }
    String reason = r.string();
    r.end();
    try {
      return new CloneTxn(id, phase, restore == 1, snapshot, table, newRegionId, lists.get(0), lists.get(1), groups,
          reason);
    } catch (IllegalArgumentException e) {
      throw new IOException("corrupt clone transaction record: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "CloneTxn[" + id + " " + phase + " " + (restore ? "restore " : "clone ") + snapshot + " into "
        + table.getTableName() + ", " + parts.size() + " regions" + (groups.isEmpty() ? "" : " of "
        + groups.get(0).size() + " members") + (reason.isEmpty() ? "" : " (" + reason + ")") + "]";
  }
}
