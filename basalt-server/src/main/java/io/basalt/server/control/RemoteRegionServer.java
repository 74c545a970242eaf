package io.basalt.server.control;

import io.basalt.server.catalog.Member;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;

/** A region server in another process (or this one, over loopback), driven through its control endpoint. */
public final class RemoteRegionServer implements RegionServerControl, GroupSplitControl {
  /** A member that joins empty is filled with the whole region first (5 GB at 100 MB/s: under a minute). */
  private static final int JOIN_TIMEOUT_MILLIS = 15 * 60_000;
  /**
   * A hand-over is bounded by JE's own 10 s transfer timeout on the primary's server; the master calls it holding
   * its lock, so a call that hangs past that must not hold up failure handling for the default 2 minutes (the
   * churn soak saw one hang that long).
   */
  private static final int TRANSFER_TIMEOUT_MILLIS = 30_000;
  private final ControlClient client;

  public RemoteRegionServer(ControlClient client) {
    this.client = client;
  }

  public ControlClient client() {
    return client;
  }

  @Override
  public void openRegion(RegionInfo region, TableDescriptor table) throws IOException {
    client.call("openRegion", new ControlCodec.Writer().region(region).table(table).toBytes());
  }

  @Override
  public void createRegion(RegionInfo region, TableDescriptor table) throws IOException {
    client.call("createRegion", new ControlCodec.Writer().region(region).table(table).toBytes());
  }

  @Override
  public int replicationPort(RegionInfo region, Set<Integer> taken) throws IOException {
    return (int) new ControlCodec.Reader(client.call("replicationPort",
        new ControlCodec.Writer().region(region).numbers(taken).toBytes())).number();
  }

  @Override
  public void openMember(RegionInfo region, TableDescriptor table, String group, List<Member> members,
      boolean create) throws IOException {
    client.call("openMember", new ControlCodec.Writer().region(region).table(table).string(group).members(members)
        .number(create ? 1 : 0).toBytes());
  }

  @Override
  public GroupSplitControl groupSplits() {
    return this;
  }

  @Override
  public GroupMergeControl groupMerges() {
    return new RemoteGroupMerges(client);
  }

  @Override
  public SnapshotControl snapshots() {
    return new RemoteSnapshots(client);
  }

  @Override
  public long sealForSplit(RegionInfo parent) throws IOException {
    return new ControlCodec.Reader(client.call("sealForSplit", new ControlCodec.Writer().region(parent).toBytes()))
        .number();
  }

  @Override
  public long closeAndCloneMember(RegionInfo parent, RegionInfo daughterA, RegionInfo daughterB, long barrier)
      throws IOException {
    return new ControlCodec.Reader(client.call("closeAndCloneMember", new ControlCodec.Writer().region(parent)
        .region(daughterA).region(daughterB).number(barrier).toBytes())).number();
  }

  @Override
  public void foundDaughterGroup(RegionInfo daughter, String group, List<Member> members) throws IOException {
    client.call("foundDaughterGroup", new ControlCodec.Writer().region(daughter).string(group).members(members)
        .toBytes());
  }

  @Override
  public void rollBackGroupSplit(RegionInfo parent, TableDescriptor table, RegionInfo daughterA,
      RegionInfo daughterB, String group, List<Member> members) throws IOException {
    client.call("rollBackGroupSplit", new ControlCodec.Writer().region(parent).table(table).region(daughterA)
        .region(daughterB).string(group).members(members).toBytes());
  }

  @Override
  public void transferPrimary(RegionInfo region, org.apache.hadoop.hbase.ServerName target) throws IOException {
    client.call("transferPrimary", new ControlCodec.Writer().region(region).server(target).toBytes(),
        TRANSFER_TIMEOUT_MILLIS);
  }

  @Override
  public void joinMember(RegionInfo region, TableDescriptor table, String group, List<Member> members)
      throws IOException {
    client.call("joinMember", new ControlCodec.Writer().region(region).table(table).string(group).members(members)
        .toBytes(),
        JOIN_TIMEOUT_MILLIS);
  }

  @Override
  public void deleteMember(RegionInfo region, Member gone) throws IOException {
    client.call("deleteMember", new ControlCodec.Writer().region(region).members(List.of(gone)).toBytes());
  }

  @Override
  public void closeRegion(RegionInfo region) throws IOException {
    client.call("closeRegion", new ControlCodec.Writer().region(region).toBytes());
  }

