package io.basalt.server.launch;

import java.util.concurrent.CountDownLatch;

/** Runs a started server until SIGTERM/SIGINT, then closes it (regions closed cleanly, logs synced). */
public final class Daemon {
  private Daemon() {}

  public static void runUntilStopped(AutoCloseable server, String banner) throws InterruptedException {
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      try {
        server.close();
      } catch (Exception e) {
        e.printStackTrace();
      } finally {
        stopped.countDown();
      }
    }, "basalt-shutdown"));
    System.out.println(banner);
    stopped.await();
  }

  /** A server that cannot go on (lost its mastership): stop the process so a supervisor can restart it. */
  public static void halt(String why) {
    System.err.println("basalt: " + why + "; exiting");
    Runtime.getRuntime().halt(1);
  }
}
