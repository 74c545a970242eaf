package io.basalt.server.regionserver;

import io.basalt.server.bulk.BulkLoadCall;
import io.basalt.server.bulk.LoadBatch;
import io.basalt.server.rpc.CallController;
import io.basalt.server.rpc.ServerErrors;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.CoprocessorServiceResponse;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.NameBytesPair;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hbase.thirdparty.com.google.protobuf.BytesValue;
import org.apache.hbase.thirdparty.com.google.protobuf.InvalidProtocolBufferException;
import org.apache.hbase.thirdparty.com.google.protobuf.UInt32Value;

/**
 * ClientService's {@code ExecService} for {@code basalt import}'s bulk load call ({@link BulkLoadCall}): a
 * client call on one region, so it passes the checks a Put passes (the region's primary copy, not fenced, not
 * held for a split; the table's families; rows inside the region) and then writes the batch in large
 * transactions ({@code Region.load}), durable as a SYNC_WAL put (in the OS, and held by a majority of a
 * replica group) before it answers.
 */
public final class BulkLoadHandler implements io.basalt.server.rpc.CoprocessorEndpoints.Endpoint {
  private final RegionServer server;

  public BulkLoadHandler(RegionServer server) {
    this.server = server;
  }

  @Override
  public boolean serves(String service) {
    return BulkLoadCall.SERVICE.equals(service);
  }

  @Override
  public CoprocessorServiceResponse call(CallController c, CoprocessorServiceRequest request) throws IOException {
    String service = request.getCall().getServiceName();
    if (!BulkLoadCall.METHOD.equals(request.getCall().getMethodName())) {
      throw new DoNotRetryIOException("unknown method " + request.getCall().getMethodName() + " of " + service);
    }
    byte[] regionName = request.getRegion().getValue().toByteArray();
    if (Bytes.equals(regionName, RegionInfoBuilder.FIRST_META_REGIONINFO.getRegionName())) {
      throw new DoNotRetryIOException("hbase:meta is read-only in Basalt: the master owns the catalog");
    }
    HostedRegion region = server.lookup().writable(regionName);
    List<RowMutation> rows;
    try {
      rows = LoadBatch.decode(BytesValue.parseFrom(request.getCall().getRequest()).getValue().toByteArray());
    } catch (InvalidProtocolBufferException | IllegalArgumentException e) {
      throw new DoNotRetryIOException("bulk load: " + e.getMessage());
    }
    // Rows come sorted: after a split the region takes those up to its end and the tool sends the rest on.
    int inside = 0;
    while (inside < rows.size() && region.info().containsRow(rows.get(inside).row())) {
      inside++;
    }
    if (inside == 0 && !rows.isEmpty()) {
      throw new DoNotRetryIOException("bulk load: row " + Bytes.toStringBinary(rows.get(0).row()) + " is not in "
          + region.info().getRegionNameAsString());
    }
    try {
      region.store().load(rows.subList(0, inside), Durability.SYNC_WAL);
    } catch (RuntimeException e) {
      throw ServerErrors.toIOException(e);
    }
    return CoprocessorServiceResponse.newBuilder().setRegion(request.getRegion())
        .setValue(NameBytesPair.newBuilder().setName(service)
            .setValue(UInt32Value.of(inside).toByteString())).build();
  }
}
