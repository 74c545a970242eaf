package io.basalt.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.regionserver.NoSuchColumnFamilyException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hbase.thirdparty.com.google.protobuf.ByteString;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Malformed or hostile input is answered or closed cleanly, and other connections keep working. */
@Timeout(120)
class BadInputTest {
  @TempDir static Path dir;
  static StandaloneServer server;
  static Connection client;
  static final TableName TABLE = TableName.valueOf("bad_input");

  @BeforeAll
  static void start() throws Exception {
    server = new StandaloneServer(StandaloneConfig.defaults(dir.resolve("data")).withPorts(0, 0, 0));
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", server.zookeeperQuorum());
    conf.setInt("hbase.zookeeper.property.clientPort", server.zookeeperPort());
    conf.setInt("hbase.client.retries.number", 2);
    client = ConnectionFactory.createConnection(conf);
    client.getAdmin().createTable(TableDescriptorBuilder.newBuilder(TABLE).setColumnFamily(ColumnFamilyDescriptorBuilder.of("cf")).build());
  }

  @AfterAll
  static void stop() throws IOException {
    if (client != null) {
      client.close();
    }
    if (server != null) {
      server.close();
    }
  }

  private static Socket connect() throws IOException {
    Socket s = new Socket("127.0.0.1", server.regionServerAddress().getPort());
    s.setSoTimeout(10_000);
    return s;
  }

  /** After each hostile connection, a normal client still reads and writes. */
  private static void clientStillWorks() throws IOException {
    try (Table t = client.getTable(TABLE)) {
      t.put(new Put(Bytes.toBytes("r")).addColumn(Bytes.toBytes("cf"), Bytes.toBytes("q"), Bytes.toBytes("ok")));
      assertThat(Bytes.toString(t.get(new Get(Bytes.toBytes("r"))).getValue(Bytes.toBytes("cf"), Bytes.toBytes("q")))).isEqualTo("ok");
    }
  }

  /**
   * Reads to the end of the stream: the server ends its side cleanly after its last reply, even when the client's
   * bytes are still unread there (a reset here could have overtaken the reply).
   */
  private static boolean closedByServer(Socket s) throws IOException {
    InputStream in = s.getInputStream();
    while (in.read() >= 0) {
      // drain whatever error frame was sent
    }
    return true;
  }

  private static void writeHeader(DataOutputStream out, String service) throws IOException {
    out.write(new byte[] {'H', 'B', 'a', 's', 0, 0x50});
    byte[] header = RPCProtos.ConnectionHeader.newBuilder().setServiceName(service)
        .setUserInfo(RPCProtos.UserInformation.newBuilder().setEffectiveUser("test")).build().toByteArray();
    out.writeInt(header.length);
    out.write(header);
  }

  private static void writeCall(DataOutputStream out, int callId, String method, Message param) throws IOException {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    RPCProtos.RequestHeader.newBuilder().setCallId(callId).setMethodName(method).setRequestParam(true).build()
        .writeDelimitedTo(body);
    param.writeDelimitedTo(body);
    out.writeInt(body.size());
    out.write(body.toByteArray());
    out.flush();
  }

  private static RPCProtos.ResponseHeader readResponse(DataInputStream in) throws IOException {
    int len = in.readInt();
    byte[] frame = new byte[len];
    in.readFully(frame);
    return RPCProtos.ResponseHeader.parseDelimitedFrom(new java.io.ByteArrayInputStream(frame));
  }

  @Test
  void garbageInsteadOfAPreambleClosesOnlyThatConnection() throws IOException {
    try (Socket s = connect()) {
      s.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
      s.getOutputStream().flush();
      DataInputStream in = new DataInputStream(s.getInputStream());
      RPCProtos.ResponseHeader h = readResponse(in);
      assertThat(h.getCallId()).isEqualTo(-1);
      assertThat(h.getException().getExceptionClassName()).isEqualTo("org.apache.hadoop.hbase.ipc.FatalConnectionException");
      assertThat(closedByServer(s)).isTrue();
    }
    clientStillWorks();
  }

  @Test
  void truncatedFrameThenDisconnectHarmsNobody() throws IOException {
    try (Socket s = connect()) {
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      writeHeader(out, "ClientService");
      out.writeInt(1000);
      out.write(new byte[10]);
      out.flush();
    }
    clientStillWorks();
  }

