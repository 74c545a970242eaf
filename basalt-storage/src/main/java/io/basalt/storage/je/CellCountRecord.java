package io.basalt.storage.je;

import io.basalt.storage.schema.KeyRange;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The region's cell count as of its last clean close, one record in {@code basalt.meta} beside the
 * {@link RegionMetadata}. Opening takes the count from here instead of reading the whole index, then deletes
 * the record before any write: a record that is present always matches the data behind it (a crash after
 * later writes finds none, since the log is replayed in order).
 *
 * <pre>
 * record = int formatVersion (=1)  long cells  bytes rangeStart  bytes rangeEnd   (bytes = int length + data)
 * </pre>
 *
 * The range says what was counted: a clone opened on a narrower range (a split daughter) must count again.
 */
record CellCountRecord(long cells, KeyRange range) {
  static final int FORMAT_VERSION = 1;
  static final byte[] KEY = {'c', 'e', 'l', 'l', 's'};

  byte[] encode() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(FORMAT_VERSION);
      out.writeLong(cells);
      RegionMetadata.writeBytes(out, range.start());
      RegionMetadata.writeBytes(out, range.end());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  /** The stored record, or null when it is of another format (counting again is always safe). */
  static CellCountRecord decode(byte[] data) {
    try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
      if (in.readInt() != FORMAT_VERSION) {
        return null;
      }
      long cells = in.readLong();
      return new CellCountRecord(cells, new KeyRange(RegionMetadata.readBytes(in), RegionMetadata.readBytes(in)));
    } catch (IOException e) {
      return null;
    }
  }
}
