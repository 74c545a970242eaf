package io.basalt.bench.compare.measure;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pauses a server's threads sit through, from a child's {@code -Xlog:gc,gc+phases} file:
 * <ul>
 *   <li>stop-the-world pauses, which every collector names "Pause ...": G1 on the gc tag ("Pause Young (Normal)
 *       (G1 Evacuation Pause) 24M->4M(256M) 3.123ms"), ZGC on gc+phases ("Pause Mark Start 0.012ms"); the
 *       concurrent phases never do;
 *   <li>ZGC's allocation stalls ("Allocation Stall (regionserver-handler-7) 111.722ms"): a thread that needs
 *       memory while a concurrent cycle has not freed enough waits for it. Only that thread stops, but a
 *       request it serves waits as in a pause, so each stall counts as one.
 * </ul>
 */
public final class GcLog {
  private static final Pattern PAUSE =
      Pattern.compile("\\b(?:Pause |Allocation Stall \\().*?([0-9]+(?:\\.[0-9]+)?)ms\\s*$");

  private GcLog() {}

  /** Pauses totalled since byte {@code offset} of the file; {@link Pauses#endOffset()} is where to start next time. */
  public static Pauses since(Path file, long offset) {
    if (file == null || !Files.exists(file)) {
      return new Pauses(0, 0, 0, offset);
    }
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "r")) {
      long length = f.length();
      if (length <= offset) {
        return new Pauses(0, 0, 0, offset);
      }
      byte[] bytes = new byte[(int) (length - offset)];
      f.seek(offset);
      f.readFully(bytes);
      // Only whole lines count; a half-written last line is read next time.
      int end = lastNewline(bytes);
      return parse(new String(bytes, 0, end, StandardCharsets.UTF_8), offset + end);
    } catch (IOException e) {
      return new Pauses(0, 0, 0, offset);
    }
  }

  private static int lastNewline(byte[] bytes) {
    for (int i = bytes.length - 1; i >= 0; i--) {
      if (bytes[i] == '\n') {
        return i + 1;
      }
    }
    return 0;
  }

  static Pauses parse(String text, long endOffset) {
    double total = 0;
    double max = 0;
    int count = 0;
    for (String line : text.split("\n")) {
      Matcher m = PAUSE.matcher(line);
      if (m.find()) {
        double ms = Double.parseDouble(m.group(1));
        total += ms;
        max = Math.max(max, ms);
        count++;
      }
    }
    return new Pauses(total, max, count, endOffset);
  }

  /** Total and longest pause in milliseconds, and how many. */
  public record Pauses(double totalMillis, double maxMillis, int count, long endOffset) {}
}
