package io.basalt.server.master;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.catalog.Member;
import io.basalt.server.catalog.RegionRecord;
import java.util.List;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.exceptions.MergeRegionException;
import org.apache.hadoop.hbase.util.Bytes;
import org.junit.jupiter.api.Test;

class MergeRulesTest {
  private static final ServerName RS = ServerName.valueOf("rs0", 16020, 1);
  private static final TableName T = TableName.valueOf("t");

  private static RegionRecord open(TableName table, String start, String end) {
    RegionInfo info = RegionInfoBuilder.newBuilder(table).setStartKey(Bytes.toBytes(start))
        .setEndKey(Bytes.toBytes(end)).setRegionId(1).build();
    return new RegionRecord(info, RS, RegionRecord.OPEN);
  }

  @Test
  void adjacentRegionsComeBackLowerFirstWhicheverWayTheyWereNamed() throws Exception {
    RegionRecord low = open(T, "", "m");
    RegionRecord high = open(T, "m", "");
    assertThat(MergeRules.check(List.of(high, low), false)).containsExactly(low, high);
    assertThat(MergeRules.check(List.of(low, high), false)).containsExactly(low, high);
  }

  @Test
  void hbasesRefusalsComeWithItsExceptionClassAndMessage() {
    RegionRecord a = open(T, "", "g");
    RegionRecord c = open(T, "p", "");
    assertThatThrownBy(() -> MergeRules.check(List.of(a, c), false)).isInstanceOf(MergeRegionException.class)
        .hasMessageContaining("Unable to merge non-adjacent or non-overlapping regions").hasMessageEndingWith(
            "when force=false");
    assertThatThrownBy(() -> MergeRules.check(List.of(a, a), false)).isInstanceOf(MergeRegionException.class)
        .hasMessage("Duplicate regions specified; cannot merge a region to itself. Passed in 2 but only 1 unique.");
    assertThatThrownBy(() -> MergeRules.check(List.of(a), false)).isInstanceOf(MergeRegionException.class)
        .hasMessage("Need two Regions at least to run a Merge");
    assertThatThrownBy(() -> MergeRules.check(List.of(a, open(TableName.valueOf("u"), "g", "")), false))
        .isInstanceOf(MergeRegionException.class).hasMessageContaining("Can't merge regions from different tables");
    RegionRecord closed = open(T, "g", "p").withState(RegionRecord.CLOSED);
    assertThatThrownBy(() -> MergeRules.check(List.of(a, closed), false)).isInstanceOf(MergeRegionException.class)
        .hasMessageContaining("is not OPEN; state=CLOSED");
  }

  @Test
  void whatBasaltDoesNotDoIsRefusedNamingTheGap() {
    RegionRecord a = open(T, "", "g");
    RegionRecord b = open(T, "g", "p");
    RegionRecord c = open(T, "p", "");
    assertThatThrownBy(() -> MergeRules.check(List.of(a, c), true)).isInstanceOf(DoNotRetryIOException.class)
        .isNotInstanceOf(MergeRegionException.class).hasMessageContaining("not supported by Basalt");
    assertThatThrownBy(() -> MergeRules.check(List.of(a, b, c), false)).isInstanceOf(DoNotRetryIOException.class)
        .hasMessageContaining("two at a time");
    List<Member> members = List.of(new Member(RS, 30000), new Member(ServerName.valueOf("rs1", 16020, 1), 30000),
        new Member(ServerName.valueOf("rs2", 16020, 1), 30000));
    // Replicated regions pass these rules: GroupMerges has their own (members up, a shared server).
    RegionRecord low = RegionRecord.replicated(a.info(), RegionRecord.OPEN, members);
    RegionRecord replicated = RegionRecord.replicated(b.info(), RegionRecord.OPEN, members);
    try {
      assertThat(MergeRules.check(List.of(replicated, low), false)).containsExactly(low, replicated);
    } catch (java.io.IOException e) {
      throw new AssertionError(e);
    }
  }
}
