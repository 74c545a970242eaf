package io.basalt.server.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ConnectionHeader;
import org.junit.jupiter.api.Test;

class FrameDecoderTest {
  private static byte[] connectionStart(String service, int... frameLengths) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    out.write(FrameDecoder.HBASE_PREAMBLE);
    byte[] header = ConnectionHeader.newBuilder().setServiceName(service).build().toByteArray();
    out.writeInt(header.length);
    out.write(header);
    for (int len : frameLengths) {
      out.writeInt(len);
      out.write(new byte[len]);
    }
    return bytes.toByteArray();
  }

  @Test
  void splitsPreambleHeaderAndFramesEvenByteByByte() throws IOException {
    EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(1 << 20));
    for (byte b : connectionStart("ClientService", 3, 0, 10)) {
      ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
    }
    assertThat(((RpcEvent.Header) ch.readInbound()).header().getServiceName()).isEqualTo("ClientService");
    assertThat(((RpcEvent.Request) ch.readInbound()).frame()).hasSize(3);
    assertThat(((RpcEvent.Request) ch.readInbound()).frame()).isEmpty();
    assertThat(((RpcEvent.Request) ch.readInbound()).frame()).hasSize(10);
    Object rest = ch.readInbound();
    assertThat(rest).isNull();
  }

  @Test
  void recognisesTheRegistryPreambleAndGarbage() {
    EmbeddedChannel registry = new EmbeddedChannel(new FrameDecoder(1 << 20));
    registry.writeInbound(Unpooled.wrappedBuffer(FrameDecoder.REGISTRY_PREAMBLE));
    Object event = registry.readInbound();
    assertThat(event).isInstanceOf(RpcEvent.RegistryPreamble.class);
    EmbeddedChannel garbage = new EmbeddedChannel(new FrameDecoder(1 << 20));
    garbage.writeInbound(Unpooled.wrappedBuffer("GET / HTTP/1.1\r\n".getBytes()));
    assertThat(((RpcEvent.BadPreamble) garbage.readInbound()).received()).startsWith("GET / ");
  }

  @Test
  void reportsOversizedFramesWithoutBufferingThem() throws IOException {
    EmbeddedChannel ch = new EmbeddedChannel(new FrameDecoder(1000));
    byte[] start = connectionStart("ClientService");
    ch.writeInbound(Unpooled.wrappedBuffer(start));
    ch.readInbound();
    ch.writeInbound(Unpooled.wrappedBuffer(new byte[] {0x7F, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 1, 2, 3}));
    RpcEvent.TooBig tooBig = ch.readInbound();
    assertThat(tooBig.length()).isEqualTo(Integer.MAX_VALUE);
    assertThat(tooBig.head()).containsExactly(1, 2, 3);
  }
}
