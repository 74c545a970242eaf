package io.basalt.storage.mutation;

import java.util.List;

/** Appends bytes to columns of one row, atomically. A missing column starts empty. */
public record Append(byte[] row, List<Suffix> suffixes, boolean returnResults) implements RowOperation {
  /** One column's addition. */
  public record Suffix(byte[] family, byte[] qualifier, byte[] value) {}

  public Append {
    suffixes = List.copyOf(suffixes);
  }
}
