package io.basalt.server.rpc;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.RPCProtos.RequestHeader;
import org.apache.hbase.thirdparty.com.google.protobuf.BlockingService;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedInputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.Descriptors.MethodDescriptor;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;
import org.apache.hbase.thirdparty.com.google.protobuf.ServiceException;

/**
 * Decodes one request frame ({@code delimited RequestHeader | delimited param | cell block}) and runs it on
 * the protobuf service the connection header named. Returns the response frame, success or error.
 */
public final class CallDispatcher {
  private final Map<String, BlockingService> services = new ConcurrentHashMap<>();
  private volatile boolean ready;
  private volatile CallListener listener = CallListener.NONE;
  private volatile CallGuard guard = CallGuard.OPEN;

  /** Registers a service under its short protobuf name ({@code ClientService}, {@code MasterService}, ...). */
  public void register(BlockingService service) {
    services.put(service.getDescriptorForType().getName(), service);
  }

  /** Reports every call run from now on to {@code l} (one listener; metrics). */
  public void listen(CallListener l) {
    listener = l == null ? CallListener.NONE : l;
  }

  /** Every call from now on is first admitted (or refused) by {@code g} (authorisation). */
  public void guard(CallGuard g) {
    guard = g == null ? CallGuard.OPEN : g;
  }

  /** Until this is called (start-up, a standby master) calls are answered with a retriable "not yet". */
  public void markReady() {
    ready = true;
  }

  /** Whether a connection naming this service may stay open: a known service, or one that may come. */
  boolean accepts(String serviceName) {
    return !ready || services.containsKey(serviceName);
  }

  /** Reads just the call id of a frame (for errors about frames that cannot be run). */
  static int callIdOf(byte[] frameHead) {
    try {
      CodedInputStream in = CodedInputStream.newInstance(frameHead);
      int size = in.readRawVarint32();
      int limit = in.pushLimit(size);
      RequestHeader h = RequestHeader.parseFrom(in);
      in.popLimit(limit);
      return h.hasCallId() ? h.getCallId() : -1;
    } catch (IOException | RuntimeException e) {
      return -1;
    }
  }

  /** Runs one request frame; the response frame comes from {@code alloc} and is the caller's to write or release. */
  ByteBuf dispatch(String serviceName, byte[] frame, boolean cellBlocks, Caller caller, ByteBufAllocator alloc) {
    int callId = -1;
    try {
      CodedInputStream in = CodedInputStream.newInstance(frame);
      // Each frame is its own array, never reused: bytes fields (a put's values) may be views of it, not copies.
      in.enableAliasing(true);
      RequestHeader header = readDelimited(in, RequestHeader.getDefaultInstance());
      callId = header.getCallId();
      BlockingService service = services.get(serviceName);
      if (service == null && !ready) {
        throw new org.apache.hadoop.hbase.ipc.ServerNotRunningYetException("Server is not running yet");
      }
      if (service == null) {
        throw new DoNotRetryIOException(new UnsupportedOperationException("unknown service " + serviceName));
      }
      MethodDescriptor method = service.getDescriptorForType().findMethodByName(header.getMethodName());
      if (method == null) {
        throw new DoNotRetryIOException(new UnsupportedOperationException(
            "unknown method " + header.getMethodName() + " of " + serviceName));
      }
      if (!header.getRequestParam()) {
        throw new DoNotRetryIOException("request " + header.getMethodName() + " has no parameter");
      }
      Message param = readDelimited(in, service.getRequestPrototype(method));
      AnonymousCalls.check(caller, serviceName, method.getName(), param);
      List<Cell> cells = List.of();
      if (header.hasCellBlockMeta()) {
        int length = header.getCellBlockMeta().getLength();
        int offset = in.getTotalBytesRead();
        if (length < 0 || offset + length > frame.length) {
          throw new DoNotRetryIOException("cell block of " + length + " bytes overruns the frame");
        }
        cells = CellBlocks.decode(frame, offset, length);
      }
      CallGuard.Admitted admitted = guard.admit(caller, serviceName, method.getName(), param, cells);
      CallController controller = new CallController(admitted.cells(cells), cellBlocks, caller, header.getTimeout());
      Message response;
      long start = System.nanoTime();
      boolean failed = true;
      try {
        Message answer = admitted.answer();
        response = answer != null ? answer
            : admitted.complete(service.callBlockingMethod(method, controller, admitted.request()));
        failed = false;
      } catch (ServiceException e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        return Unpooled.wrappedBuffer(Responses.error(callId, cause));
      } finally {
        listener.called(serviceName, method.getName(), System.nanoTime() - start, failed);
      }
      return Responses.success(alloc, callId, response, controller.responseCells());
    } catch (IOException e) {
      return Unpooled.wrappedBuffer(Responses.error(callId, e));
    } catch (RuntimeException e) {
      return Unpooled.wrappedBuffer(Responses.error(callId, new DoNotRetryIOException(e.toString(), e)));
    }
  }

  @SuppressWarnings("unchecked")
  private static <M extends Message> M readDelimited(CodedInputStream in, M prototype) throws IOException {
    int size = in.readRawVarint32();
    int limit = in.pushLimit(size);
    M m = (M) prototype.getParserForType().parseFrom(in);
    in.checkLastTagWas(0);
    in.popLimit(limit);
    return m;
  }
}
