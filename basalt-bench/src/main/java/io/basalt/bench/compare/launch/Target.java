package io.basalt.bench.compare.launch;

import java.time.Duration;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;

/** A cluster the workloads run against through the unmodified HBase client: one the bench started, or one already running. */
public interface Target extends AutoCloseable {
  /** "basalt" or "hbase". */
  String name();

  /** A fresh client configuration pointing at this cluster's ZooKeeper. */
  Configuration clientConfiguration();

  /** The server JVM, when the bench started it (its pid and GC log feed the server-side figures). */
  Optional<ChildJvm> server();

  /** From launching the JVM to the first operation it answered; absent for a cluster that was already running. */
  Optional<Duration> coldStart();

  /** Stops the server the bench started (only that pid); nothing for a cluster that was already running. */
  @Override
  void close();
}
