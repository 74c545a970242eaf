package io.basalt.server.lifecycle;

import java.util.ArrayDeque;
import java.util.Deque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The parts a server started, closed in reverse order of start (what started last depends on what
 * started first). A failure to close one part is logged and the others still close.
 */
public final class Resources implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Resources.class);

  private final Deque<AutoCloseable> started = new ArrayDeque<>();

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
        LOG.warn("error while stopping {}", r, e);
      }
    }
  }
}
