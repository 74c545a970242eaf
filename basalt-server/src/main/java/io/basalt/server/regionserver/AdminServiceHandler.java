package io.basalt.server.regionserver;

import io.basalt.server.rpc.CallController;
import java.io.IOException;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.AdminProtos.*;

/** The per-server admin calls clients and tools make; flush and compaction have nothing to do in Basalt. */
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
    HostedRegion region = server.region(r.getRegion().getValue().toByteArray());
    return GetRegionInfoResponse.newBuilder().setRegionInfo(ProtobufUtil.toRegionInfo(region.info())).build();
  }

  public GetServerInfoResponse getServerInfo(CallController c, GetServerInfoRequest r) {
    return GetServerInfoResponse.newBuilder().setServerInfo(ServerInfo.newBuilder()
        .setServerName(ProtobufUtil.toServerName(server.serverName()))).build();
  }

  /** There is no memstore: every acknowledged write is already in the region's log. */
  public FlushRegionResponse flushRegion(CallController c, FlushRegionRequest r) throws IOException {
    server.region(r.getRegion().getValue().toByteArray());
    return FlushRegionResponse.newBuilder().setLastFlushTime(System.currentTimeMillis()).setFlushed(true).build();
  }

  /** A B+-tree needs no compaction; the background purge already drops what no read can return. */
  public CompactRegionResponse compactRegion(CallController c, CompactRegionRequest r) throws IOException {
    server.region(r.getRegion().getValue().toByteArray());
    return CompactRegionResponse.getDefaultInstance();
  }
}
