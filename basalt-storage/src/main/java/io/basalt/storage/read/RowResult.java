package io.basalt.storage.read;

import io.basalt.storage.cell.Cell;
import java.util.List;

/**
 * Cells of one row in HBase order. {@code partial} is true when more cells of the same row follow in the
 * next result (intra-row batching).
 */
public record RowResult(byte[] row, List<Cell> cells, boolean partial) {
  public long estimatedSize() {
    long s = 0;
    for (Cell c : cells) {
      s += c.estimatedSize();
    }
    return s;
  }
}
