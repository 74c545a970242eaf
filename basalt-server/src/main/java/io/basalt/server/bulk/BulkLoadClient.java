package io.basalt.server.bulk;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.DescriptorProto;
import com.google.protobuf.DescriptorProtos.FieldDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.MethodDescriptorProto;
import com.google.protobuf.DescriptorProtos.ServiceDescriptorProto;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Message;
import com.google.protobuf.RpcChannel;
import java.util.concurrent.CompletableFuture;
import org.apache.hadoop.hbase.client.AsyncTable;

/**
 * Sends one {@link LoadBatch} to the region holding its first row through the HBase client's coprocessor call
 * ({@code AsyncTable.coprocessorService}), so locating, retrying after a region moved or split, TLS and the
 * user's identity are the client's, as for a put. The HBase 2 client speaks coprocessor calls in unshaded
 * protobuf 2.5; the service is described at run time (no generated code): {@code Load(LoadRequest{bytes batch=1})
 * returns (LoadResponse{uint32 rows=1})}, the wire form of the shaded BytesValue and UInt32Value the server reads.
 */
public final class BulkLoadClient {
  private static final MethodDescriptor LOAD;
  private static final Descriptor REQUEST;
  private static final Descriptor RESPONSE;

  static {
    DescriptorProto request = DescriptorProto.newBuilder().setName("LoadRequest")
        .addField(field("batch", FieldDescriptorProto.Type.TYPE_BYTES)).build();
    DescriptorProto response = DescriptorProto.newBuilder().setName("LoadResponse")
        .addField(field("rows", FieldDescriptorProto.Type.TYPE_UINT32)).build();
    FileDescriptorProto file = FileDescriptorProto.newBuilder().setName("basalt/bulk_load.proto")
        .setPackage(BulkLoadCall.PACKAGE).addMessageType(request).addMessageType(response)
        .addService(ServiceDescriptorProto.newBuilder().setName(BulkLoadCall.SERVICE_NAME)
            .addMethod(MethodDescriptorProto.newBuilder().setName(BulkLoadCall.METHOD)
                .setInputType("." + BulkLoadCall.PACKAGE + ".LoadRequest")
                .setOutputType("." + BulkLoadCall.PACKAGE + ".LoadResponse")))
        .build();
    try {
      FileDescriptor fd = FileDescriptor.buildFrom(file, new FileDescriptor[0]);
      REQUEST = fd.findMessageTypeByName("LoadRequest");
      RESPONSE = fd.findMessageTypeByName("LoadResponse");
      LOAD = fd.findServiceByName(BulkLoadCall.SERVICE_NAME).findMethodByName(BulkLoadCall.METHOD);
    } catch (DescriptorValidationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private BulkLoadClient() {}

  private static FieldDescriptorProto field(String name, FieldDescriptorProto.Type type) {
    return FieldDescriptorProto.newBuilder().setName(name).setNumber(1).setType(type)
        .setLabel(FieldDescriptorProto.Label.LABEL_OPTIONAL).build();
  }

  /** Completes with how many of the batch's leading rows the region took (fewer than sent after a split). */
  public static CompletableFuture<Integer> load(AsyncTable<?> table, byte[] firstRow, byte[] batch) {
    FieldDescriptor batchField = REQUEST.findFieldByNumber(1);
    Message request = DynamicMessage.newBuilder(REQUEST).setField(batchField, ByteString.copyFrom(batch)).build();
    CompletableFuture<Message> response = table.<RpcChannel, Message>coprocessorService(channel -> channel,
        (channel, controller, done) -> channel.callMethod(LOAD, controller, request,
            DynamicMessage.getDefaultInstance(RESPONSE), done),
        firstRow);
    return response.thenApply(m -> {
      Object rows = m.getField(RESPONSE.findFieldByNumber(1));
      return (Integer) rows;
    });
  }
}
