package io.basalt.server.catalog;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.exceptions.DeserializationException;

/**
 * One region in the RegionMap: its identity, the server whose disk holds its data (null before it was
 * first placed), its state, for a split parent its two daughters, and for a replicated region the members
 * of its replica group. A replicated region's {@link #server()} is the member it was placed on first; which
 * member is primary now is the group's to decide ({@link Primaries}). A replicated region's JE group is named
 * after the region it descends from by splits ({@link #group()}): split daughters keep their parent's group name
 * (JE cannot rename a group), so their groups are told apart by their members' addresses.
 * <pre>
 * version 3: as version 2, then UTF inherited group ("" for a region never split: its group is its own name)
 * version 2: int32 -1 | byte 2 | region | UTF server ("" if none) | UTF state | region? splitA | region? splitB
 *            | int32 memberCount | (UTF server | int32 port)*
 *   region  = int32 len | RegionInfo PBUF bytes;  region? = int32 0 for none, else a region
 * version 1: as version 2 without the members (an unreplicated region)
 * version 0 (before splits): int32 len | RegionInfo bytes | UTF server | UTF state
 * </pre>
 */
public record RegionRecord(RegionInfo info, ServerName server, String state, RegionInfo splitA, RegionInfo splitB,
    List<Member> members, String inheritedGroup) {
  /** Assigned to {@link #server()} (served while that server is up). */
  public static final String OPEN = "OPEN";
  /** Its table is disabled. */
  public static final String CLOSED = "CLOSED";
  /** Being split: not served until the split finishes or is undone. */
  public static final String SPLITTING = "SPLITTING";
  /** Being moved to another server. */
  public static final String MOVING = "MOVING";
  /** A retired split parent; its daughters serve its rows. */
  public static final String SPLIT = "SPLIT";

  public RegionRecord {
    members = List.copyOf(members);
    if (inheritedGroup == null) {
      throw new IllegalArgumentException("inheritedGroup is \"\" for a region never split, not null");
    }
  }

  public RegionRecord(RegionInfo info, ServerName server, String state, RegionInfo splitA, RegionInfo splitB,
      List<Member> members) {
    this(info, server, state, splitA, splitB, members, "");
  }

  public RegionRecord(RegionInfo info, ServerName server, String state, RegionInfo splitA, RegionInfo splitB) {
    this(info, server, state, splitA, splitB, List.of());
  }

  public RegionRecord(RegionInfo info, ServerName server, String state) {
    this(info, server, state, null, null);
  }

  /** A region whose data lives in a replica group of these members (the first is where it was created). */
  public static RegionRecord replicated(RegionInfo info, String state, List<Member> members) {
    return new RegionRecord(info, members.get(0).server(), state, null, null, members);
  }

  /**
   * A daughter of a replicated split: its own members (at new ports), and its parent's JE group name, which
   * its members' cloned logs carry.
   */
  public static RegionRecord daughterOf(RegionRecord parent, RegionInfo daughter, String state, List<Member> members) {
    return new RegionRecord(daughter, members.get(0).server(), state, null, null, members, parent.group());
  }

  public boolean replicated() {
    return !members.isEmpty();
  }

  /**
   * The name of the region's JE replica group, the one place it is decided: the encoded name of the region
   * it descends from by splits (its own for a region never split).
   */
  public String group() {
    return inheritedGroup.isEmpty() ? info.getEncodedName() : inheritedGroup;
  }

  public RegionRecord withState(String newState) {
    return new RegionRecord(info, server, newState, splitA, splitB, members, inheritedGroup);
  }

  public RegionRecord withServer(ServerName newServer) {
    return new RegionRecord(info, newServer, state, splitA, splitB, members, inheritedGroup);
  }

  public RegionRecord withMembers(List<Member> newMembers) {
    return new RegionRecord(info, newMembers.isEmpty() ? server : newMembers.get(0).server(), state, splitA, splitB,
        newMembers, inheritedGroup);
  }

  /** The member on the server at {@code server}'s address, if any. */
  public Optional<Member> memberOn(ServerName server) {
    return members.stream().filter(m -> m.isOn(server)).findFirst();
  }

  byte[] encode() {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      DataOutputStream out = new DataOutputStream(bytes);
      out.writeInt(-1);
      out.writeByte(3);
      writeRegion(out, info);
      out.writeUTF(server == null ? "" : server.getServerName());
      out.writeUTF(state);
      writeRegion(out, splitA);
      writeRegion(out, splitB);
      out.writeInt(members.size());
      for (Member m : members) {
        out.writeUTF(m.server().getServerName());
        out.writeInt(m.port());
      }
      out.writeUTF(inheritedGroup);
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static void writeRegion(DataOutputStream out, RegionInfo r) throws IOException {
    if (r == null) {
      out.writeInt(0);
      return;
    }
    byte[] b = RegionInfo.toByteArray(r);
    out.writeInt(b.length);
    out.write(b);
  }

  private static RegionInfo readRegion(DataInputStream in, int length) throws IOException {
    if (length == 0) {
      return null;
    }
    byte[] b = new byte[length];
    in.readFully(b);
    try {
      return RegionInfo.parseFrom(b);
    } catch (DeserializationException e) {
      throw new IOException("corrupt region record", e);
    }
  }

  static RegionRecord decode(byte[] data) throws IOException {
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
    int first = in.readInt();
    if (first >= 0) {
      RegionInfo info = readRegion(in, first);
      String server = in.readUTF();
      return new RegionRecord(info, server.isEmpty() ? null : ServerName.valueOf(server), in.readUTF());
    }
    int version = in.readByte();
    if (version < 1 || version > 3) {
      throw new IOException("region record of unknown version " + version + ": written by a newer Basalt?");
    }
    RegionInfo info = readRegion(in, in.readInt());
    String server = in.readUTF();
    String state = in.readUTF();
    RegionInfo a = readRegion(in, in.readInt());
    RegionInfo b = readRegion(in, in.readInt());
    List<Member> members = new ArrayList<>();
    if (version >= 2) {
      int n = in.readInt();
      if (n < 0 || n > 64) {
        throw new IOException("corrupt region record: " + n + " members");
      }
      for (int i = 0; i < n; i++) {
        members.add(new Member(ServerName.valueOf(in.readUTF()), in.readInt()));
      }
    }
    String inherited = version >= 3 ? in.readUTF() : "";
    return new RegionRecord(info, server.isEmpty() ? null : ServerName.valueOf(server), state, a, b, members,
        inherited);
  }
}
