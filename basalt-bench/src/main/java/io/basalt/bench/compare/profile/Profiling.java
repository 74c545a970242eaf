package io.basalt.bench.compare.profile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** {@code bin/basalt bench --profile}: the profiles of every profiled target, from the recordings in its log directory. */
public final class Profiling {
  private Profiling() {}

  /**
   * @param servers the bench's server directory ({@code servers/TARGET/logs/*.jfr})
   * @param targets the targets of the run; those without recordings (HBase) are skipped
   */
  public static void write(Path out, Path servers, List<String> targets, List<RunWindow> windows, List<String> facts)
      throws IOException {
    List<JfrProfiles.WorkloadProfile> all = new ArrayList<>();
    List<String> header = new ArrayList<>(facts);
    for (String target : targets) {
      List<Path> recordings = recordings(servers.resolve(target).resolve("logs"));
      if (recordings.isEmpty()) {
        continue;
      }
      header.add(target + ": " + recordings.stream().map(p -> servers.relativize(p).toString()).toList());
      all.addAll(JfrProfiles.read(target, recordings, windows).values());
    }
    ProfileReport.write(out, all, header);
  }

  static List<Path> recordings(Path logs) throws IOException {
    if (!Files.isDirectory(logs)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(logs)) {
      return files.filter(p -> p.getFileName().toString().endsWith(".jfr")).sorted().toList();
    }
  }
}
