package io.basalt.storage.cell;

/**
 * The kinds of stored cell. Codes are HBase's {@code KeyValue.Type} codes so the RPC edge can map them
 * one to one; at equal row, qualifier and timestamp HBase orders higher codes first (markers before puts).
 */
public enum CellType {
  PUT(4),
  /** Masks the one version of a column with exactly this timestamp. */
  DELETE(8),
  /** Masks every column of the family at exactly this timestamp. */
  DELETE_FAMILY_VERSION(10),
  /** Masks all versions of a column with a timestamp at or below this one. */
  DELETE_COLUMN(12),
  /** Masks all columns of the family with a timestamp at or below this one. */
  DELETE_FAMILY(14);

  private final int code;

  CellType(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  public boolean isDelete() {
    return this != PUT;
  }

  /** Family-level markers carry no qualifier and apply to every column of the row's family. */
  public boolean isFamilyMarker() {
    return this == DELETE_FAMILY || this == DELETE_FAMILY_VERSION;
  }

  /** Decoded for every cell a read reaches: a switch, where {@code values()} would copy the constants each time. */
  public static CellType fromCode(int code) {
    return switch (code) {
      case 4 -> PUT;
      case 8 -> DELETE;
      case 10 -> DELETE_FAMILY_VERSION;
      case 12 -> DELETE_COLUMN;
      case 14 -> DELETE_FAMILY;
      default -> throw new IllegalArgumentException("unknown cell type code " + code);
    };
  }
}
