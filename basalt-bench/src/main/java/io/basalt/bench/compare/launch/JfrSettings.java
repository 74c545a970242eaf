package io.basalt.bench.compare.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.ParseException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.Configuration;

/**
 * The JFR settings of a profiled server: the JDK's {@code profile} settings (CPU samples every 10 ms, allocation
 * samples, ...) with lock waits recorded from 1 ms instead of 10 ms, because the contention worth seeing on a
 * 2-core box (JE's latches, the evictor's list) is mostly short waits. Written as a .jfc file beside the log.
 */
public final class JfrSettings {
  /** Events the lock profile reads, recorded from this wait on. */
  static final String LOCK_THRESHOLD = "1 ms";
  /** JFR's default of 64 frames cuts Netty-to-JE stacks below the handler, which flame graphs then show as roots. */
  static final int STACK_DEPTH = 160;

  private JfrSettings() {}

  /**
   * JVM flags that record into {@code jfr} with these settings, dumped when the JVM exits. Without a size limit: JFR's
   * default keeps the last 250 MB, about ten minutes of a busy server, and a full bench run is an hour.
   */
  static List<String> jvmFlags(Path logDir, String name) throws IOException {
    Path jfc = write(logDir.resolve(name + ".jfc"));
    return List.of("-XX:FlightRecorderOptions:stackdepth=" + STACK_DEPTH,
        "-XX:StartFlightRecording=settings=" + jfc.toAbsolutePath() + ",maxsize=0,dumponexit=true,filename="
            + logDir.toAbsolutePath().resolve(name + ".jfr"));
  }

  static Path write(Path file) throws IOException {
    Map<String, Map<String, String>> byEvent = new TreeMap<>();
    try {
      Configuration.getConfiguration("profile").getSettings().forEach((key, value) -> {
        int hash = key.indexOf('#');
        if (hash < 0) {
          return;
        }
        byEvent.computeIfAbsent(key.substring(0, hash), k -> new TreeMap<>()).put(key.substring(hash + 1), value);
      });
    } catch (ParseException e) {
      throw new IOException("the JDK's JFR profile settings do not parse", e);
    }
    for (String event : List.of("jdk.JavaMonitorEnter", "jdk.ThreadPark")) {
      byEvent.computeIfAbsent(event, k -> new TreeMap<>()).putAll(Map.of("enabled", "true", "stackTrace", "true",
          "threshold", LOCK_THRESHOLD));
    }
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        + "<configuration version=\"2.0\" label=\"basalt-bench\" description=\"JDK profile, lock waits from "
        + LOCK_THRESHOLD + "\" provider=\"Basalt\">\n");
    byEvent.forEach((event, settings) -> {
      xml.append("  <event name=\"").append(event).append("\">\n");
      settings.forEach((name, value) -> xml.append("    <setting name=\"").append(name).append("\">")
          .append(value.replace("&", "&amp;").replace("<", "&lt;")).append("</setting>\n"));
      xml.append("  </event>\n");
    });
    xml.append("</configuration>\n");
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.writeString(file, xml, StandardCharsets.UTF_8);
    return file;
  }
}
