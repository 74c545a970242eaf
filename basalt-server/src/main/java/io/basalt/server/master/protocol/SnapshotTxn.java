package io.basalt.server.master.protocol;

import io.basalt.server.catalog.SnapshotRecord;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.exceptions.DeserializationException;

/**
 * A snapshot being taken, imported or deleted, as persisted before and after each step: the snapshot as it will
 * be (or was) recorded, and where its regions' files are being linked from (the live regions, or an export's
 * directory for an import).
 * <pre>
 * version 2 (see TxnCodec for the framing):
 *   'P' | 2 | phase (1 STARTED, 2 LINKED, 3 ROLLING_BACK, 4 DELETING) | id | snapshot name
 *       | table descriptor (PBUF) | varint creation time | varint parts | (region | server)*
 *       | import directory ("" when taken from the live regions) | reason ("" if none) | owner | CRC32C
 * version 1: the same without the owner (read as "")
 * </pre>
 */
public record SnapshotTxn(String id, Phase phase, SnapshotRecord snapshot, String importFrom, String reason)
    implements Txn {
  static final byte KIND = 'P';
  private static final byte VERSION = 2;

  /** How far it got; what a new master does from each is on {@link SnapshotProtocol} and {@link DeleteSnapshotProtocol}. */
  public enum Phase {
    /** Linking each region's files on its server. Recovery: roll back (drop what was linked). */
    STARTED(1),
    /** Every region's files are linked: the point of no return. Recovery: record the snapshot in the catalog. */
    LINKED(2),
    /** Being undone, for {@link #reason()}. Recovery: finish dropping the linked files. */
    ROLLING_BACK(3),
    /** Being deleted. Recovery: forget it in the catalog, drop its files. */
    DELETING(4);

    final int code;

    Phase(int code) {
      this.code = code;
    }
  }

  public SnapshotTxn {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(snapshot, "snapshot");
    Objects.requireNonNull(importFrom, "importFrom");
    Objects.requireNonNull(reason, "reason");
  }

  public SnapshotTxn at(Phase next) {
    return new SnapshotTxn(id, next, snapshot, importFrom, reason);
  }

  public SnapshotTxn rollingBack(String why) {
    return new SnapshotTxn(id, Phase.ROLLING_BACK, snapshot, importFrom, why);
  }

  @Override
  public byte[] toBytes() {
    TxnCodec.Writer w = new TxnCodec.Writer(KIND, VERSION).raw(phase.code).string(id).string(snapshot.name())
        .bytes(TableDescriptorBuilder.toByteArray(snapshot.table())).varint(snapshot.creationTime())
        .varint(snapshot.parts().size());
    for (SnapshotRecord.Part p : snapshot.parts()) {
      w.region(p.region()).server(p.server());
    }
    return w.string(importFrom).string(reason).string(snapshot.owner()).toBytes();
  }

  public static SnapshotTxn parse(byte[] data) throws IOException {
    // a record of version 1 (before owners) is still read after an upgrade
    byte version = data.length > 1 && data[1] == 1 ? 1 : VERSION;
    TxnCodec.Reader r = new TxnCodec.Reader(data, KIND, version, "snapshot transaction");
    Phase phase = r.phase(Phase.values(), p -> p.code);
    String id = r.string();
    String name = r.string();
    TableDescriptor table;
    try {
      table = TableDescriptorBuilder.parseFrom(r.bytes());
    } catch (DeserializationException e) {
      throw new IOException("corrupt snapshot transaction record: bad table descriptor", e);
    }
    long created = r.varint();
    long n = r.varint();
    if (n > 1_000_000) {
      throw new IOException("corrupt snapshot transaction record: " + n + " regions");
    }
    List<SnapshotRecord.Part> parts = new ArrayList<>();
    for (long i = 0; i < n; i++) {
      parts.add(new SnapshotRecord.Part(r.region(), r.server()));
    }
    String importFrom = r.string();
    String reason = r.string();
    String owner = version >= 2 ? r.string() : "";
    r.end();
    return new SnapshotTxn(id, phase, new SnapshotRecord(name, table, created, parts, owner), importFrom, reason);
  }

  @Override
  public String toString() {
    return "SnapshotTxn[" + id + " " + phase + " " + snapshot.name() + " of " + snapshot.table().getTableName() + ", "
        + snapshot.parts().size() + " regions" + (importFrom.isEmpty() ? "" : " from " + importFrom)
        + (reason.isEmpty() ? "" : " (" + reason + ")") + "]";
  }
}
