package io.basalt.server.control;

import io.basalt.server.catalog.Member;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.client.RegionInfo;

/** {@link SnapshotControl} of a region server in another process, through its control endpoint. */
final class RemoteSnapshots implements SnapshotControl {
  /** An export or import copies a region's bytes (5 GB at 100 MB/s: under a minute). */
  private static final int COPY_TIMEOUT_MILLIS = 30 * 60_000;
  private final ControlClient client;

  RemoteSnapshots(ControlClient client) {
    this.client = client;
  }

  /** The server side: each call of {@code snapshots} under its name. */
  static void register(ControlEndpoint endpoint, SnapshotControl snapshots) {
    endpoint
        .register("snapshot.link", a -> new ControlCodec.Writer().number(snapshots.linkRegion(a.string(), a.region()))
            .toBytes())
        .register("snapshot.import", a -> new ControlCodec.Writer()
            .number(snapshots.importRegion(a.string(), a.region(), a.string())).toBytes())
        .register("snapshot.export", a -> new ControlCodec.Writer()
            .number(snapshots.exportRegion(a.string(), a.region(), a.string())).toBytes())
        .register("snapshot.drop", a -> {
          snapshots.dropRegion(a.string(), a.region());
          return new byte[0];
        })
        .register("snapshot.clone", a -> new ControlCodec.Writer()
            .number(snapshots.cloneRegion(a.string(), a.region(), a.region())).toBytes())
        .register("snapshot.foundGroup", a -> {
          snapshots.foundCloneGroup(a.region(), a.string(), a.members());
          return new byte[0];
        });
  }

  @Override
  public long linkRegion(String snapshot, RegionInfo region) throws IOException {
    return new ControlCodec.Reader(client.call("snapshot.link",
        new ControlCodec.Writer().string(snapshot).region(region).toBytes())).number();
  }

  @Override
  public long importRegion(String snapshot, RegionInfo region, String directory) throws IOException {
    return new ControlCodec.Reader(client.call("snapshot.import",
        new ControlCodec.Writer().string(snapshot).region(region).string(directory).toBytes(), COPY_TIMEOUT_MILLIS))
        .number();
  }

  @Override
  public long exportRegion(String snapshot, RegionInfo region, String directory) throws IOException {
    return new ControlCodec.Reader(client.call("snapshot.export",
        new ControlCodec.Writer().string(snapshot).region(region).string(directory).toBytes(), COPY_TIMEOUT_MILLIS))
        .number();
  }

  @Override
  public void dropRegion(String snapshot, RegionInfo region) throws IOException {
    client.call("snapshot.drop", new ControlCodec.Writer().string(snapshot).region(region).toBytes());
  }

  @Override
  public long cloneRegion(String snapshot, RegionInfo source, RegionInfo target) throws IOException {
    return new ControlCodec.Reader(client.call("snapshot.clone",
        new ControlCodec.Writer().string(snapshot).region(source).region(target).toBytes())).number();
  }

  @Override
  public void foundCloneGroup(RegionInfo target, String group, List<Member> members) throws IOException {
    // A JE reset: recovery of the clone's log plus a checkpoint, seconds for a large region.
    client.call("snapshot.foundGroup", new ControlCodec.Writer().region(target).string(group).members(members)
        .toBytes(), COPY_TIMEOUT_MILLIS);
  }
}
