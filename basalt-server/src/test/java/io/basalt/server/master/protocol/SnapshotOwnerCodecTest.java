package io.basalt.server.master.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.catalog.SnapshotRecord;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.junit.jupiter.api.Test;

/**
 * A snapshot's owner survives the catalog entry and the snapshot transaction (recovery records it as taken), and
 * entries and transactions written before owners existed (version 1) are still read, as owned by no one.
 */
class SnapshotOwnerCodecTest {
  private static SnapshotRecord owned(String owner) {
    return new SnapshotRecord("s1", SimSnapshots.table(SimSnapshots.SOURCE), 1000,
        List.of(new SnapshotRecord.Part(RegionInfoBuilder.newBuilder(SimSnapshots.SOURCE).build(), SimCluster.server(0))),
        owner);
  }

  @Test
  void theOwnerSurvivesTheCatalogEntryAndTheTransaction() throws Exception {
    SnapshotRecord s = owned("tara");
    assertThat(SnapshotRecord.decode(s.encode()).owner()).isEqualTo("tara");
    assertThat(SnapshotRecord.decode(s.encode())).isEqualTo(s);
    SnapshotTxn txn = new SnapshotTxn("snapshot-s1", SnapshotTxn.Phase.LINKED, s, "", "");
    assertThat(((SnapshotTxn) Txn.parse(txn.toBytes())).snapshot().owner()).isEqualTo("tara");
    assertThat(Txn.parse(txn.toBytes())).isEqualTo(txn);
    assertThat(SnapshotRecord.decode(owned("").encode()).owner()).isEmpty();
  }

  @Test
  void version1EntriesAndTransactionsAreReadAsOwnedByNoOne() throws Exception {
    // a version 1 catalog entry: version 2's bytes without the owner (an empty UTF: two zero bytes), re-checksummed
    byte[] v2 = owned("").encode();
    byte[] body = Arrays.copyOf(v2, v2.length - 4 - 2);
    body[0] = 1;
    CRC32C crc = new CRC32C();
    crc.update(body);
    byte[] v1 = ByteBuffer.allocate(body.length + 4).put(body).putInt((int) crc.getValue()).array();
    SnapshotRecord read = SnapshotRecord.decode(v1);
    assertThat(read.owner()).isEmpty();
    assertThat(read.name()).isEqualTo("s1");
    assertThat(read.parts()).hasSize(1);

    // a version 1 transaction, as the earlier SnapshotTxn wrote it
    SnapshotRecord s = owned("");
    TxnCodec.Writer w = new TxnCodec.Writer(SnapshotTxn.KIND, (byte) 1).raw(SnapshotTxn.Phase.LINKED.code)
        .string("snapshot-s1").string(s.name()).bytes(TableDescriptorBuilder.toByteArray(s.table()))
        .varint(s.creationTime()).varint(1);
    w.region(s.parts().get(0).region()).server(s.parts().get(0).server());
    SnapshotTxn old = (SnapshotTxn) Txn.parse(w.string("").string("").toBytes());
    assertThat(old.snapshot().owner()).isEmpty();
    assertThat(old.phase()).isEqualTo(SnapshotTxn.Phase.LINKED);
    assertThat(old.snapshot().parts()).isEqualTo(s.parts());
  }
}
