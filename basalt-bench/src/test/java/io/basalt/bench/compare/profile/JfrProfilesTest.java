package io.basalt.bench.compare.profile;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The profile mode's analysis on a real JFR recording of this JVM: a thread that burns CPU in a known method and
 * allocates, and two threads contending for one monitor, inside a window; work outside it must not count.
 */
class JfrProfilesTest {
  static volatile long sink;
  static volatile Object kept;
  private static final Object MONITOR = new Object();

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void cutsARecordingIntoWorkloadWindowsAndWritesFlameGraphs(@TempDir Path temp) throws Exception {
    Path jfr = temp.resolve("server.jfr");
    RunWindow window;
    try (Recording r = new Recording()) {
      r.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
      r.enable("jdk.ObjectAllocationSample").with("throttle", "1000/s").withStackTrace();
      r.enable("jdk.JavaMonitorEnter").withThreshold(Duration.ofMillis(1)).withStackTrace();
      r.start();
      runOn("outside-1", JfrProfilesTest::spinOutside, 300); // before the window: must not be counted
      sleep(50);
      Instant start = Instant.now();
      AtomicReference<Thread> waiter = new AtomicReference<>();
      Thread holder = new Thread(() -> {
        synchronized (MONITOR) {
          // holds on until the waiter is blocked on the monitor, then 200 ms more: on a loaded machine a fixed head
          // start could let the waiter take the monitor first, or arrive late and wait too little
          while (waiter.get() == null || waiter.get().getState() != Thread.State.BLOCKED) {
            sleep(1);
          }
          sleep(200);
        }
      }, "holder-1");
      holder.start();
      while (holder.getState() != Thread.State.TIMED_WAITING) {
        sleep(1);
      }
      waiter.set(new Thread(() -> {
        synchronized (MONITOR) {
          sink++;
        }
      }, "waiter-7"));
      waiter.get().start();
      runOn("burner-42", JfrProfilesTest::burnInsideWindow, 1500);
      holder.join();
      waiter.get().join();
      window = new RunWindow("scanRange100 8t", "basalt", start, Instant.now(), 1000);
      r.stop();
      r.dump(jfr);
    }

    Map<String, JfrProfiles.WorkloadProfile> profiles = JfrProfiles.read("basalt", List.of(jfr),
        List.of(window, new RunWindow("other", "hbase", window.start(), window.end(), 5)));
    assertThat(profiles).containsOnlyKeys("scanRange100 8t");
    JfrProfiles.WorkloadProfile p = profiles.get("scanRange100 8t");
    assertThat(p.ops()).isEqualTo(1000);

    StackProfile cpu = p.profile(JfrProfiles.Kind.CPU);
    assertThat(cpu.total()).isGreaterThan(20);
    String burn = JfrProfilesTest.class.getName() + ".burnInsideWindow";
    long burnSamples = cpu.stacks().entrySet().stream().filter(e -> e.getKey().contains(burn))
        .mapToLong(Map.Entry::getValue).sum();
    assertThat(burnSamples).isGreaterThan(cpu.total() / 2);
    assertThat(cpu.stacks().keySet()).anyMatch(s -> s.startsWith("[burner-#];"))
        .noneMatch(s -> s.contains("spinOutside"));

    StackProfile alloc = p.profile(JfrProfiles.Kind.ALLOC);
    assertThat(alloc.stacks().keySet()).anyMatch(s -> s.contains(burn) && s.endsWith(";[long[]]"));

    StackProfile lock = p.profile(JfrProfiles.Kind.LOCK);
    long waited = lock.stacks().entrySet().stream()
        .filter(e -> e.getKey().startsWith("[waiter-#];") && e.getKey().endsWith(";[monitor java.lang.Object]"))
        .mapToLong(Map.Entry::getValue).sum();
    assertThat(waited).isGreaterThan(TimeUnit.MILLISECONDS.toNanos(100));

    Path out = temp.resolve("profiles");
    ProfileReport.write(out, profiles.values(), List.of("test run"));
    String svg = Files.readString(out.resolve("basalt-scanRange100-8t-cpu.svg"), StandardCharsets.UTF_8);
    assertThat(svg).startsWith("<?xml").contains("burnInsideWindow").endsWith("</svg>\n");
    assertThat(out.resolve("basalt-scanRange100-8t-alloc.collapsed")).isNotEmptyFile();
    assertThat(out.resolve("basalt-scanRange100-8t-lock.svg")).isNotEmptyFile();
    String md = Files.readString(out.resolve("profiles.md"), StandardCharsets.UTF_8);
    assertThat(md).contains("## scanRange100 8t on basalt").contains("1,000 operations").contains("[burner-#]");
  }

  private static void runOn(String name, Runnable body, long millis) throws InterruptedException {
    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    Thread t = new Thread(() -> {
      while (System.nanoTime() < end) {
        body.run();
      }
    }, name);
    t.start();
    t.join();
  }

  private static void burnInsideWindow() {
    long[] a = new long[1024];
    for (int i = 0; i < 100_000; i++) {
      a[i & 1023] += i * 31L;
    }
    kept = a; // escapes, so the JIT cannot drop the allocation
    sink += a[7];
  }

  private static void spinOutside() {
    long x = 0;
    for (int i = 0; i < 100_000; i++) {
      x += i ^ (x << 1);
    }
    sink += x;
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
