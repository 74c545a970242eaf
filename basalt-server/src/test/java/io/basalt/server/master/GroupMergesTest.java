package io.basalt.server.master;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.catalog.Member;
import io.basalt.server.catalog.RegionRecord;
import java.util.List;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

/** Which member change brings two replicated regions onto a common server before they merge. */
class GroupMergesTest {
  private static ServerName rs(int i) {
    return ServerName.valueOf("rs" + i, 16020, 1);
  }

  private static RegionRecord region(String start, String end, int... servers) {
    List<Member> members = java.util.Arrays.stream(servers).mapToObj(i -> new Member(rs(i), 30000 + i)).toList();
    return RegionRecord.replicated(RegionInfoBuilder.newBuilder(TableName.valueOf("t")).setStartKey(Bytes.toBytes(start))
        .setEndKey(Bytes.toBytes(end)).setRegionId(1).build(), RegionRecord.OPEN, members);
  }

  @Test
  void regionsSharingAServerNeedNoMove() {
    assertThat(GroupMerges.colocatingMove(region("", "m", 0, 1, 2), region("m", "", 2, 3, 4), rs(3))).isEmpty();
  }

  @Test
  void withoutASharedServerASecondaryOfTheUpperRegionMovesToTheLowerOnesFirstServer() {
    var move = GroupMerges.colocatingMove(region("", "m", 0, 1, 2), region("m", "", 3, 4, 5), rs(3));
    assertThat(move).isPresent();
    assertThat(move.get()[0]).as("not the upper region's primary").isEqualTo(rs(4));
    assertThat(move.get()[1]).isEqualTo(rs(0));
  }
}
