package io.basalt.server.regionserver;

import io.basalt.server.rpc.CallController;
import java.io.IOException;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.*;

/** The per-server admin calls clients and tools make: region lists and info, flush and compaction. */
public final class AdminServiceHandler {
  private final RegionServer server;

  public AdminServiceHandler(RegionServer server) {
    this.server = server;
  }

  public GetOnlineRegionResponse getOnlineRegion(CallController c, GetOnlineRegionRequest r) {
    GetOnlineRegionResponse.Builder b = GetOnlineRegionResponse.newBuilder();
    for (RegionInfo info : server.onlineRegions()) {
      b.addRegionInfo(ProtobufUtil.toRegionInfo(info));
    }
    return b.build();
  }

  public GetRegionInfoResponse getRegionInfo(CallController c, GetRegionInfoRequest r) throws IOException {
    byte[] name = r.getRegion().getValue().toByteArray();
    HostedRegion region = server.lookup().anyCopy(name);
    GetRegionInfoResponse.Builder b = GetRegionInfoResponse.newBuilder()
        .setRegionInfo(ProtobufUtil.toRegionInfo(asNamed(region.info(), name)));
    if (r.getCompactionState()) {
      b.setCompactionState(server.compactions().state(region.info().getEncodedName()));
    }
    return b.build();
  }

  public GetServerInfoResponse getServerInfo(CallController c, GetServerInfoRequest r) {
    return GetServerInfoResponse.newBuilder().setServerInfo(ServerInfo.newBuilder()
        .setServerName(ProtobufUtil.toServerName(server.serverName()))).build();
  }

  /** The region's info, or its replica's when {@code name} names one. */
  private static RegionInfo asNamed(RegionInfo info, byte[] name) {
    String encoded = RegionInfo.encodeRegionName(name);
    for (int id = 1; id < 64 && !info.getEncodedName().equals(encoded); id++) {
      RegionInfo replica = org.apache.hadoop.hbase.client.RegionReplicaUtil.getRegionInfoForReplica(info, id);
      if (replica.getEncodedName().equals(encoded)) {
        return replica;
      }
    }
    return info;
  }

  /**
   * There is no memstore: a flush forces this copy's log to disk, so what was acknowledged survives a power loss.
   * Any copy may be flushed (HBase's client names a replicated region's other copies as replicas).
   */
  public FlushRegionResponse flushRegion(CallController c, FlushRegionRequest r) throws IOException {
    HostedRegion region = server.lookup().anyCopy(r.getRegion().getValue().toByteArray());
    try {
      server.compactions().flush(region.info().getEncodedName(), region.store());
    } catch (RuntimeException e) {
      throw io.basalt.server.rpc.ServerErrors.toIOException(e);
    }
    return FlushRegionResponse.newBuilder().setLastFlushTime(System.currentTimeMillis()).setFlushed(true).build();
  }

  /**
   * Queues a compaction and returns at once, as HBase does: the JE cleaner over the region's log, after a purge
   * of what no read can return when major. {@code Admin.getCompactionState} shows it until it is done.
   */
  public CompactRegionResponse compactRegion(CallController c, CompactRegionRequest r) throws IOException {
    // Every copy compacts its own log; a copy that is not the primary only cleans (its purge comes with the log).
    HostedRegion region = server.lookup().anyCopy(r.getRegion().getValue().toByteArray());
    // Basalt compacts a whole region (one log holds every family); a family's compaction still checks the family.
    if (r.hasFamily() && !region.table().hasColumnFamily(r.getFamily().toByteArray())) {
      throw new org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException("column family "
          + r.getFamily().toStringUtf8() + " does not exist in region " + region.info().getRegionNameAsString());
    }
    try {
      server.compactions().request(region.info().getEncodedName(), region.store(), r.getMajor());
    } catch (RuntimeException e) {
      throw io.basalt.server.rpc.ServerErrors.toIOException(e);
    }
    return CompactRegionResponse.getDefaultInstance();
  }
}
