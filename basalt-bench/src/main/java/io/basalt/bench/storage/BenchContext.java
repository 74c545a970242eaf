package io.basalt.bench.storage;

import io.basalt.storage.io.LocalStorageFiles;
import io.basalt.storage.je.JeStorageEngine;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * What the workloads share: settings, the run's data directory, the output, and the one engine open at a
 * time (remembered so an interrupted run can still close it before its data is deleted).
 */
final class BenchContext {
  final Settings settings;
  final Path root;
  final PrintStream out;
  private volatile JeStorageEngine engine;

  BenchContext(Settings settings, Path root, PrintStream out) {
    this.settings = settings;
    this.root = root;
    this.out = out;
  }

  /** An engine whose shared JE cache is {@code cacheMb}; close it with {@link #closeEngine()}. */
  JeStorageEngine openEngine(long cacheMb) {
    if (engine != null) {
      throw new IllegalStateException("an engine is already open");
    }
    engine = new JeStorageEngine(settings.config(cacheMb));
    return engine;
  }

  void closeEngine() {
    JeStorageEngine e = engine;
    engine = null;
    if (e != null) {
      e.close();
    }
  }

  /** Removes a region directory (or any directory of the run) and everything in it. */
  void delete(Path dir) {
    try {
      LocalStorageFiles.INSTANCE.deleteRecursively(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  void printRate(String label, Rate r) {
    String read = Double.isNaN(r.readBytesPerOp()) ? "n/a" : String.format("%,.0f", r.readBytesPerOp());
    out.printf("  %-34s %d thread%s: %,10.0f ops/s  %7.1f CPU-us/op  %9s read B/op  (%,d ops in %.1f s, mean %.1f us)%n",
        label, r.threads(), r.threads() == 1 ? " " : "s", r.opsPerSecond(), r.cpuMicrosPerOp(), read, r.ops(),
        r.nanos() / 1e9, r.meanLatencyMicros());
  }
}
