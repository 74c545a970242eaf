package io.basalt.bench.report;

import java.util.ArrayList;
import java.util.List;

/** A Markdown table with its columns padded so it also reads well as plain text. */
public final class MarkdownTable {
  private final String[] header;
  private final boolean[] rightAligned;
  private final List<String[]> rows = new ArrayList<>();

  /** A header cell starting with '>' is a right-aligned (numeric) column; the '>' is not printed. */
  public MarkdownTable(String... header) {
    this.header = new String[header.length];
    this.rightAligned = new boolean[header.length];
    for (int i = 0; i < header.length; i++) {
      rightAligned[i] = header[i].startsWith(">");
      this.header[i] = rightAligned[i] ? header[i].substring(1) : header[i];
    }
  }

  public void row(String... cells) {
    if (cells.length != header.length) {
      throw new IllegalArgumentException(cells.length + " cells for " + header.length + " columns");
    }
    rows.add(cells.clone());
  }

  public String render() {
    int[] width = new int[header.length];
    for (int i = 0; i < header.length; i++) {
      width[i] = Math.max(3, header[i].length());
      for (String[] r : rows) {
        width[i] = Math.max(width[i], r[i].length());
      }
    }
    StringBuilder sb = new StringBuilder();
    line(sb, header, width);
    sb.append('|');
    for (int i = 0; i < header.length; i++) {
      sb.append(' ').append("-".repeat(width[i] - (rightAligned[i] ? 1 : 0))).append(rightAligned[i] ? ":" : "").append(" |");
    }
    sb.append('\n');
    for (String[] r : rows) {
      line(sb, r, width);
    }
    return sb.toString();
  }

  private void line(StringBuilder sb, String[] cells, int[] width) {
    sb.append('|');
    for (int i = 0; i < cells.length; i++) {
      String pad = " ".repeat(width[i] - cells[i].length());
      sb.append(' ').append(rightAligned[i] ? pad + cells[i] : cells[i] + pad).append(" |");
    }
    sb.append('\n');
  }
}
