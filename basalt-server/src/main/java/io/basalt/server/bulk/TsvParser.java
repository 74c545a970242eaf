package io.basalt.server.bulk;

import io.basalt.storage.mutation.RowMutation;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * One input line to one row's puts, exactly as HBase's ImportTsv parses it: fields split on the separator byte
 * with no quoting or escaping, the row key and optional timestamp taken from their columns, every other field a
 * cell (an empty field an empty value, unless empty columns are skipped). Lines ImportTsv calls bad are bad
 * here with its message: no separator, more fields than columns, no row key or timestamp field, an empty row
 * key, a timestamp that is not a number.
 */
public final class TsvParser {
  private final ImportOptions options;
  private int[] separators = new int[16];

  public TsvParser(ImportOptions options) {
    this.options = options;
  }

  /** A line ImportTsv rejects, with its reason. */
  public static final class BadLineException extends Exception {
    private static final long serialVersionUID = 1L;

    public BadLineException(String reason) {
      super(reason);
    }
  }

  /** The puts of {@code line[0, length)}; the cells carry the line's timestamp or the import's. */
  public RowMutation parse(byte[] line, int length) throws BadLineException {
    int fields = 0;
    for (int i = 0; i < length; i++) {
      if (line[i] == options.separator()) {
        if (fields == separators.length) {
          separators = Arrays.copyOf(separators, fields * 2);
        }
        separators[fields++] = i;
      }
    }
    if (fields == 0) {
      throw new BadLineException("No delimiter");
    }
    if (fields == separators.length) {
      separators = Arrays.copyOf(separators, fields * 2);
    }
    separators[fields++] = length; // now the end of every field
    if (fields > options.columnCount()) {
      throw new BadLineException("Excessive columns");
    }
    if (fields <= options.rowKeyIndex()) {
      throw new BadLineException("No row key");
    }
    if (options.timestampIndex() >= 0 && fields <= options.timestampIndex()) {
      throw new BadLineException("No timestamp");
    }
    long ts = options.timestamp();
    if (options.timestampIndex() >= 0) {
      int t = options.timestampIndex();
      String text = new String(line, start(t), end(t) - start(t), StandardCharsets.UTF_8);
      try {
        ts = Long.parseLong(text);
      } catch (NumberFormatException e) {
        throw new BadLineException("Invalid timestamp " + text);
      }
      if (ts < 0) {
        throw new BadLineException("Timestamp cannot be negative. ts=" + ts);
      }
      if (ts == RowMutation.LATEST) {
        // HBase's server stamps such a cell with its clock; the import's own timestamp keeps a rerun idempotent.
        ts = options.timestamp();
      }
    }
    int r = options.rowKeyIndex();
    if (end(r) == start(r)) {
      throw new BadLineException("Row length is 0"); // HBase's Put refuses it, and ImportTsv counts a bad line
    }
    if (end(r) - start(r) > Short.MAX_VALUE) {
      throw new BadLineException("Row length " + (end(r) - start(r)) + " is > " + Short.MAX_VALUE);
    }
    RowMutation.Builder put = RowMutation.of(Arrays.copyOfRange(line, start(r), end(r)));
    boolean any = false;
    for (int i = 0; i < fields; i++) {
      if (i == r || i == options.timestampIndex() || options.skipEmptyColumns() && end(i) == start(i)) {
        continue;
      }
      put.put(options.columnFamilies()[i], options.columnQualifiers()[i], ts, Arrays.copyOfRange(line, start(i), end(i)));
      any = true;
    }
    if (!any) {
      // HBase's client refuses a Put without cells ("No columns to insert"), failing its ImportTsv job.
      throw new BadLineException("No columns to insert");
    }
    return put.build();
  }

  private int start(int field) {
    return field == 0 ? 0 : separators[field - 1] + 1;
  }

  private int end(int field) {
    return separators[field];
  }
}
