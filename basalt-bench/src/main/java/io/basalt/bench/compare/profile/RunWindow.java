package io.basalt.bench.compare.profile;

import java.time.Instant;

/**
 * When one measured run of a workload ran against one target, as wall-clock instants (JFR stamps its events in
 * the same clock), and how many operations it completed.
 */
public record RunWindow(String workload, String target, Instant start, Instant end, long ops) {
  public boolean contains(Instant t) {
    return !t.isBefore(start) && !t.isAfter(end);
  }
}
