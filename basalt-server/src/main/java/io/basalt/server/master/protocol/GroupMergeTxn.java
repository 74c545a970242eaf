package io.basalt.server.master.protocol;

import io.basalt.server.catalog.Member;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A merge of two adjacent replicated regions in flight, as persisted before and after each step: each region's
 * group, primary and members, which of the two is the base (the larger: its members' logs are cloned into the
 * merged region's directories, the other's records are copied into them), and the merged region's members at
 * their new ports, the founder first (a base member on a server that also holds a member of the other region).
 * <pre>
 * version 1 (see TxnCodec for the framing):
 *   'K' | 1 | phase (1 STARTED, 2 FILLED, 3 PUBLISHED, 4 ROLLING_BACK) | id
 *       | lower region | lower group | lower primary | lower members
 *       | upper region | upper group | upper primary | upper members
 *       | base (0 lower, 1 upper) | varint merged region id | merged members | reason ("" if none) | CRC32C
 * </pre>
 */
public record GroupMergeTxn(String id, Phase phase, Side lower, Side upper, boolean baseIsLower,
    long mergedRegionId, List<Member> mergedMembers, String reason) implements Txn {
  static final byte KIND = 'K';
  private static final byte VERSION = 1;

  /** How far a merge got; what a new master does from each is on {@link GroupMergeProtocol}. */
  public enum Phase {
    /** Ports chosen; about to seal, close, clone and fill. Recovery: roll back. */
    STARTED(1),
    /** The founder's directory is the merged region, refounded and filled, durably: the point of no return. */
    FILLED(2),
    /** The merged region published. Recovery: make sure its members are open, drop the old directories. */
    PUBLISHED(3),
    /** Being undone, for {@link #reason()}. Recovery: finish undoing. */
    ROLLING_BACK(4);

    final int code;

    Phase(int code) {
      this.code = code;
    }
  }

  /** One of the two regions: its JE group's name, the member its group elected, and its members. */
  public record Side(RegionInfo region, String group, ServerName primary, List<Member> members) {
    public Side {
      Objects.requireNonNull(region, "region");
      Objects.requireNonNull(group, "group");
      Objects.requireNonNull(primary, "primary");
      members = List.copyOf(members);
      if (members.stream().noneMatch(m -> m.isOn(primary))) {
        throw new IllegalArgumentException(primary + " holds no member of " + region.getRegionNameAsString() + " "
            + members);
      }
    }

    /** The members in the order they close: the secondaries, then the sealed primary. */
    List<Member> closeOrder() {
      List<Member> out = new ArrayList<>();
      members.stream().filter(m -> !m.isOn(primary)).forEach(out::add);
      members.stream().filter(m -> m.isOn(primary)).forEach(out::add);
      return out;
    }

    boolean hasMemberOn(ServerName server) {
      return members.stream().anyMatch(m -> m.isOn(server));
    }
  }

  public GroupMergeTxn {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(lower, "lower");
    Objects.requireNonNull(upper, "upper");
    Objects.requireNonNull(reason, "reason");
    mergedMembers = List.copyOf(mergedMembers);
    RegionInfo l = lower.region();
    RegionInfo u = upper.region();
    if (!l.getTable().equals(u.getTable()) || l.getEndKey().length == 0
        || !Bytes.equals(l.getEndKey(), u.getStartKey())) {
      throw new IllegalArgumentException(l.getRegionNameAsString() + " and " + u.getRegionNameAsString()
          + " are not adjacent regions of one table, lower first");
    }
    if (mergedRegionId <= Math.max(l.getRegionId(), u.getRegionId())) {
      throw new IllegalArgumentException("merged region id " + mergedRegionId + " is not after both regions' ids");
    }
    Side base = baseIsLower ? lower : upper;
    Side other = baseIsLower ? upper : lower;
    if (mergedMembers.size() != base.members().size()) {
      throw new IllegalArgumentException("the merged region needs one member per member of the base: "
          + mergedMembers + " " + base.members());
    }
    for (Member m : mergedMembers) {
      if (!base.hasMemberOn(m.server())) {
        throw new IllegalArgumentException("merged member " + m + " is not on a server of the base " + base.members());
      }
    }
    if (!other.hasMemberOn(mergedMembers.get(0).server())) {
      throw new IllegalArgumentException("the merged region's founder " + mergedMembers.get(0)
          + " is not on a server holding a member of " + other.region().getRegionNameAsString());
    }
  }

  /** The region whose members' logs become the merged region's. */
  public Side base() {
    return baseIsLower ? lower : upper;
  }

  /** The region whose records are copied into the base's. */
  public Side other() {
    return baseIsLower ? upper : lower;
  }

  /** The merged region: [lower start, upper end), after both in meta's order (its id is larger). */
  public RegionInfo merged() {
    return RegionInfoBuilder.newBuilder(lower.region().getTable()).setStartKey(lower.region().getStartKey())
        .setEndKey(upper.region().getEndKey()).setRegionId(mergedRegionId).build();
  }

  /** The merged region's members on the base members' servers, in the base's order. */
  public Member mergedMemberOn(ServerName server) {
    return mergedMembers.stream().filter(m -> m.isOn(server)).findFirst().orElseThrow();
  }

  public GroupMergeTxn at(Phase next) {
    return new GroupMergeTxn(id, next, lower, upper, baseIsLower, mergedRegionId, mergedMembers, reason);
  }

  public GroupMergeTxn rollingBack(String why) {
    return new GroupMergeTxn(id, Phase.ROLLING_BACK, lower, upper, baseIsLower, mergedRegionId, mergedMembers, why);
  }

  @Override
  public byte[] toBytes() {
    TxnCodec.Writer w = new TxnCodec.Writer(KIND, VERSION).raw(phase.code).string(id);
    for (Side s : List.of(lower, upper)) {
      w.region(s.region()).string(s.group()).server(s.primary()).members(s.members());
    }
    return w.raw(baseIsLower ? 0 : 1).varint(mergedRegionId).members(mergedMembers).string(reason).toBytes();
  }

  public static GroupMergeTxn parse(byte[] data) throws IOException {
    TxnCodec.Reader r = new TxnCodec.Reader(data, KIND, VERSION, "replicated merge transaction");
    Phase phase = r.phase(Phase.values(), p -> p.code);
    String id = r.string();
    try {
      Side lower = new Side(r.region(), r.string(), r.server(), r.members());
      Side upper = new Side(r.region(), r.string(), r.server(), r.members());
      int base = r.raw();
      if (base > 1) {
        throw new IOException("corrupt replicated merge transaction record: base " + base);
      }
      long mergedRegionId = r.varint();
      List<Member> merged = r.members();
      String reason = r.string();
      r.end();
      return new GroupMergeTxn(id, phase, lower, upper, base == 0, mergedRegionId, merged, reason);
    } catch (IllegalArgumentException e) {
      throw new IOException("corrupt replicated merge transaction record: " + e.getMessage(), e);
    }
  }

  @Override
  public String toString() {
    return "GroupMergeTxn[" + id + " " + phase + " " + lower.region().getRegionNameAsString() + " + "
        + upper.region().getRegionNameAsString() + " (base " + (baseIsLower ? "lower" : "upper") + ") into "
        + mergedMembers + (reason.isEmpty() ? "" : " (" + reason + ")") + "]";
  }
}
