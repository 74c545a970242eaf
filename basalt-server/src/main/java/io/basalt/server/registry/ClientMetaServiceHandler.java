package io.basalt.server.registry;

import io.basalt.server.rpc.CallController;
import java.util.function.Supplier;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionLocation;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.*;

/** HBase 2.6's RPC connection registry: how a client finds the cluster id, the master and meta. */
public final class ClientMetaServiceHandler {
  private final Supplier<String> clusterId;
  private final Supplier<ServerName> master;
  private final Supplier<ServerName> metaServer;

  public ClientMetaServiceHandler(Supplier<String> clusterId, Supplier<ServerName> master, Supplier<ServerName> metaServer) {
    this.clusterId = clusterId;
    this.master = master;
    this.metaServer = metaServer;
  }

  public GetClusterIdResponse getClusterId(CallController c, GetClusterIdRequest r) {
    return GetClusterIdResponse.newBuilder().setClusterId(clusterId.get()).build();
  }

  public GetActiveMasterResponse getActiveMaster(CallController c, GetActiveMasterRequest r) {
    return GetActiveMasterResponse.newBuilder().setServerName(ProtobufUtil.toServerName(master.get())).build();
  }

  public GetMetaRegionLocationsResponse getMetaRegionLocations(CallController c, GetMetaRegionLocationsRequest r) {
    return GetMetaRegionLocationsResponse.newBuilder().addMetaLocations(RegionLocation.newBuilder()
        .setRegionInfo(ProtobufUtil.toRegionInfo(RegionInfoBuilder.FIRST_META_REGIONINFO))
        .setServerName(ProtobufUtil.toServerName(metaServer.get()))
        .setSeqNum(1)).build();
  }

  public GetBootstrapNodesResponse getBootstrapNodes(CallController c, GetBootstrapNodesRequest r) {
    return GetBootstrapNodesResponse.newBuilder().addServerName(ProtobufUtil.toServerName(metaServer.get())).build();
  }

  public GetMastersResponse getMasters(CallController c, GetMastersRequest r) {
    return GetMastersResponse.newBuilder().addMasterServers(GetMastersResponseEntry.newBuilder()
        .setServerName(ProtobufUtil.toServerName(master.get())).setIsActive(true)).build();
  }
}
