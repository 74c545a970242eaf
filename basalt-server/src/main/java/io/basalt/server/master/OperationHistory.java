package io.basalt.server.master;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The recent splits, moves and merges with their step durations, for the status page, metrics and benchmarks
 * (merge: close, merge, publish, open).
 */
public final class OperationHistory {
  private static final int KEEP = 200;

  /**
   * One finished operation. {@code phasesMillis} in protocol order (split: close, clone, publish, openA,
   * openB; move: prefetch, close, catchUpAndOpen, publish, cleanUp); {@code unavailableMillis} from the region
   * refusing requests until its successor serves (split: daughters published and opened; move: the target
   * published, having opened before).
   */
  public record Operation(String kind, String region, String from, String to, long startedAtMillis,
      Map<String, Long> phasesMillis, long unavailableMillis, long bytes, String outcome) {
    public long totalMillis() {
      return phasesMillis.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private final Deque<Operation> recent = new ArrayDeque<>();
  private long splits;
  private long moves;

  synchronized void add(Operation op) {
    if (op.kind().equals("split")) {
      splits++;
    } else if (!op.kind().equals("merge")) {
      moves++;
    }
    recent.addFirst(new Operation(op.kind(), op.region(), op.from(), op.to(), op.startedAtMillis(),
        new LinkedHashMap<>(op.phasesMillis()), op.unavailableMillis(), op.bytes(), op.outcome()));
    while (recent.size() > KEEP) {
      recent.removeLast();
    }
  }

  /** Newest first. */
  public synchronized List<Operation> recent() {
    return new ArrayList<>(recent);
  }

  public synchronized long splitCount() {
    return splits;
  }

  public synchronized long moveCount() {
    return moves;
  }
}
