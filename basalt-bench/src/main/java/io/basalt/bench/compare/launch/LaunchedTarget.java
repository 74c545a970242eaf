package io.basalt.bench.compare.launch;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;

/**
 * A target made of JVMs the bench started on loopback: one standalone server, or the processes of a local cluster
 * in the order they were started, in tiers (ZooKeeper, then the master, then the region servers). It is ready when
 * its ZooKeeper answers the HBase client and enough region servers are live; {@link #close()} stops the tiers in
 * reverse order, each tier's processes together, by their pids and nothing else.
 */
public final class LaunchedTarget implements Target {
  private final String name;
  private final String description;
  private final int zookeeperPort;
  private final List<List<ChildJvm>> tiers;
  private final Duration coldStart;
  private final UnaryOperator<Configuration> clientSide;

  private LaunchedTarget(String name, String description, int zookeeperPort, List<List<ChildJvm>> tiers,
      Duration coldStart, UnaryOperator<Configuration> clientSide) {
    this.clientSide = clientSide;
    this.name = name;
    this.description = description;
    this.zookeeperPort = zookeeperPort;
    this.tiers = tiers;
    this.coldStart = coldStart;
  }

  /**
   * Waits until the started processes serve (every one alive, {@code liveServers} region servers registered) and
   * returns them as a target; stops them all if they do not.
   *
   * @param tiers the processes in start order; the first process's launch is the start of the cold start time
   */
  public static LaunchedTarget awaitReady(String name, String description, int zookeeperPort, int liveServers,
      List<List<ChildJvm>> tiers) throws IOException, InterruptedException {
    return awaitReady(name, description, zookeeperPort, liveServers, tiers, UnaryOperator.identity());
  }

  /** As above, for servers a client reaches only with more settings ({@code clientSide}: e.g. TLS). */
  public static LaunchedTarget awaitReady(String name, String description, int zookeeperPort, int liveServers,
      List<List<ChildJvm>> tiers, UnaryOperator<Configuration> clientSide) throws IOException, InterruptedException {
    List<List<ChildJvm>> copy = tiers.stream().map(List::copyOf).toList();
    try {
      Duration coldStart = Readiness.await(flatten(copy), description, zookeeperPort, liveServers, clientSide);
      return new LaunchedTarget(name, description, zookeeperPort, copy, coldStart, clientSide);
    } catch (IOException | InterruptedException | RuntimeException e) {
      stop(copy);
      throw e;
    }
  }

  /** Stops the tiers in reverse start order, each tier's processes together (for a launch that failed midway). */
  public static void stop(List<List<ChildJvm>> tiers) {
    List<List<ChildJvm>> reversed = new ArrayList<>(tiers);
    Collections.reverse(reversed);
    for (List<ChildJvm> tier : reversed) {
      ChildJvm.stopAll(tier);
    }
  }

  private static List<ChildJvm> flatten(List<List<ChildJvm>> tiers) {
    return tiers.stream().flatMap(List::stream).toList();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Configuration clientConfiguration() {
    return clientSide.apply(ClientSettings.zookeeper("127.0.0.1", zookeeperPort));
  }

  @Override
  public List<ChildJvm> processes() {
    return flatten(tiers);
  }

  @Override
  public Optional<Duration> coldStart() {
    return Optional.of(coldStart);
  }

  @Override
  public void close() {
    stop(tiers);
  }

  @Override
  public String toString() {
    return description + " (pid " + processes().stream().map(c -> Long.toString(c.pid()))
        .collect(Collectors.joining(", ")) + ", ZooKeeper 127.0.0.1:" + zookeeperPort + ", logs "
        + processes().get(0).log().getParent() + ")";
  }
}
