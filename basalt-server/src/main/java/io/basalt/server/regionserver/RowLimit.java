package io.basalt.server.regionserver;

import io.basalt.storage.read.RowResult;
import java.util.Arrays;
import java.util.List;

/**
 * A scan's row limit as HBase's region server counts it: per call, against the limit the client sends with
 * each call (what it has left by its own count), counting a row when a result completes it, or when a result
 * of another row follows one that said "more in this row" (in this call, or as the last of the call before).
 * The client counts the same way except for a row change inside one response, so the rows a limited scan
 * returns depend on where calls end; counting as HBase does keeps them the same.
 */
final class RowLimit {
  /** What a call returns after the limit, and whether the limit ended the scan. */
  record Cut(List<RowResult> results, boolean reached) {}

  private RowLimit() {}

  /**
   * Keeps the results HBase's call would return. {@code limit} &le; 0: none. {@code rowOfLastPartial}: the row
   * of the previous call's last result if that said "more in this row", else null.
   */
  static Cut apply(List<RowResult> results, int limit, byte[] rowOfLastPartial) {
    if (limit <= 0) {
      return new Cut(results, false);
    }
    int complete = 0;
    byte[] openRow = rowOfLastPartial;
    for (int i = 0; i < results.size(); i++) {
      RowResult r = results.get(i);
      if (openRow != null && !Arrays.equals(openRow, r.row()) && ++complete >= limit) {
        return new Cut(results.subList(0, i), true); // HBase stops before the next row's first result
      }
      if (!r.partial() && ++complete >= limit) {
        return new Cut(results.subList(0, i + 1), true);
      }
      openRow = r.partial() ? r.row() : null;
    }
    return new Cut(results, false);
  }
}
