package io.basalt.server.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.junit.jupiter.api.Test;

class RegionRecordTest {
  private static final RegionInfo REGION = RegionInfoBuilder.newBuilder(TableName.valueOf("t"))
      .setStartKey(new byte[] {'a'}).setEndKey(new byte[] {'m'}).setRegionId(42).build();
  private static final ServerName A = ServerName.valueOf("h1", 16020, 1);
  private static final ServerName B = ServerName.valueOf("h2", 16020, 2);
  private static final ServerName C = ServerName.valueOf("h3", 16021, 3);

  @Test
  void aReplicatedRecordKeepsItsMembersThroughEncoding() throws IOException {
    RegionRecord r = RegionRecord.replicated(REGION, RegionRecord.OPEN,
        List.of(new Member(A, 16500), new Member(B, 16501), new Member(C, 16600)));
    RegionRecord back = RegionRecord.decode(r.encode());
    assertThat(back).isEqualTo(r);
    assertThat(back.replicated()).isTrue();
    assertThat(back.server()).as("the founding member").isEqualTo(A);
    assertThat(back.memberOn(ServerName.valueOf("h2", 16020, 99))).as("matched by address, any start code")
        .contains(new Member(B, 16501));
    assertThat(back.withState(RegionRecord.CLOSED).members()).isEqualTo(r.members());
  }

  @Test
  void recordsWrittenBeforeReplicationStillRead() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(-1);
    out.writeByte(1);
    byte[] info = RegionInfo.toByteArray(REGION);
    out.writeInt(info.length);
    out.write(info);
    out.writeUTF(A.getServerName());
    out.writeUTF(RegionRecord.OPEN);
    out.writeInt(0);
    out.writeInt(0);
    RegionRecord r = RegionRecord.decode(bytes.toByteArray());
    assertThat(r).isEqualTo(new RegionRecord(REGION, A, RegionRecord.OPEN));
    assertThat(r.replicated()).isFalse();
  }

  @Test
  void aCorruptMemberCountIsAnError() {
    byte[] good = RegionRecord.replicated(REGION, RegionRecord.OPEN, List.of(new Member(A, 16500))).encode();
    byte[] bad = good.clone();
    int countAt = bad.length - (2 /* empty inherited group */ + 4 + 2 + A.getServerName().length() + 4);
    bad[countAt] = 0x7f;
    assertThatThrownBy(() -> RegionRecord.decode(bad)).isInstanceOf(IOException.class);
  }

  @Test
  void aDaughterKeepsTheGroupNameOfTheRegionItDescendsFrom() throws IOException {
    RegionRecord parent = RegionRecord.replicated(REGION, RegionRecord.OPEN, List.of(new Member(A, 16500)));
    assertThat(parent.group()).as("a region never split: its own name").isEqualTo(REGION.getEncodedName());
    RegionInfo low = RegionInfoBuilder.newBuilder(REGION.getTable()).setStartKey(new byte[] {'a'})
        .setEndKey(new byte[] {'g'}).setRegionId(43).build();
    RegionInfo lower = RegionInfoBuilder.newBuilder(REGION.getTable()).setStartKey(new byte[] {'a'})
        .setEndKey(new byte[] {'c'}).setRegionId(44).build();
    RegionRecord daughter = RegionRecord.daughterOf(parent, low, RegionRecord.OPEN, List.of(new Member(B, 16501)));
    RegionRecord granddaughter = RegionRecord.daughterOf(daughter, lower, RegionRecord.OPEN,
        List.of(new Member(C, 16502)));
    assertThat(daughter.group()).isEqualTo(REGION.getEncodedName());
    assertThat(granddaughter.group()).isEqualTo(REGION.getEncodedName());
    RegionRecord back = RegionRecord.decode(granddaughter.encode());
    assertThat(back).isEqualTo(granddaughter);
    assertThat(back.withState(RegionRecord.CLOSED).withMembers(List.of(new Member(A, 16503))).group())
        .isEqualTo(REGION.getEncodedName());
  }

  @Test
  void recordsWrittenBeforeGroupNamesReadAsNeverSplit() throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.writeInt(-1);
    out.writeByte(2);
    byte[] info = RegionInfo.toByteArray(REGION);
    out.writeInt(info.length);
    out.write(info);
    out.writeUTF(A.getServerName());
    out.writeUTF(RegionRecord.OPEN);
    out.writeInt(0);
    out.writeInt(0);
    out.writeInt(1);
    out.writeUTF(A.getServerName());
    out.writeInt(16500);
    RegionRecord r = RegionRecord.decode(bytes.toByteArray());
    assertThat(r).isEqualTo(RegionRecord.replicated(REGION, RegionRecord.OPEN, List.of(new Member(A, 16500))));
    assertThat(r.group()).isEqualTo(REGION.getEncodedName());
  }

  @Test
  void memberNamesAreTheServersAddress() {
    assertThat(new Member(C, 16600).nodeName()).isEqualTo("h3_16021");
    assertThatThrownBy(() -> new Member(C, 0)).isInstanceOf(IllegalArgumentException.class);
  }
}
