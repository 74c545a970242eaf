package io.basalt.bench.compare.profile;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Stack traces with a weight each (samples, bytes or nanoseconds), merged by identical stack: the "collapsed
 * stacks" form flame graph tools read ({@code root;caller;callee weight}, one line per distinct stack).
 */
public final class StackProfile {
  /** Root-first frames joined by ';', to the summed weight. Sorted, so the output is stable run to run. */
  private final Map<String, Long> stacks = new TreeMap<>();
  private long total;

  /** @param rootFirst frames from the thread's root to the leaf (the frame that was running or allocating) */
  public void add(List<String> rootFirst, long weight) {
    if (rootFirst.isEmpty() || weight <= 0) {
      return;
    }
    stacks.merge(String.join(";", rootFirst), weight, Long::sum);
    total += weight;
  }

  public long total() {
    return total;
  }

  public boolean isEmpty() {
    return stacks.isEmpty();
  }

  /** Root-first stack (frames joined by ';') to its weight. */
  public Map<String, Long> stacks() {
    return stacks;
  }

  /** The collapsed-stacks text (flamegraph.pl, speedscope and async-profiler's converter read it). */
  public String collapsed() {
    StringBuilder s = new StringBuilder();
    stacks.forEach((stack, weight) -> s.append(stack).append(' ').append(weight).append('\n'));
    return s.toString();
  }

  /** A frame's weight: inclusive (on the stack anywhere, counted once per stack) and self (the leaf). */
  public record FrameWeight(String frame, long inclusive, long self) {}

  /** The {@code n} frames of the largest inclusive weight (ties: largest self, then by name). */
  public List<FrameWeight> topInclusive(int n) {
    return top(n, Comparator.comparingLong(FrameWeight::inclusive).thenComparingLong(FrameWeight::self).reversed()
        .thenComparing(FrameWeight::frame));
  }

  /** The {@code n} frames of the largest self weight. */
  public List<FrameWeight> topSelf(int n) {
    return top(n, Comparator.comparingLong(FrameWeight::self).thenComparingLong(FrameWeight::inclusive).reversed()
        .thenComparing(FrameWeight::frame));
  }

  private List<FrameWeight> top(int n, Comparator<FrameWeight> order) {
    Map<String, long[]> byFrame = new HashMap<>();
    stacks.forEach((stack, weight) -> {
      String[] frames = stack.split(";");
      // A recursive frame counts once per stack, or its inclusive share could pass 100%.
      Set<String> seen = new HashSet<>();
      for (String f : frames) {
        if (seen.add(f)) {
          byFrame.computeIfAbsent(f, k -> new long[2])[0] += weight;
        }
      }
      byFrame.computeIfAbsent(frames[frames.length - 1], k -> new long[2])[1] += weight;
    });
    List<FrameWeight> all = new ArrayList<>(byFrame.size());
    byFrame.forEach((f, w) -> all.add(new FrameWeight(f, w[0], w[1])));
    all.sort(order);
    return all.subList(0, Math.min(n, all.size()));
  }
}
