package io.basalt.server.security;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The current {@link SSLContext} of a process, rebuilt when its keystore or truststore file changes
 * ({@code hbase.rpc.tls.certReload}, polled every {@code hbase.rpc.tls.filepoll.interval.millis}, as
 * HBase's FileChangeWatcher). New connections take the new certificates; open ones keep theirs. A file
 * that changed into something unreadable is logged and the last good context kept, so a half-copied
 * keystore never takes a running server down.
 */
public final class ReloadingTls implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ReloadingTls.class);

  private final TlsMaterial material;
  private final AtomicReference<SSLContext> current = new AtomicReference<>();
  private final AtomicReference<List<FileTime>> stamps = new AtomicReference<>();
  private final ScheduledExecutorService poller;
  private volatile Runnable onReload = () -> { };

  /** Loads the material now (failing if it is unusable); watches the files if {@code pollMillis > 0}. */
  public ReloadingTls(TlsMaterial material, long pollMillis) throws IOException {
    this.material = material;
    stamps.set(stamps());
    current.set(material.sslContext());
    if (pollMillis > 0) {
      poller = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "basalt-tls-reload");
        t.setDaemon(true);
        return t;
      });
      poller.scheduleWithFixedDelay(this::reloadIfChanged, pollMillis, pollMillis, TimeUnit.MILLISECONDS);
    } else {
      poller = null;
    }
  }

  public SSLContext context() {
    return current.get();
  }

  /** Runs {@code r} after each successful reload (to rebuild what was derived from the context). */
  public void onReload(Runnable r) {
    onReload = r;
  }

  /** Rebuilds the context if a file changed since the last look; true if it did. */
  public boolean reloadIfChanged() {
    try {
      List<FileTime> now = stamps();
      if (Objects.equals(now, stamps.get())) {
        return false;
      }
      SSLContext fresh = material.sslContext();
      stamps.set(now);
      current.set(fresh);
      onReload.run();
      LOG.info("reloaded TLS certificates from {} and {}", material.keystore(), material.truststore());
      return true;
    } catch (IOException | RuntimeException e) {
      LOG.error("TLS certificate files changed but cannot be loaded; keeping the previous ones: {}", e.getMessage());
      return false;
    }
  }

  private List<FileTime> stamps() {
    List<FileTime> out = new ArrayList<>();
    for (Path p : new Path[] {material.keystore(), material.truststore()}) {
      try {
        out.add(p == null ? null : Files.getLastModifiedTime(p));
      } catch (IOException e) {
        out.add(null);
      }
    }
    return out;
  }

  @Override
  public void close() {
    if (poller != null) {
      poller.shutdownNow();
    }
  }
}
