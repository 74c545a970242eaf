package io.basalt.server.rpc;

/** Told about every call a {@link CallDispatcher} ran (metrics); must be quick and must not throw. */
public interface CallListener {
  CallListener NONE = (service, method, nanos, failed) -> {};

  /**
   * @param service the protobuf service's short name ({@code ClientService}, ...)
   * @param method the method name ({@code Get}, {@code Multi}, {@code Scan}, ...)
   * @param nanos time spent running the call (decoding and encoding excluded)
   * @param failed whether it answered with an exception
   */
  void called(String service, String method, long nanos, boolean failed);
}
