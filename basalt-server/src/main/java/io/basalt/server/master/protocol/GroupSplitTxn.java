package io.basalt.server.master.protocol;

import io.basalt.server.catalog.Member;
import io.basalt.server.master.protocol.SplitTxn.Phase;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A split of a replicated region in flight, as persisted before and after each step: the parent, its JE
 * group's name and members, the primary that seals it, and each daughter's members at their new ports,
 * the daughter's founder first. Phases as for {@link SplitTxn}.
 * <pre>
 * version 1 (see TxnCodec for the framing):
 *   'G' | 1 | phase (1 STARTED, 2 CLONED, 3 PUBLISHED, 4 ROLLING_BACK) | id | parent | group | primary
 *       | split row | varint daughter region id | parent members | members A | members B
 *       | reason ("" if none) | CRC32C
 * </pre>
 */
public record GroupSplitTxn(String id, Phase phase, RegionInfo parent, String group, ServerName primary,
    byte[] splitRow, long daughterRegionId, List<Member> members, List<Member> membersA, List<Member> membersB,
    String reason) implements Txn {
  static final byte KIND = 'G';
  private static final byte VERSION = 1;

  public GroupSplitTxn {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(parent, "parent");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(primary, "primary");
    Objects.requireNonNull(reason, "reason");
    splitRow = splitRow.clone();
    members = List.copyOf(members);
    membersA = List.copyOf(membersA);
    membersB = List.copyOf(membersB);
    if (members.isEmpty() || membersA.size() != members.size() || membersB.size() != members.size()) {
      throw new IllegalArgumentException("each daughter needs one member per member of the parent: " + members
          + " " + membersA + " " + membersB);
    }
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
    return daughterA(parent, splitRow, daughterRegionId);
  }

  /** The upper daughter: [split row, parent end). */
  public RegionInfo daughterB() {
    return daughterB(parent, splitRow, daughterRegionId);
  }

  static RegionInfo daughterA(RegionInfo parent, byte[] splitRow, long regionId) {
    return RegionInfoBuilder.newBuilder(parent.getTable()).setStartKey(parent.getStartKey()).setEndKey(splitRow)
        .setRegionId(regionId).build();
  }

  static RegionInfo daughterB(RegionInfo parent, byte[] splitRow, long regionId) {
    return RegionInfoBuilder.newBuilder(parent.getTable()).setStartKey(splitRow).setEndKey(parent.getEndKey())
        .setRegionId(regionId).build();
  }

  /**
   * The order the parent's members close in: the secondaries first, the primary last (it is sealed, so its
   * group never elects another while the others close).
   */
  public List<Member> closeOrder() {
    List<Member> out = new ArrayList<>();
    members.stream().filter(m -> !m.isOn(primary)).forEach(out::add);
    members.stream().filter(m -> m.isOn(primary)).forEach(out::add);
    return out;
  }

  public GroupSplitTxn at(Phase next) {
    return new GroupSplitTxn(id, next, parent, group, primary, splitRow, daughterRegionId, members, membersA,
        membersB, reason);
  }

  public GroupSplitTxn rollingBack(String why) {
    return new GroupSplitTxn(id, Phase.ROLLING_BACK, parent, group, primary, splitRow, daughterRegionId, members,
        membersA, membersB, why);
  }

  @Override
  public byte[] toBytes() {
    return new TxnCodec.Writer(KIND, VERSION).raw(phase.code).string(id).region(parent).string(group).server(primary)
        .bytes(splitRow).varint(daughterRegionId).members(members).members(membersA).members(membersB).string(reason)
        .toBytes();
  }

  public static GroupSplitTxn parse(byte[] data) throws IOException {
    TxnCodec.Reader r = new TxnCodec.Reader(data, KIND, VERSION, "replicated split transaction");
    Phase phase = r.phase(Phase.values(), p -> p.code);
    String id = r.string();
    RegionInfo parent = r.region();
    String group = r.string();
    ServerName primary = r.server();
    byte[] splitRow = r.bytes();
    long daughterRegionId = r.varint();
    List<Member> members = r.members();
    List<Member> a = r.members();
    List<Member> b = r.members();
    String reason = r.string();
    r.end();
    try {
      return new GroupSplitTxn(id, phase, parent, group, primary, splitRow, daughterRegionId, members, a, b, reason);
    } catch (IllegalArgumentException e) {
      throw new IOException("corrupt replicated split transaction record: " + e.getMessage(), e);
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof GroupSplitTxn t && id.equals(t.id) && phase == t.phase && parent.equals(t.parent)
        && group.equals(t.group) && primary.equals(t.primary) && Arrays.equals(splitRow, t.splitRow)
        && daughterRegionId == t.daughterRegionId && members.equals(t.members) && membersA.equals(t.membersA)
        && membersB.equals(t.membersB) && reason.equals(t.reason);
  }

  @Override
  public int hashCode() {
    return Objects.hash(id, phase, parent, group, primary, Arrays.hashCode(splitRow), daughterRegionId, members,
        membersA, membersB, reason);
  }

  @Override
  public String toString() {
    return "GroupSplitTxn[" + id + " " + phase + " " + parent.getRegionNameAsString() + " (group " + group
        + ", primary " + primary + ") at " + Bytes.toStringBinary(splitRow) + " A " + membersA + " B " + membersB
        + (reason.isEmpty() ? "" : " (" + reason + ")") + "]";
  }
}
