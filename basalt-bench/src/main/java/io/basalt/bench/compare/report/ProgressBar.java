package io.basalt.bench.compare.report;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A one-line progress bar with an ETA on stderr: done runs plus the time-share of the current one, against the
 * planned runs; the ETA extrapolates the wall time so far (loads and start-up included).
 */
public final class ProgressBar implements AutoCloseable {
  private static final int WIDTH = 30;

  private final PrintStream out;
  private final boolean terminal;
  private final int totalRuns;
  private final long startedNanos = System.nanoTime();
  private final ScheduledExecutorService ticker;
  private volatile int doneRuns;
  private volatile long runStartedNanos;
  private volatile long runBudgetNanos = 1;
  private volatile String label = "starting";
  private String lastPrinted = "";

  public ProgressBar(PrintStream out, int totalRuns) {
    this.out = out;
    // Redrawn in place on a terminal; into a file or pipe, one line per step instead.
    this.terminal = System.console() != null;
    this.totalRuns = Math.max(1, totalRuns);
    this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "progress");
      t.setDaemon(true);
      return t;
    });
    ticker.scheduleAtFixedRate(this::render, 0, 500, TimeUnit.MILLISECONDS);
  }

  /** Between runs (loading, starting servers). */
  public void status(String what) {
    label = what;
    runStartedNanos = 0;
  }

  public void runStarted(String what, Duration budget) {
    label = what;
    runBudgetNanos = Math.max(1, budget.toNanos());
    runStartedNanos = System.nanoTime();
  }

  public void runDone() {
    doneRuns++;
    runStartedNanos = 0;
  }

  double fraction() {
    long started = runStartedNanos;
    double current = started == 0 ? 0 : Math.min(1.0, (System.nanoTime() - started) / (double) runBudgetNanos);
    return Math.min(1.0, (doneRuns + current) / totalRuns);
  }

  private synchronized void render() {
    double f = fraction();
    long elapsed = System.nanoTime() - startedNanos;
    String eta = f <= 0.001 ? "--:--" : clock((long) (elapsed / f - elapsed));
    int filled = (int) Math.round(f * WIDTH);
    String line = String.format("[%s%s] %3d%%  run %d/%d  ETA %s  %s", "#".repeat(filled), ".".repeat(WIDTH - filled),
        Math.round(f * 100), Math.min(doneRuns + 1, totalRuns), totalRuns, eta, label);
    if (terminal) {
      out.print("\r" + (line.length() > 120 ? line.substring(0, 120) : String.format("%-120s", line)));
    } else if (!label.equals(lastPrinted)) {
      out.println(line);
      lastPrinted = label;
    }
    out.flush();
  }

  static String clock(long nanos) {
    long s = TimeUnit.NANOSECONDS.toSeconds(nanos);
    return s >= 3600 ? String.format("%dh%02dm", s / 3600, s / 60 % 60) : String.format("%d:%02d", s / 60, s % 60);
  }

  @Override
  public synchronized void close() {
    if (ticker.isShutdown()) {
      return;
    }
    ticker.shutdownNow();
    render();
    if (terminal) {
      out.println();
    }
  }
}
