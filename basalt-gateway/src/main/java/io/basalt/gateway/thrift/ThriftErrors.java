package io.basalt.gateway.thrift;

import io.basalt.gateway.thrift.generated.IOError;
import io.basalt.gateway.thrift.generated.IllegalArgument;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.apache.hadoop.hbase.DoNotRetryIOException;

/** The Thrift exceptions HBase's Thrift 1 gateway raises, built the way it builds them. */
final class ThriftErrors {
  private ThriftErrors() {}

  /** IOError with the cause's message; canRetry only for I/O failures HBase did not call permanent. */
  static IOError io(Throwable e) {
    boolean canRetry = e instanceof java.io.IOException && !(e instanceof DoNotRetryIOException);
    IOError error = new IOError(messageOf(e), canRetry);
    error.initCause(e);
    return error;
  }

  /** IOError for a refusal of the gateway's own (an unknown scanner id, a table that is not there). */
  static IOError io(String message) {
    return new IOError(message, false);
  }

  /** IllegalArgument carrying the stack trace as its message, as HBase's gateway sends it. */
  static IllegalArgument illegalArgument(IllegalArgumentException e) {
    StringWriter trace = new StringWriter();
    e.printStackTrace(new PrintWriter(trace));
    IllegalArgument error = new IllegalArgument(trace.toString());
    error.initCause(e);
    return error;
  }

  static IllegalArgument illegalArgument(String message) {
    return new IllegalArgument(message);
  }

  private static String messageOf(Throwable e) {
    return e.getMessage() != null ? e.getMessage() : e.getClass().getName();
  }
}
