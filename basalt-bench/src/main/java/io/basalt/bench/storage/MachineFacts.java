package io.basalt.bench.storage;

import io.basalt.bench.report.HostFacts;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** The facts a reader needs to compare two runs: hardware, JVM, and the data directory's file system. */
final class MachineFacts {
  private MachineFacts() {}

  static List<String> describe(Path dataDir) {
    List<String> facts = new ArrayList<>();
    Runtime rt = Runtime.getRuntime();
    facts.add("cores: " + rt.availableProcessors() + HostFacts.cpuModelSuffix());
    facts.add(String.format("memory: %.1f GB physical", ProcessStats.totalMemoryBytes() / (double) (1L << 30)));
    facts.add("os: " + System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
    facts.add("java: " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + " "
        + System.getProperty("java.vm.version") + ")");
    facts.add(String.format("max heap: %,d MB; GC: %s", rt.maxMemory() >> 20,
        ManagementFactory.getGarbageCollectorMXBeans().stream().map(GarbageCollectorMXBean::getName)
            .collect(Collectors.joining(", "))));
    facts.add("jvm options: " + String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments()));
    facts.add("je: " + com.sleepycat.je.JEVersion.CURRENT_VERSION.getVersionString());
    try {
      FileStore store = Files.getFileStore(dataDir);
      facts.add(String.format("data dir: %s (%s on %s, %,d MB free of %,d MB)", dataDir, store.type(), store.name(),
          store.getUsableSpace() >> 20, store.getTotalSpace() >> 20));
    } catch (IOException e) {
      facts.add("data dir: " + dataDir + " (file system unknown: " + e.getMessage() + ")");
    }
    return facts;
  }
}
