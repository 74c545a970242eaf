package io.basalt.bench.compare.launch;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/** A Basalt or HBase cluster that was running before the bench (--connect): client-side figures only. */
public final class RunningCluster implements Target {
  private final String name;
  private final String quorum;
  private final int port;

  public RunningCluster(String name, String quorum, int port) {
    this.name = name;
    this.quorum = quorum;
    this.port = port;
  }

  /** Parses {@code host:port} (the ZooKeeper quorum and client port). */
  public static RunningCluster parse(String name, String connect) {
    int colon = connect.lastIndexOf(':');
    if (colon <= 0) {
      throw new IllegalArgumentException("--connect wants ZOOKEEPER_HOST:PORT, not '" + connect + "'");
    }
    return new RunningCluster(name, connect.substring(0, colon), Integer.parseInt(connect.substring(colon + 1)));
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Configuration clientConfiguration() {
    return ClientSettings.zookeeper(quorum, port);
  }

  @Override
  public List<ChildJvm> processes() {
    return List.of();
  }

  @Override
  public Optional<Duration> coldStart() {
    return Optional.empty();
  }

  @Override
  public void close() {
    // not ours to stop
  }

  @Override
  public String toString() {
    return name + " at " + quorum + ":" + port + " (already running)";
  }
}
