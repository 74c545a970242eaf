package io.basalt.server.registry;

import io.basalt.server.rpc.CallController;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.RegionLocation;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RegistryProtos.*;

/** HBase 2.6's RPC connection registry: how a client finds the cluster id, the master and meta. */
public final class ClientMetaServiceHandler {
  /** A source of one registry fact (read from ZooKeeper on region servers). */
  @FunctionalInterface
  public interface IOSupplier<T> {
    T get() throws java.io.IOException;
  }

  private final IOSupplier<String> clusterId;
  private final IOSupplier<ServerName> master;
  private final IOSupplier<ServerName> metaServer;

  public ClientMetaServiceHandler(IOSupplier<String> clusterId, IOSupplier<ServerName> master, IOSupplier<ServerName> metaServer) {
    this.clusterId = clusterId;
    this.master = master;
    this.metaServer = metaServer;
  }

  public GetClusterIdResponse getClusterId(CallController c, GetClusterIdRequest r) throws java.io.IOException {
    return GetClusterIdResponse.newBuilder().setClusterId(clusterId.get()).build();
  }

  public GetActiveMasterResponse getActiveMaster(CallController c, GetActiveMasterRequest r) throws java.io.IOException {
    return GetActiveMasterResponse.newBuilder().setServerName(ProtobufUtil.toServerName(master.get())).build();
  }

  public GetMetaRegionLocationsResponse getMetaRegionLocations(CallController c, GetMetaRegionLocationsRequest r) throws java.io.IOException {
    return GetMetaRegionLocationsResponse.newBuilder().addMetaLocations(RegionLocation.newBuilder()
        .setRegionInfo(ProtobufUtil.toRegionInfo(RegionInfoBuilder.FIRST_META_REGIONINFO))
        .setServerName(ProtobufUtil.toServerName(metaServer.get()))
        .setSeqNum(1)).build();
  }

  public GetBootstrapNodesResponse getBootstrapNodes(CallController c, GetBootstrapNodesRequest r) throws java.io.IOException {
    return GetBootstrapNodesResponse.newBuilder().addServerName(ProtobufUtil.toServerName(metaServer.get())).build();
  }

  public GetMastersResponse getMasters(CallController c, GetMastersRequest r) throws java.io.IOException {
    return GetMastersResponse.newBuilder().addMasterServers(GetMastersResponseEntry.newBuilder()
        .setServerName(ProtobufUtil.toServerName(master.get())).setIsActive(true)).build();
  }
}
