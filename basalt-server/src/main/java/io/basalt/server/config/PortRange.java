package io.basalt.server.config;

/** Ports {@code first} to {@code last}, both included, written {@code FIRST-LAST}. */
public record PortRange(int first, int last) {
  public PortRange {
    if (first < 1 || last > 65535 || first > last) {
      throw new IllegalArgumentException("must be FIRST-LAST with 1 <= FIRST <= LAST <= 65535");
    }
  }

  public static PortRange parse(String raw) {
    int dash = raw.indexOf('-');
    if (dash < 0) {
      throw new IllegalArgumentException("must be FIRST-LAST, e.g. 16500-16999");
    }
    try {
      return new PortRange(Integer.parseInt(raw.substring(0, dash).trim()), Integer.parseInt(raw.substring(dash + 1).trim()));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("must be FIRST-LAST, e.g. 16500-16999");
    }
  }

  public boolean contains(int port) {
    return port >= first && port <= last;
  }

  public int size() {
    return last - first + 1;
  }

  @Override
  public String toString() {
    return first + "-" + last;
  }
}
