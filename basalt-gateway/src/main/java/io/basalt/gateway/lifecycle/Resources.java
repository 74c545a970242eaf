package io.basalt.gateway.lifecycle;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a gateway started, closed in reverse order of start (what started last uses what started first). A part
 * that fails to close is logged and the others still close.
 */
public final class Resources implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Resources.class);

  private final String owner;
  private final Deque<AutoCloseable> started = new ArrayDeque<>();

  /** {@code owner} names the gateway in the log ("the REST gateway"). */
  public Resources(String owner) {
    this.owner = owner;
  }

  public synchronized <T extends AutoCloseable> T track(T resource) {
    started.push(resource);
    return resource;
  }

  @Override
  public void close() {
    while (true) {
      AutoCloseable r;
      synchronized (this) {
        r = started.poll();
      }
      if (r == null) {
        return;
      }
      try {
        r.close();
      } catch (Exception e) {
        LOG.warn("closing {}: {}", owner, e.toString());
      }
    }
  }
}
