package io.basalt.storage.schema;

import io.basalt.storage.cell.Bytes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** What a region store needs to know about itself: its families (sorted by name) and its rows. */
public record RegionDescriptor(List<FamilySchema> families, KeyRange range) {
  public RegionDescriptor {
    List<FamilySchema> sorted = new ArrayList<>(families);
    sorted.sort(Comparator.comparing(FamilySchema::name, Bytes::compare));
    for (int i = 1; i < sorted.size(); i++) {
      if (Bytes.compare(sorted.get(i - 1).name(), sorted.get(i).name()) == 0) {
        throw new IllegalArgumentException("duplicate family " + sorted.get(i).nameAsString());
      }
    }
    families = List.copyOf(sorted);
  }

  public Optional<FamilySchema> family(byte[] name) {
    for (FamilySchema f : families) {
      if (Bytes.compare(f.name(), name) == 0) {
        return Optional.of(f);
      }
    }
    return Optional.empty();
  }

  public RegionDescriptor withRange(KeyRange r) {
    return new RegionDescriptor(families, r);
  }

  public RegionDescriptor withFamilies(List<FamilySchema> f) {
    return new RegionDescriptor(f, range);
  }
}
