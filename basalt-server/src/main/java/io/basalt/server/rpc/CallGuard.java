package io.basalt.server.rpc;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * Decides, before a call runs, whether its caller may make it (authorisation). It may narrow the request
 * (a read of columns the caller may only partly read) and adjust the response once the call succeeded (drop
 * entries of a listing the caller may not see, record what the call changed). The RPC layer knows nothing of
 * permissions: it only asks.
 */
public interface CallGuard {
  CallGuard OPEN = (caller, service, method, request, cells) -> Admitted.as(request);

  /**
   * @param cells the request's cell block (mutations travel there when the client negotiated a codec)
   * @throws IOException the refusal the client gets (AccessDeniedException), nothing has run
   */
  Admitted admit(Caller caller, String service, String method, Message request, List<Cell> cells)
      throws IOException;

  /** A call let through: the request to run and what to do with its response. */
  interface Admitted {
    Message request();

    /** The request's cell block to run with: {@code original} unless cells of refused actions were cut out. */
    default List<Cell> cells(List<Cell> original) {
      return original;
    }

    /** A response to send without running the call (HBase answers a few refusals so); null: run it. */
    default Message answer() {
      return null;
    }

    /** Called with the successful response; returns the one to send. */
    Message complete(Message response) throws IOException;

    static Admitted as(Message request) {
      return new Admitted() {
        @Override
        public Message request() {
          return request;
        }

        @Override
        public Message complete(Message response) {
          return response;
        }
      };
    }
  }
}
