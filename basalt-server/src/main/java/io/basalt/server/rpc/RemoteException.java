package io.basalt.server.rpc;

import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.hbase.DoNotRetryIOException;

/** An exception a peer's handler threw, known by its class name (as HBase's RPC carries it). */
public final class RemoteException extends IOException {
  private final String className;
  private final boolean doNotRetry;

  public RemoteException(String className, String message, boolean doNotRetry, InetSocketAddress from) {
    super(className + " from " + from + ": " + message);
    this.className = className;
    this.doNotRetry = doNotRetry;
  }

  public String className() {
    return className;
  }

  public boolean doNotRetry() {
    return doNotRetry;
  }

  public boolean is(Class<? extends Throwable> type) {
    return type.getName().equals(className);
  }

  /**
   * The peer's exception rebuilt as its own class where it has a (String) constructor, else as an HBase
   * exception an HBase client can rebuild in turn (this class is Basalt's own), retriable as the peer said.
   */
  public IOException unwrap() {
    try {
      Class<?> c = Class.forName(className);
      if (IOException.class.isAssignableFrom(c)) {
        return (IOException) c.getConstructor(String.class).newInstance(getMessage());
      }
    } catch (ReflectiveOperationException | LinkageError e) {
      // not a class we can rebuild
    }
    return doNotRetry ? new DoNotRetryIOException(getMessage(), this)
        : new org.apache.hadoop.hbase.HBaseIOException(getMessage(), this);
  }
}
