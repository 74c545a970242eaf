package io.basalt.server.master.protocol;

import io.basalt.server.catalog.Member;
import java.util.Arrays;
import java.util.List;

/**
 * What the driver reports back when an action completed. Most actions report {@link #DONE}; {@link
 * Action.ChooseMidpoint} reports a {@link SplitPoint} or {@link NoSplitPoint}, {@link Action.PreClose}
 * and {@link Action.Close} report a {@link Manifest}; a split of a replica group reports {@link
 * DaughterMembers} ({@link Action.ChooseDaughterPorts}) and {@link LogPosition}s ({@link Action.SealGroup},
 * {@link Action.CloseAndCloneMember}); {@link Action.InParallel} reports {@link Each}.
 */
public sealed interface Result permits Result.Done, Result.SplitPoint, Result.NoSplitPoint, Result.Manifest,
    Result.DaughterMembers, Result.LogPosition, Result.Each, Result.MergedMembers {
  Done DONE = new Done();

  /** The action did all it had to and has nothing to tell. */
  record Done() implements Result {}

  /** The row to split at (the first row of daughter B). */
  record SplitPoint(byte[] row) implements Result {
    public SplitPoint {
      row = row.clone();
    }

    @Override
    public byte[] row() {
      return row.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof SplitPoint s && Arrays.equals(row, s.row);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(row);
    }
  }

  /** The region cannot be split now (one row only, or empty). */
  record NoSplitPoint(String reason) implements Result {}

  /**
   * Which log segments a move ships and where from, opaque to the protocol (the driver's encoding of a
   * segment manifest and the source's transfer address); handed as is to the target.
   */
  record Manifest(byte[] bytes) implements Result {
    public Manifest {
      bytes = bytes.clone();
    }

    @Override
    public byte[] bytes() {
      return bytes.clone();
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Manifest m && Arrays.equals(bytes, m.bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }
  }

  /**
   * The members of a replicated split's daughters: one per member of the parent, on the same server, at a
   * replication port of its own (never one of the parent's, nor one the other daughter got).
   */
  record DaughterMembers(List<Member> a, List<Member> b) implements Result {
    public DaughterMembers {
      a = List.copyOf(a);
      b = List.copyOf(b);
    }
  }

  /** The members of a replicated merge's region: one per member of the base, on its server, at a new port. */
  record MergedMembers(List<Member> members) implements Result {
    public MergedMembers {
      members = List.copyOf(members);
    }
  }

  /** Where a member's log ends (JE's VLSN of its last entry). */
  record LogPosition(long position) implements Result {}

  /** The results of {@link Action.InParallel}'s parts, in the parts' order. */
  record Each(List<Result> results) implements Result {
    public Each {
      results = List.copyOf(results);
    }
  }
}