  @Override
  public void dropRegion(RegionInfo region) throws IOException {
    client.call("dropRegion", new ControlCodec.Writer().region(region).toBytes());
  }

  @Override
  public int flushTable(org.apache.hadoop.hbase.TableName table) throws IOException {
    return (int) new ControlCodec.Reader(client.call("flushTable",
        new ControlCodec.Writer().string(table.getNameAsString()).toBytes())).number();
  }

  @Override
  public void alterTable(TableDescriptor table) throws IOException {
    client.call("alterTable", new ControlCodec.Writer().table(table).toBytes());
  }

  @Override
  public List<RegionInfo> onlineRegions() throws IOException {
    return new ControlCodec.Reader(client.call("onlineRegions", new byte[0])).regions();
  }

  @Override
  public List<String> storedRegions() throws IOException {
    return new ControlCodec.Reader(client.call("storedRegions", new byte[0])).strings();
  }

  @Override
  public Optional<byte[]> midpoint(RegionInfo parent) throws IOException {
    return Optional.ofNullable(new ControlCodec.Reader(client.call("midpoint",
        new ControlCodec.Writer().region(parent).toBytes())).bytes());
  }

  @Override
  public CloneReport closeAndClone(RegionInfo parent, RegionInfo daughterA, RegionInfo daughterB) throws IOException {
    ControlCodec.Reader r = new ControlCodec.Reader(client.call("closeAndClone",
        new ControlCodec.Writer().region(parent).region(daughterA).region(daughterB).toBytes()));
    return new CloneReport(r.number(), r.number(), r.number());
  }

  @Override
  public void rollBackSplit(RegionInfo parent, TableDescriptor table, RegionInfo daughterA, RegionInfo daughterB)
      throws IOException {
    client.call("rollBackSplit",
        new ControlCodec.Writer().region(parent).table(table).region(daughterA).region(daughterB).toBytes());
  }

  /** A merge copies the smaller region's records (1 GB at 20 MB/s: under a minute). */
  private static final int MERGE_TIMEOUT_MILLIS = 30 * 60_000;

  @Override
  public CloneReport closeAndMerge(RegionInfo lower, RegionInfo upper, RegionInfo merged) throws IOException {
    ControlCodec.Reader r = new ControlCodec.Reader(client.call("closeAndMerge",
        new ControlCodec.Writer().region(lower).region(upper).region(merged).toBytes(), MERGE_TIMEOUT_MILLIS));
    return new CloneReport(r.number(), r.number(), r.number());
  }

  @Override
  public void rollBackMerge(RegionInfo lower, RegionInfo upper, TableDescriptor table, RegionInfo merged)
      throws IOException {
    client.call("rollBackMerge",
        new ControlCodec.Writer().region(lower).region(upper).table(table).region(merged).toBytes());
  }

  @Override
  public MoveSource preClose(RegionInfo region) throws IOException {
    return new ControlCodec.Reader(client.call("preClose", new ControlCodec.Writer().region(region).toBytes()))
        .moveSource();
  }

  @Override
  public void prefetch(RegionInfo region, MoveSource source) throws IOException {
    client.call("prefetch", new ControlCodec.Writer().region(region).moveSource(source).toBytes());
  }

  @Override
  public MoveSource closeForMove(RegionInfo region) throws IOException {
    return new ControlCodec.Reader(client.call("closeForMove", new ControlCodec.Writer().region(region).toBytes()))
        .moveSource();
  }

  @Override
  public long openMoved(RegionInfo region, TableDescriptor table, MoveSource source) throws IOException {
    return new ControlCodec.Reader(client.call("openMoved",
        new ControlCodec.Writer().region(region).table(table).moveSource(source).toBytes())).number();
  }

  @Override
  public void finishMoveAway(RegionInfo region, org.apache.hadoop.hbase.ServerName target) throws IOException {
    client.call("finishMoveAway", new ControlCodec.Writer().region(region).server(target).toBytes());
  }

  @Override
  public void abortMoveAway(RegionInfo region, TableDescriptor table) throws IOException {
    client.call("abortMoveAway", new ControlCodec.Writer().region(region).table(table).toBytes());
  }

  @Override
  public void abortMoveIn(RegionInfo region) throws IOException {
    client.call("abortMoveIn", new ControlCodec.Writer().region(region).toBytes());
  }
}
