package io.basalt.server.rpc;

import io.basalt.server.security.MemberConnector;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ConnectionHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.RequestHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.ResponseHeader;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.UserInformation;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedInputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * A small blocking client of the HBase RPC protocol, for calls between Basalt processes (master to region
 * server, region server to master). Pure protobuf (no cell blocks). Each call takes an idle connection to
 * the address or opens one, so slow calls (a segment pull) never queue behind each other; a connection
 * that failed is dropped. Independent of Hadoop's user lookup, so it runs on any JDK.
 */
public final class RpcClient implements AutoCloseable {
  private static final int MAX_RESPONSE_BYTES = 256 << 20;

  private final String user;
  private final int connectTimeoutMillis;
  private final MemberConnector members;
  private final Map<String, Deque<Connection>> idle = new ConcurrentHashMap<>();
  private final AtomicInteger callIds = new AtomicInteger();
  private volatile boolean closed;

  /** An ordinary client: plaintext, no proof of membership (tests and tools). */
  public RpcClient(String user, int connectTimeoutMillis) {
    this(user, connectTimeoutMillis, null);
  }

  /**
   * A client whose connections prove cluster membership with {@code members} (TLS first if the cluster
   * uses it), as a master's or region server's calls to other servers must.
   */
  public RpcClient(String user, int connectTimeoutMillis, MemberConnector members) {
    this.user = user;
    this.connectTimeoutMillis = connectTimeoutMillis;
    this.members = members;
  }

  /**
   * Calls {@code service.method(request)} at {@code address} and waits up to {@code timeoutMillis}. A
   * server-side exception comes back as a {@link RemoteException} naming the server's exception class.
   */
  public <R extends Message> R call(InetSocketAddress address, String service, String method, Message request,
      R responsePrototype, int timeoutMillis) throws IOException {
    if (closed) {
      throw new IOException("RPC client closed");
    }
    Connection pooled = takeIdle(address, service);
    if (pooled != null) {
      try {
        return call(pooled, address, service, method, request, responsePrototype, timeoutMillis);
      } catch (java.io.EOFException | java.net.SocketException e) {
        // The peer closed an idle connection (it restarted, say): the call never ran there; use a fresh one.
      }
    }
    return call(Connection.open(address, service, user, connectTimeoutMillis, members), address, service, method, request,
        responsePrototype, timeoutMillis);
  }

  @SuppressWarnings("unchecked")
  private <R extends Message> R call(Connection c, InetSocketAddress address, String service, String method,
      Message request, R responsePrototype, int timeoutMillis) throws IOException {
    boolean reusable = false;
    try {
      c.socket.setSoTimeout(timeoutMillis);
      int callId = callIds.incrementAndGet() & Integer.MAX_VALUE;
      ByteArrayOutputStream frame = new ByteArrayOutputStream(256);
      RequestHeader.newBuilder().setCallId(callId).setMethodName(method).setRequestParam(true)
          .setTimeout(timeoutMillis).build().writeDelimitedTo(frame);
      request.writeDelimitedTo(frame);
      c.out.writeInt(frame.size());
      frame.writeTo(c.out);
      c.out.flush();

      int length = c.in.readInt();
      if (length < 0 || length > MAX_RESPONSE_BYTES) {
        throw new IOException("bad response length " + length + " from " + address);
      }
      byte[] body = new byte[length];
      c.in.readFully(body);
      CodedInputStream in = CodedInputStream.newInstance(body);
      ResponseHeader header = readDelimited(in, ResponseHeader.getDefaultInstance());
      if (header.getCallId() != callId) {
        throw new IOException("response for call " + header.getCallId() + " while waiting for " + callId);
      }
      reusable = true;
      if (header.hasException()) {
        throw new RemoteException(header.getException().getExceptionClassName(),
            firstLine(header.getException().getStackTrace()), header.getException().getDoNotRetry(), address);
      }
      return (R) readDelimited(in, responsePrototype);
    } finally {
      if (reusable && !closed) {
        Deque<Connection> pool = idle.computeIfAbsent(key(address, service), k -> new ArrayDeque<>());
        synchronized (pool) {
          pool.offerFirst(c);
        }
      } else {
        c.close();
      }
    }
  }

  private Connection takeIdle(InetSocketAddress address, String service) {
    Deque<Connection> pool = idle.get(key(address, service));
    if (pool == null) {
      return null;
    }
    synchronized (pool) {
      return pool.pollFirst();
    }
  }

  private static String key(InetSocketAddress address, String service) {
    return address.getHostString() + ":" + address.getPort() + "/" + service;
  }

  private static String firstLine(String stackTrace) {
    int nl = stackTrace.indexOf('\n');
    return nl < 0 ? stackTrace : stackTrace.substring(0, nl);
  }

  @SuppressWarnings("unchecked")
  private static <M extends Message> M readDelimited(CodedInputStream in, M prototype) throws IOException {
    int size = in.readRawVarint32();
    int limit = in.pushLimit(size);
    M m = (M) prototype.getParserForType().parseFrom(in);
    in.popLimit(limit);
    return m;
  }

  @Override
  public void close() {
    closed = true;
    for (Deque<Connection> pool : idle.values()) {
      synchronized (pool) {
        pool.forEach(Connection::close);
        pool.clear();
      }
    }
  }

  private record Connection(Socket socket, DataInputStream in, DataOutputStream out) {
    static Connection open(InetSocketAddress address, String service, String user, int connectTimeoutMillis,
        MemberConnector members) throws IOException {
      Socket s;
      DataInputStream in;
      DataOutputStream out;
      if (members != null) {
        MemberConnector.Connected c = members.open(address, connectTimeoutMillis);
        s = c.socket();
        in = c.in();
        out = c.out();
      } else {
        s = new Socket();
        try {
          s.setTcpNoDelay(true);
          s.connect(address, connectTimeoutMillis);
        } catch (IOException e) {
          s.close();
          throw e;
        }
        in = new DataInputStream(new java.io.BufferedInputStream(s.getInputStream()));
        out = new DataOutputStream(new java.io.BufferedOutputStream(s.getOutputStream()));
      }
      try {
        out.write(FrameDecoder.HBASE_PREAMBLE);
        byte[] header = ConnectionHeader.newBuilder().setServiceName(service)
            .setUserInfo(UserInformation.newBuilder().setEffectiveUser(user)).build().toByteArray();
        out.writeInt(header.length);
        out.write(header);
        out.flush();
        return new Connection(s, in, out);
      } catch (IOException e) {
        s.close();
        throw e;
      }
    }

    void close() {
      try {
        socket.close();
      } catch (IOException ignored) {
        // already broken
      }
    }
  }
}
