package io.basalt.server.control;

import io.basalt.server.catalog.Member;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.client.RegionInfo;

/** {@link GroupMergeControl} of a region server in another process, through its control endpoint. */
final class RemoteGroupMerges implements GroupMergeControl {
  /** The founder copies the smaller region's records (1 GB at 15 MB/s: about a minute). */
  private static final int COPY_TIMEOUT_MILLIS = 30 * 60_000;
  private final ControlClient client;

  RemoteGroupMerges(ControlClient client) {
    this.client = client;
  }

  /** The server side: each call of {@code merges} under its name. */
  static void register(ControlEndpoint endpoint, GroupMergeControl merges) {
    endpoint
        .register("gmerge.logBytes", a -> new ControlCodec.Writer().number(merges.logBytes(a.region())).toBytes())
        .register("gmerge.close", a -> {
          RegionInfo region = a.region();
          long barrier = a.number();
          RegionInfo cloneInto = a.number() != 0 ? a.region() : null;
          return new ControlCodec.Writer().number(merges.closeMemberForMerge(region, barrier, cloneInto)).toBytes();
        })
        .register("gmerge.found", a -> new ControlCodec.Writer()
            .number(merges.foundMergedGroup(a.region(), a.string(), a.members(), a.region())).toBytes());
  }

  @Override
  public long logBytes(RegionInfo region) throws IOException {
    return new ControlCodec.Reader(client.call("gmerge.logBytes", new ControlCodec.Writer().region(region).toBytes()))
        .number();
  }

  @Override
  public long closeMemberForMerge(RegionInfo region, long barrier, RegionInfo cloneInto) throws IOException {
    ControlCodec.Writer w = new ControlCodec.Writer().region(region).number(barrier).number(cloneInto == null ? 0 : 1);
    if (cloneInto != null) {
      w.region(cloneInto);
    }
    return new ControlCodec.Reader(client.call("gmerge.close", w.toBytes())).number();
  }

  @Override
  public long foundMergedGroup(RegionInfo merged, String group, List<Member> members, RegionInfo other)
      throws IOException {
    return new ControlCodec.Reader(client.call("gmerge.found", new ControlCodec.Writer().region(merged).string(group)
        .members(members).region(other).toBytes(), COPY_TIMEOUT_MILLIS)).number();
  }
}
