package io.basalt.server.master.protocol;

import io.basalt.server.catalog.Member;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * A change of a replicated region's members in flight (one copy added, removed, or both), as persisted
 * before and after each step. Every member list the protocol publishes follows from the members at the
 * start and the two changed ones, so none is stored twice.
 * <pre>
 * version 1 (see TxnCodec for the framing):
 *   'R' | 1 | phase (1 STARTED, 2 REMOVING_OLD, 3 ADDING, 4 JOINED, 5 ROLLING_BACK) | id | region
 *       | flags (1 old first, 2 make the new member primary) | varint member count | member*
 *       | member? removed | member? added | reason ("" if none) | CRC32C
 *   member  = server | varint replication port;  member? = byte 0 for none, else 1 | member
 * </pre>
 *
 * @param members the region's members when the change began
 * @param removed the member that goes, or null (a copy is only added)
 * @param added the member that comes, its replication port reserved, or null (a copy is only removed)
 * @param oldFirst the old member is deleted before the new one is added: its server is down (a group of
 *     three with one member down cannot take in a fourth: that needs three acknowledgements), or nothing
 *     replaces it
 * @param makePrimary the new member is to be the primary at the end (a move: "served from there")
 */
public record MemberTxn(String id, Phase phase, RegionInfo region, List<Member> members, Member removed,
    Member added, boolean oldFirst, boolean makePrimary, String reason) implements Txn {
  static final byte KIND = 'R';
  private static final byte VERSION = 1;

  /** How far a change got; what a new master does from each is on {@link ReplaceMemberProtocol}. */
  public enum Phase {
    /** Adding the new member first (the old one stays until the new one holds the data). Recovery: roll back. */
    STARTED(1),
    /** Deleting the old member first; no way back. Recovery: finish deleting it, then add the new one. */
    REMOVING_OLD(2),
    /** The old member is gone; adding the new one. Recovery: roll the addition back (the old one stays gone). */
    ADDING(3),
    /** The new member joined and holds everything acknowledged: the point of no return. Recovery: finish. */
    JOINED(4),
    /** The addition is being undone, for {@link #reason()}. Recovery: finish undoing. */
    ROLLING_BACK(5);

    final int code;

    Phase(int code) {
      this.code = code;
    }
  }

  public MemberTxn {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(reason, "reason");
    members = List.copyOf(members);
    if (removed == null && added == null) {
      throw new IllegalArgumentException("a member change needs a member to add or to remove");
    }
  }

  public MemberTxn at(Phase next) {
    return new MemberTxn(id, next, region, members, removed, added, oldFirst, makePrimary, reason);
  }

  public MemberTxn rollingBack(String why) {
    return new MemberTxn(id, Phase.ROLLING_BACK, region, members, removed, added, oldFirst, makePrimary, why);
  }

  /** The members before the new one is added: all of them, or without the old one if it goes first. */
  public List<Member> base() {
    List<Member> out = new ArrayList<>(members);
    if (oldFirst && removed != null) {
      out.removeIf(m -> m.isOn(removed.server()));
    }
    return out;
  }

  /** The base with the new member added. */
  public List<Member> withAdded() {
    List<Member> out = base();
    if (added != null) {
      out.add(added);
    }
    return out;
  }

  /** The members at the end: the new one in, the old one out. */
  public List<Member> result() {
    List<Member> out = withAdded();
    if (removed != null) {
      out.removeIf(m -> m.isOn(removed.server()));
    }
    return out;
  }

  /**
   * The members that only this change opens and closes while it is in flight, which assignment leaves
   * alone: the new one until it joined (from then on the group needs it to elect and to record changes,
   * as any member), and the old one once its removal is decided (before that it is an ordinary member,
   * reopened after a restart of its server like the others).
   */
  public List<Member> ownMembers() {
    List<Member> out = new ArrayList<>();
    if (added != null && phase != Phase.JOINED) {
      out.add(added);
    }
    if (removed != null && (phase == Phase.JOINED || phase == Phase.REMOVING_OLD || phase == Phase.ADDING)) {
      out.add(removed);
    }
    return out;
  }

  @Override
  public byte[] toBytes() {
    TxnCodec.Writer w = new TxnCodec.Writer(KIND, VERSION).raw(phase.code).string(id).region(region)
        .raw((oldFirst ? 1 : 0) | (makePrimary ? 2 : 0)).varint(members.size());
    members.forEach(m -> member(w, m));
    optional(w, removed);
    optional(w, added);
    return w.string(reason).toBytes();
  }

  private static void member(TxnCodec.Writer w, Member m) {
    w.server(m.server()).varint(m.port());
  }

  private static void optional(TxnCodec.Writer w, Member m) {
    if (m == null) {
      w.raw(0);
    } else {
      member(w.raw(1), m);
    }
  }

  public static MemberTxn parse(byte[] data) throws IOException {
    TxnCodec.Reader r = new TxnCodec.Reader(data, KIND, VERSION, "member transaction");
    Phase phase = r.phase(Phase.values(), p -> p.code);
    String id = r.string();
    RegionInfo region = r.region();
    int flags = r.raw();
    long count = r.varint();
    if (count > 64) {
      throw new IOException("corrupt member transaction record: " + count + " members");
    }
    List<Member> members = new ArrayList<>();
    for (long i = 0; i < count; i++) {
      members.add(member(r));
    }
    Member removed = optional(r);
    Member added = optional(r);
    String reason = r.string();
    r.end();
    try {
      return new MemberTxn(id, phase, region, members, removed, added, (flags & 1) != 0, (flags & 2) != 0, reason);
    } catch (IllegalArgumentException e) {
      throw new IOException("corrupt member transaction record: " + e.getMessage(), e);
    }
  }

  private static Member member(TxnCodec.Reader r) throws IOException {
    try {
      return new Member(r.server(), (int) r.varint());
    } catch (IllegalArgumentException e) {
      throw new IOException("corrupt member transaction record: " + e.getMessage(), e);
    }
  }

  private static Member optional(TxnCodec.Reader r) throws IOException {
    int present = r.raw();
    if (present > 1) {
      throw new IOException("corrupt member transaction record: member flag " + present);
    }
    return present == 0 ? null : member(r);
  }

  @Override
  public String toString() {
    return "MemberTxn[" + id + " " + phase + " " + region.getRegionNameAsString() + " "
        + (removed == null ? "" : "-" + removed.server().getAddress() + " ")
        + (added == null ? "" : "+" + added.server().getAddress() + ":" + added.port() + " ")
        + (oldFirst ? "old first" : "new first") + (makePrimary ? ", new primary" : "")
        + (reason.isEmpty() ? "" : " (" + reason + ")") + "]";
  }
}
