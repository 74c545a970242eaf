package io.basalt.storage.schema;

import io.basalt.storage.cell.Bytes;
import java.util.Arrays;

/**
 * Per-family retention settings, with HBase's meanings and defaults: VERSIONS 1, MIN_VERSIONS 0,
 * TTL forever, KEEP_DELETED_CELLS false.
 */
public record FamilySchema(byte[] name, int maxVersions, int minVersions, long ttlSeconds, KeepDeletedCells keepDeletedCells) {
  public static final long FOREVER = Long.MAX_VALUE;

  public FamilySchema {
    validateName(name);
    if (maxVersions < 1) {
      throw new IllegalArgumentException("VERSIONS must be positive, was " + maxVersions);
    }
    if (minVersions < 0 || minVersions > maxVersions) {
      throw new IllegalArgumentException("MIN_VERSIONS must be between 0 and VERSIONS, was " + minVersions);
    }
    if (ttlSeconds <= 0) {
      throw new IllegalArgumentException("TTL must be positive, was " + ttlSeconds);
    }
  }

  public static FamilySchema of(String name) {
    return new FamilySchema(Bytes.of(name), 1, 0, FOREVER, KeepDeletedCells.FALSE);
  }

  public FamilySchema withMaxVersions(int v) {
    return new FamilySchema(name, v, minVersions, ttlSeconds, keepDeletedCells);
  }

  public FamilySchema withMinVersions(int v) {
    return new FamilySchema(name, maxVersions, v, ttlSeconds, keepDeletedCells);
  }

  public FamilySchema withTtlSeconds(long ttl) {
    return new FamilySchema(name, maxVersions, minVersions, ttl, keepDeletedCells);
  }

  public FamilySchema withKeepDeletedCells(KeepDeletedCells k) {
    return new FamilySchema(name, maxVersions, minVersions, ttlSeconds, k);
  }

  public boolean hasTtl() {
    return ttlSeconds != FOREVER;
  }

  /** Cells with a timestamp below this are expired (absent MIN_VERSIONS). */
  public long oldestLiveTimestamp(long nowMillis) {
    if (!hasTtl() || ttlSeconds > nowMillis / 1000) {
      return Long.MIN_VALUE;
    }
    return nowMillis - ttlSeconds * 1000;
  }

  public String nameAsString() {
    return Bytes.toStringBinary(name);
  }

  /** HBase's rule: 1 to 127 bytes, no control characters, ':', '\\' or '/', not starting with '.'. */
  public static void validateName(byte[] name) {
    if (name == null || name.length == 0) {
      throw new IllegalArgumentException("Column family name can not be empty");
    }
    if (name.length > 127) {
      throw new IllegalArgumentException("Column family name is longer than 127 bytes: " + Bytes.toStringBinary(name));
    }
    if (name[0] == '.') {
      throw new IllegalArgumentException("Column family names cannot start with a period: " + Bytes.toStringBinary(name));
    }
    for (byte b : name) {
      if (Character.isISOControl(b) || b == ':' || b == '\\' || b == '/') {
        throw new IllegalArgumentException("Column family name contains illegal character <" + (char) b + ">: "
            + Bytes.toStringBinary(name));
      }
    }
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof FamilySchema f && Arrays.equals(name, f.name) && maxVersions == f.maxVersions
        && minVersions == f.minVersions && ttlSeconds == f.ttlSeconds && keepDeletedCells == f.keepDeletedCells;
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(name) * 31 + maxVersions;
  }

  @Override
  public String toString() {
    return "{NAME => '" + nameAsString() + "', VERSIONS => " + maxVersions + ", MIN_VERSIONS => " + minVersions
        + ", TTL => " + (hasTtl() ? ttlSeconds : "FOREVER") + ", KEEP_DELETED_CELLS => " + keepDeletedCells + "}";
  }
}
