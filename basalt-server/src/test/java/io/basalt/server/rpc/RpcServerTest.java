package io.basalt.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.security.ServerSecurity;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class RpcServerTest {
  /** hbase.regionserver.handler.count and hbase.ipc.max.request.size as configured, not as hard-coded. */
  @Test
  void runsTheConfiguredHandlersAndRefusesRequestsOverTheConfiguredSize() throws Exception {
    try (RpcServer server = new RpcServer("limits-test", new InetSocketAddress("127.0.0.1", 0), new CallDispatcher(),
        () -> "cluster", new RpcLimits(3, 4096), ServerSecurity.inProcess())) {
      assertThat(Thread.getAllStackTraces().keySet().stream()
          .filter(t -> t.getName().startsWith("limits-test-handler-"))).hasSize(3);

      try (Socket s = new Socket("127.0.0.1", server.address().getPort())) {
        s.setSoTimeout(10_000);
        DataOutputStream out = new DataOutputStream(s.getOutputStream());
        out.write(new byte[] {'H', 'B', 'a', 's', 0, 0x50});
        byte[] header = RPCProtos.ConnectionHeader.newBuilder().setServiceName("ClientService").build().toByteArray();
        out.writeInt(header.length);
        out.write(header);
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        RPCProtos.RequestHeader.newBuilder().setCallId(9).setMethodName("Mutate").setRequestParam(true).build()
            .writeDelimitedTo(head);
        out.writeInt(4097);
        out.write(head.toByteArray());
        out.write(new byte[4097 - head.size()]);
        out.flush();

        DataInputStream in = new DataInputStream(s.getInputStream());
        byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        RPCProtos.ResponseHeader response =
            RPCProtos.ResponseHeader.parseDelimitedFrom(new ByteArrayInputStream(frame));
        assertThat(response.getCallId()).isEqualTo(9);
        assertThat(response.getException().getExceptionClassName())
            .isEqualTo("org.apache.hadoop.hbase.exceptions.RequestTooBigException");
        assertThat(response.getException().getStackTrace()).contains("greater than max allowed 4096");
      } catch (IOException e) {
        throw new AssertionError("no RequestTooBigException before the server closed", e);
      }
    }
  }
}
