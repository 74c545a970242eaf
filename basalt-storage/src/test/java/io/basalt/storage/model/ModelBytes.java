package io.basalt.storage.model;

/** Byte helpers of the reference model, written apart from the store's own {@code Bytes}. */
final class ModelBytes {
  private ModelBytes() {}

  /** Unsigned lexicographic order; a proper prefix sorts first. */
  static int compare(byte[] a, byte[] b) {
    int n = Math.min(a.length, b.length);
    for (int i = 0; i < n; i++) {
      int x = a[i] & 0xFF;
      int y = b[i] & 0xFF;
      if (x != y) {
        return x < y ? -1 : 1;
      }
    }
    return Integer.compare(a.length, b.length);
  }

  static byte[] ofLong(long v) {
    byte[] out = new byte[8];
    for (int i = 0; i < 8; i++) {
      out[i] = (byte) (v >>> (56 - 8 * i));
    }
    return out;
  }

  static long toLong(byte[] b) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (b[i] & 0xFFL);
    }
    return v;
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  static String hex(byte[] b) {
    StringBuilder sb = new StringBuilder();
    for (byte x : b) {
      sb.append(Character.forDigit((x >> 4) & 0xF, 16)).append(Character.forDigit(x & 0xF, 16));
    }
    return sb.toString();
  }

  /** Printable ASCII as is, other bytes as \xNN, the empty array as "". */
  static String show(byte[] b) {
    if (b == null) {
      return "null";
    }
    StringBuilder sb = new StringBuilder("\"");
    for (byte x : b) {
      int c = x & 0xFF;
      if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
        sb.append((char) c);
      } else {
        sb.append(String.format("\\x%02X", c));
      }
    }
    return sb.append('"').toString();
  }

  /** A timestamp for messages: LATEST / MAX shown by name. */
  static String ts(long ts) {
    return ts == Long.MAX_VALUE ? "MAX" : Long.toString(ts);
  }

  /** Java source for a byte array, for pasting a failing sequence into a unit test. */
  static String java(byte[] b) {
    if (b == null) {
      return "null";
    }
    StringBuilder sb = new StringBuilder("new byte[] {");
    for (int i = 0; i < b.length; i++) {
      int c = b[i];
      sb.append(i == 0 ? "" : ", ");
      sb.append(c >= 0x20 && c < 0x7F && c != '\'' && c != '\\' ? "'" + (char) c + "'" : "(byte) " + c);
    }
    return sb.append('}').toString();
  }
}
