package io.basalt.storage.read;

import io.basalt.storage.cell.Bytes;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which families and columns a read returns: all of them, or for each named family either all its columns
 * or an explicit qualifier list (HBase's {@code addFamily}/{@code addColumn}).
 */
public final class ColumnSelection {
  public static final ColumnSelection ALL = new ColumnSelection(null);

  /** family → sorted qualifiers, or null for the whole family; null map = all families. */
  private final TreeMap<byte[], List<byte[]>> families;

  private ColumnSelection(TreeMap<byte[], List<byte[]>> families) {
    this.families = families;
  }

  public static Builder builder() {
    return new Builder();
  }

  public boolean isAll() {
    return families == null;
  }

  public boolean includesFamily(byte[] family) {
    return families == null || families.containsKey(family);
  }

  /** Sorted explicit qualifiers of a family, or null when the whole family is read. */
  public List<byte[]> qualifiers(byte[] family) {
    return families == null ? null : families.get(family);
  }

  public Collection<byte[]> namedFamilies() {
    return families == null ? List.of() : families.keySet();
  }

  /** Builds a selection; adding a whole family overrides columns of that family, as in HBase. */
  public static final class Builder {
    private final TreeMap<byte[], List<byte[]>> families = new TreeMap<>(Bytes::compare);

    public Builder family(byte[] family) {
      families.put(family, null);
      return this;
    }

    public Builder column(byte[] family, byte[] qualifier) {
      if (families.containsKey(family) && families.get(family) == null) {
        return this;
      }
      List<byte[]> q = families.computeIfAbsent(family, f -> new ArrayList<>());
      if (q.stream().noneMatch(x -> Bytes.compare(x, qualifier) == 0)) {
        q.add(qualifier == null ? Bytes.EMPTY : qualifier);
        q.sort(Bytes::compare);
      }
      return this;
    }

    public ColumnSelection build() {
      if (families.isEmpty()) {
        return ALL;
      }
      TreeMap<byte[], List<byte[]>> copy = new TreeMap<>(Bytes::compare);
      for (Map.Entry<byte[], List<byte[]>> e : families.entrySet()) {
        copy.put(e.getKey(), e.getValue() == null ? null : List.copyOf(e.getValue()));
      }
      return new ColumnSelection(copy);
    }
  }
}
