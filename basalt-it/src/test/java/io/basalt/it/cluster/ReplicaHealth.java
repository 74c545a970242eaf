package io.basalt.it.cluster;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Whether every replicated region of a cluster has all its copies serving, from the region servers' own
 * {@code /metrics}: each group has one primary and {@code copies - 1} secondaries, and no member is without a
 * role. A member still being filled is not open yet, so it is counted only once it holds the data. "One failure
 * at a time" means waiting for this before the next.
 */
final class ReplicaHealth {
  private static final Pattern MEMBERS = Pattern.compile("^basalt_replication_members\\{role=\"(\\w+)\",?\\} (\\S+)$",
      Pattern.MULTILINE);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private ReplicaHealth() {}

  /** What is not healthy yet, or empty when every group has all its copies serving. */
  static Optional<String> problem(LocalCluster cluster, int copies) throws InterruptedException {
    long primaries = 0;
    long secondaries = 0;
    long other = 0;
    for (LocalCluster.Node n : cluster.regionServers()) {
      if (!n.alive()) {
        return Optional.of(n.name + " is down");
      }
      String metrics;
      try {
        metrics = HTTP.send(HttpRequest.newBuilder(URI.create("http://" + n.host + ":" + n.infoPort + "/metrics"))
            .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString()).body();
      } catch (IOException e) {
        return Optional.of(n.name + " does not answer /metrics yet: " + e);
      }
      Matcher m = MEMBERS.matcher(metrics);
      while (m.find()) {
        long count = (long) Double.parseDouble(m.group(2));
        switch (m.group(1)) {
          case "primary" -> primaries += count;
          case "secondary" -> secondaries += count;
          default -> other += count;
        }
      }
    }
    if (other > 0 || secondaries != primaries * (copies - 1)) {
      return Optional.of(primaries + " primaries, " + secondaries + " secondaries and " + other
          + " members without a role are serving");
    }
    return Optional.empty();
  }

  /** Waits until {@link #problem} finds none; returns how long that took. */
  static long awaitHealthy(LocalCluster cluster, int copies, Duration max) throws InterruptedException {
    long start = System.nanoTime();
    long deadline = start + max.toNanos();
    Optional<String> problem;
    while ((problem = problem(cluster, copies)).isPresent()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("the cluster's copies are not all serving after " + max.toSeconds() + " s: "
            + problem.get());
      }
      Thread.sleep(500);
    }
    return (System.nanoTime() - start) / 1_000_000;
  }
}