  @Test
  void twoGigabyteLengthPrefixIsRefusedWithRequestTooBig() throws IOException {
    try (Socket s = connect()) {
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      writeHeader(out, "ClientService");
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      RPCProtos.RequestHeader.newBuilder().setCallId(7).setMethodName("Get").setRequestParam(true).build().writeDelimitedTo(head);
      out.writeInt(Integer.MAX_VALUE);
      out.write(head.toByteArray());
      out.flush();
      // Like a client writing its whole oversized request: the body keeps coming after the server has refused it.
      Thread body = new Thread(() -> {
        try {
          for (int i = 0; i < 256; i++) {
            out.write(new byte[16 * 1024]);
          }
        } catch (IOException closedUnderUs) {
          // the server closes after its linger; the rest of the body has nowhere to go
        }
      });
      body.setDaemon(true);
      body.start();
      DataInputStream in = new DataInputStream(s.getInputStream());
      RPCProtos.ResponseHeader h = readResponse(in);
      assertThat(h.getCallId()).isEqualTo(7);
      assertThat(h.getException().getExceptionClassName()).isEqualTo("org.apache.hadoop.hbase.exceptions.RequestTooBigException");
      assertThat(closedByServer(s)).isTrue();
    }
    clientStillWorks();
  }

  @Test
  void unknownMethodAndUnknownRegionGetClearErrorsAndTheConnectionLives() throws IOException {
    try (Socket s = connect()) {
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      DataInputStream in = new DataInputStream(s.getInputStream());
      writeHeader(out, "ClientService");
      writeCall(out, 1, "NoSuchMethod", ClientProtos.GetRequest.getDefaultInstance());
      RPCProtos.ResponseHeader h = readResponse(in);
      assertThat(h.getCallId()).isEqualTo(1);
      assertThat(h.getException().getExceptionClassName()).isEqualTo("org.apache.hadoop.hbase.DoNotRetryIOException");
      assertThat(h.getException().getDoNotRetry()).isTrue();

      ClientProtos.GetRequest get = ClientProtos.GetRequest.newBuilder()
          .setRegion(HBaseProtos.RegionSpecifier.newBuilder().setType(HBaseProtos.RegionSpecifier.RegionSpecifierType.REGION_NAME)
              .setValue(ByteString.copyFromUtf8("nope,,1.0123456789abcdef0123456789abcdef.")))
          .setGet(ClientProtos.Get.newBuilder().setRow(ByteString.copyFromUtf8("r"))).build();
      writeCall(out, 2, "Get", get);
      h = readResponse(in);
      assertThat(h.getCallId()).isEqualTo(2);
      assertThat(h.getException().getExceptionClassName()).isEqualTo("org.apache.hadoop.hbase.NotServingRegionException");
    }
    clientStillWorks();
  }

  @Test
  void unknownServiceIsAFatalConnectionError() throws IOException {
    try (Socket s = connect()) {
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      writeHeader(out, "NoSuchService");
      RPCProtos.ResponseHeader h = readResponse(new DataInputStream(s.getInputStream()));
      assertThat(h.getException().getExceptionClassName()).isEqualTo("org.apache.hadoop.hbase.ipc.FatalConnectionException");
    } catch (EOFException e) {
      throw new AssertionError("server closed without an error frame", e);
    }
    clientStillWorks();
  }

  @Test
  void writesToAnUnknownFamilyFailWithNoSuchColumnFamily() throws IOException {
    try (Table t = client.getTable(TABLE)) {
      assertThatThrownBy(() -> t.put(new Put(Bytes.toBytes("r")).addColumn(Bytes.toBytes("nope"), Bytes.toBytes("q"), Bytes.toBytes("v"))))
          .hasMessageContaining("NoSuchColumnFamilyException")
          .satisfiesAnyOf(e -> assertThat(e).isInstanceOf(NoSuchColumnFamilyException.class),
              e -> assertThat(e).isInstanceOf(org.apache.hadoop.hbase.client.RetriesExhaustedWithDetailsException.class));
    }
    clientStillWorks();
  }
}
