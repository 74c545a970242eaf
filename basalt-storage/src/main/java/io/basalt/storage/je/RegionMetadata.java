package io.basalt.storage.je;

import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeepDeletedCells;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What a region directory says about itself, stored as one record in the JE database {@code basalt.meta}
 * of the region's own environment (so a clone carries it along).
 *
 * <pre>
 * record  = int formatVersion (1: cells as records, 2: rows as records, see {@link CellLayout})
 *           bytes rangeStart  bytes rangeEnd       (bytes = int length + data)
 *           boolean pendingCollection             (keys outside the range may still be stored)
 *           int familyCount  family*
 * family  = bytes name  int maxVersions  int minVersions  long ttlSeconds  byte keepDeletedCells (ordinal)
 * </pre>
 */
record RegionMetadata(RegionDescriptor descriptor, boolean pendingCollection, int formatVersion) {
  /** What a new region is written in. A region keeps its version for life (splits, merges and copies included). */
  static final int NEW_REGION_FORMAT = 2;
  /** The oldest and newest versions this release reads and writes. */
  static final int OLDEST_FORMAT = 1;
  static final int NEWEST_FORMAT = 2;

  RegionMetadata {
    if (formatVersion < OLDEST_FORMAT || formatVersion > NEWEST_FORMAT) {
      throw new IllegalStateException("region format version " + formatVersion + " is not supported by this Basalt "
          + "(reads " + OLDEST_FORMAT + " to " + NEWEST_FORMAT + "); run a Basalt release that reads it");
    }
  }

  /** The same region with another range or collection state; the format stays. */
  RegionMetadata with(RegionDescriptor newDescriptor, boolean pending) {
    return new RegionMetadata(newDescriptor, pending, formatVersion);
  }

  CellLayout layout() {
    return CellLayout.ofFormat(formatVersion);
  }
  static final String DATABASE = "basalt.meta";
  static final byte[] KEY = {'r', 'e', 'g', 'i', 'o', 'n'};

  byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(formatVersion);
      writeBytes(out, descriptor.range().start());
      writeBytes(out, descriptor.range().end());
      out.writeBoolean(pendingCollection);
      out.writeInt(descriptor.families().size());
      for (FamilySchema f : descriptor.families()) {
        writeBytes(out, f.name());
        out.writeInt(f.maxVersions());
        out.writeInt(f.minVersions());
        out.writeLong(f.ttlSeconds());
        out.writeByte(f.keepDeletedCells().ordinal());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  static RegionMetadata decode(byte[] data) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
      int version = in.readInt();
      if (version < OLDEST_FORMAT || version > NEWEST_FORMAT) {
        throw new IllegalStateException("region format version " + version + " is not supported by this Basalt "
            + "(reads " + OLDEST_FORMAT + " to " + NEWEST_FORMAT + "); run a Basalt release that reads it");
      }
      KeyRange range = new KeyRange(readBytes(in), readBytes(in));
      boolean pending = in.readBoolean();
      int n = in.readInt();
      List<FamilySchema> families = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        families.add(new FamilySchema(readBytes(in), in.readInt(), in.readInt(), in.readLong(),
            KeepDeletedCells.values()[in.readByte()]));
      }
      return new RegionMetadata(new RegionDescriptor(families, range), pending, version);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static void writeBytes(DataOutputStream out, byte[] b) throws IOException {
    out.writeInt(b.length);
    out.write(b);
  }

  static byte[] readBytes(DataInputStream in) throws IOException {
    byte[] b = new byte[in.readInt()];
    in.readFully(b);
    return b;
  }
}
