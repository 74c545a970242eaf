package io.basalt.server.control;

/**
 * Named points in the split and move protocols where a test can make this process die at once, as a
 * kill -9 would: set {@code -Dbasalt.crash.at=<point>}. Unset (always, outside tests) it does nothing.
 */
public final class CrashPoints {
  private static final String TARGET = System.getProperty("basalt.crash.at", "");

  private CrashPoints() {}

  public static void reached(String point) {
    if (!TARGET.isEmpty() && TARGET.equals(point)) {
      System.err.println("basalt: crash point " + point + " reached; halting");
      Runtime.getRuntime().halt(137);
    }
  }
}
