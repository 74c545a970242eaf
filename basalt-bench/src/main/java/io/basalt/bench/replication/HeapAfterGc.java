package io.basalt.bench.replication;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Java heap a process still uses after a full collection, asked through {@code jcmd PID GC.run} and then
 * {@code jcmd PID GC.heap_info}. Run after the idle window, since the collection costs CPU. NaN when jcmd is
 * missing, fails or prints something this does not recognize.
 */
final class HeapAfterGc {
  /** ZGC: " ZHeap           used 20M, capacity 64M, max capacity 1024M"; G1 and others: "... used 12345K ...". */
  private static final Pattern USED = Pattern.compile("(?:ZHeap|garbage-first heap|total)\\b[^\\n]*?used (\\d+)([KMG])");

  private HeapAfterGc() {}

  static double megabytes(long pid) {
    try {
      if (run(pid, "GC.run") == null) {
        return Double.NaN;
      }
      String info = run(pid, "GC.heap_info");
      if (info == null) {
        return Double.NaN;
      }
      Matcher m = USED.matcher(info);
      if (!m.find()) {
        return Double.NaN;
      }
      double n = Long.parseLong(m.group(1));
      return switch (m.group(2)) {
        case "K" -> n / 1024;
        case "G" -> n * 1024;
        default -> n;
      };
    } catch (IOException e) {
      return Double.NaN;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Double.NaN;
    }
  }

  private static String run(long pid, String command) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(List.of(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
        Long.toString(pid), command)).redirectErrorStream(true).start();
    p.getOutputStream().close();
    byte[] out = p.getInputStream().readAllBytes();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return null;
    }
    return p.exitValue() == 0 ? new String(out, StandardCharsets.UTF_8) : null;
  }
}
