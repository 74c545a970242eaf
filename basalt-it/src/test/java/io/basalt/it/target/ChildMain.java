package io.basalt.it.target;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Entry point of every child JVM the tests start (the HBase server, PerformanceEvaluation, LoadTestTool): runs
 * {@code args[0]}'s main with the remaining arguments, and halts the JVM as soon as its standard input reaches
 * end of file. The test JVM holds that pipe open while it wants the child, so a child never outlives the test
 * run, even when the test JVM is killed outright and no shutdown hook runs.
 */
public final class ChildMain {
  private ChildMain() {}

  public static void main(String[] args) throws Throwable {
    if (args.length == 0) {
      System.err.println("usage: ChildMain MAIN_CLASS [ARG...]");
      System.exit(2);
    }
    Thread watchdog = new Thread(() -> {
      try {
        while (System.in.read() >= 0) {
          // nothing is ever sent; only end of file matters
        }
      } catch (IOException ignored) {
        // the pipe broke: the parent is gone as well
      }
      System.err.println("ChildMain: parent closed stdin, halting");
      Runtime.getRuntime().halt(143);
    }, "parent-watchdog");
    watchdog.setDaemon(true);
    watchdog.start();
    Method main = Class.forName(args[0]).getMethod("main", String[].class);
    try {
      main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
