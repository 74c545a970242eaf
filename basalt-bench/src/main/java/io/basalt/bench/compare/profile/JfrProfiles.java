package io.basalt.bench.compare.profile;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Cuts a server's JFR recording into one window per workload (the bench's own run windows, so both alternating
 * runs of a workload count, and the loads and pauses between runs do not) and turns the events of each into
 * three stack profiles: CPU (execution samples), allocation (allocation samples weighted by JFR's estimate of
 * the bytes each stands for, the allocated class as the leaf) and lock waits (monitor enters and parks on a
 * lock, weighted by the wait, the lock's class as the leaf). Each stack is rooted at its thread's name with
 * numbers folded ({@code [RpcHandler-#]}), so pools and JE's daemons (cleaner, checkpointer, evictor) show apart.
 */
public final class JfrProfiles {
  public enum Kind {
    CPU("cpu", "samples"), ALLOC("alloc", "bytes"), LOCK("lock", "ns");

    final String file;
    final String unit;

    Kind(String file, String unit) {
      this.file = file;
      this.unit = unit;
    }
  }

  /** A workload's profiles on one target, over all its measured runs. */
  public static final class WorkloadProfile {
    final String workload;
    final String target;
    long ops;
    long nanos;
    final Map<Kind, StackProfile> profiles = new EnumMap<>(Kind.class);

    WorkloadProfile(String workload, String target) {
      this.workload = workload;
      this.target = target;
      for (Kind k : Kind.values()) {
        profiles.put(k, new StackProfile());
      }
    }

    public StackProfile profile(Kind kind) {
      return profiles.get(kind);
    }

    public String workload() {
      return workload;
    }

    public String target() {
      return target;
    }

    public long ops() {
      return ops;
    }

    public double seconds() {
      return nanos / 1e9;
    }
  }

  private static final Pattern NUMBERS = Pattern.compile("\\d+");
  /**
   * Parks on these are a thread waiting for work or for an event (a pool's queue, a condition, a latch, a future),
   * not for a lock another thread holds; an idle pool thread would otherwise show as a long "lock wait". The RPC
   * server's idle handlers park on themselves ({@code HandlerPool$Handler}).
   */
  private static final List<String> WAITS_FOR_WORK = List.of("$ConditionObject", "SynchronousQueue", "ForkJoinPool",
      "CountDownLatch", "CompletableFuture", "FutureTask", "Phaser", "Exchanger", "LinkedTransferQueue",
      "HandlerPool$Handler");

  private JfrProfiles() {}

  /**
   * The profiles of every workload that has windows of {@code target}, from that target's recordings (a cluster
   * has one per region server; their events add up), keyed by workload id in run order.
   */
  public static Map<String, WorkloadProfile> read(String target, List<Path> recordings, List<RunWindow> windows)
      throws IOException {
    List<RunWindow> mine = new ArrayList<>();
    for (RunWindow w : windows) {
      if (w.target().equals(target)) {
        mine.add(w);
      }
    }
    mine.sort(Comparator.comparing(RunWindow::start));
    Map<String, WorkloadProfile> out = new LinkedHashMap<>();
    for (RunWindow w : mine) {
      WorkloadProfile p = out.computeIfAbsent(w.workload(), k -> new WorkloadProfile(k, target));
      p.ops += w.ops();
      p.nanos += java.time.Duration.between(w.start(), w.end()).toNanos();
    }
    for (Path recording : recordings) {
      try (RecordingFile file = new RecordingFile(recording)) {
        while (file.hasMoreEvents()) {
          RecordedEvent e = file.readEvent();
          Kind kind = kindOf(e.getEventType().getName());
          if (kind == null) {
            continue;
          }
          RunWindow w = windowAt(mine, e.getStartTime());
          if (w != null) {
            add(out.get(w.workload()).profiles.get(kind), kind, e);
          }
        }
      }
    }
    return out;
  }

  private static Kind kindOf(String eventType) {
    return switch (eventType) {
      case "jdk.ExecutionSample" -> Kind.CPU;
      case "jdk.ObjectAllocationSample" -> Kind.ALLOC;
      case "jdk.JavaMonitorEnter", "jdk.ThreadPark" -> Kind.LOCK;
      default -> null;
    };
  }

  /** The window holding {@code t}: the last one starting at or before it, if it has not ended by then. */
  static RunWindow windowAt(List<RunWindow> byStart, Instant t) {
    int lo = 0;
    int hi = byStart.size() - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (!byStart.get(mid).start().isAfter(t)) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found >= 0 && byStart.get(found).contains(t) ? byStart.get(found) : null;
  }

  private static void add(StackProfile profile, Kind kind, RecordedEvent e) {
    RecordedStackTrace stack = e.getStackTrace();
    if (stack == null) {
      return;
    }
    String leaf = null;
    long weight;
    RecordedThread thread;
    switch (kind) {
      case CPU -> {
        weight = 1;
        thread = e.getThread("sampledThread");
      }
      case ALLOC -> {
        weight = e.getLong("weight");
        thread = e.getThread();
        RecordedClass c = e.getClass("objectClass");
        leaf = c == null ? null : "[" + typeName(c.getName()) + "]";
      }
      default -> {
        boolean monitor = e.getEventType().getName().equals("jdk.JavaMonitorEnter");
        RecordedClass c = e.getClass(monitor ? "monitorClass" : "parkedClass");
        if (c == null || WAITS_FOR_WORK.stream().anyMatch(c.getName()::contains)) {
          return; // a sleep or a wait for work, not for a lock
        }
        weight = e.getDuration().toNanos();
        thread = e.getThread();
        leaf = "[" + (monitor ? "monitor " : "lock ") + typeName(c.getName()) + "]";
      }
    }
    List<RecordedFrame> frames = stack.getFrames();
    List<String> rootFirst = new ArrayList<>(frames.size() + 3);
    rootFirst.add("[" + threadGroup(thread) + "]");
    if (stack.isTruncated()) {
      rootFirst.add("[truncated]");
    }
    for (int i = frames.size() - 1; i >= 0; i--) {
      RecordedFrame f = frames.get(i);
      if (f.isJavaFrame() && f.getMethod() != null) {
        rootFirst.add(f.getMethod().getType().getName() + "." + f.getMethod().getName());
      }
    }
    if (leaf != null) {
      rootFirst.add(leaf);
    }
    profile.add(rootFirst, weight);
  }

  /** The thread's name with its numbers folded, so a pool's threads are one root. */
  static String threadGroup(RecordedThread t) {
    if (t == null) {
      return "unknown thread";
    }
    String name = t.getJavaName() != null ? t.getJavaName() : t.getOSName();
    return name == null ? "unknown thread" : NUMBERS.matcher(name).replaceAll("#");
  }

  /** A JVM type descriptor as source would name it: {@code [B} is {@code byte[]}. */
  static String typeName(String name) {
    int dims = 0;
    while (dims < name.length() && name.charAt(dims) == '[') {
      dims++;
    }
    if (dims == 0) {
      return name;
    }
    String element = name.substring(dims);
    String base = switch (element) {
      case "B" -> "byte";
      case "C" -> "char";
      case "S" -> "short";
      case "I" -> "int";
      case "J" -> "long";
      case "F" -> "float";
      case "D" -> "double";
      case "Z" -> "boolean";
      default -> element.startsWith("L") && element.endsWith(";") ? element.substring(1, element.length() - 1) : element;
    };
    return base + "[]".repeat(dims);
  }
}
