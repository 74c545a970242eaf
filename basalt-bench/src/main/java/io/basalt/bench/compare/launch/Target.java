package io.basalt.bench.compare.launch;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;

/** A cluster the workloads run against through the unmodified HBase client: one the bench started, or one already running. */
public interface Target extends AutoCloseable {
  /**
   * "basalt", "hbase", "basalt-rfN" (a Basalt cluster with N copies of each region), or "basalt-secure",
   * "hbase-secure" (TLS and ACLs on).
   */
  String name();

  /** A fresh client configuration pointing at this cluster's ZooKeeper. */
  Configuration clientConfiguration();

  /** The connection the workloads use: the HBase client with {@link #clientConfiguration()}, as its user. */
  default Connection connect() throws java.io.IOException {
    return ConnectionFactory.createConnection(clientConfiguration());
  }

  /**
   * The JVMs the bench started for this target (one for a standalone server, every process of a local cluster);
   * their pids and GC logs feed the server-side figures, summed over them. Empty for a cluster that was already
   * running.
   */
  List<ChildJvm> processes();

  /** From launching the first JVM to the first operation it answered; absent for a cluster that was already running. */
  Optional<Duration> coldStart();

  /** Stops the processes the bench started (only those pids); nothing for a cluster that was already running. */
  @Override
  void close();
}
