package io.basalt.bench.compare.launch;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Entry point of every server JVM the bench starts: runs {@code args[0]}'s main with the remaining arguments and
 * halts the JVM when its standard input reaches end of file. The bench holds that pipe open while it wants the
 * server, so a server never outlives a bench that was killed outright (no shutdown hook ran).
 */
public final class ParentWatchdog {
  private ParentWatchdog() {}

  public static void main(String[] args) throws Throwable {
    if (args.length == 0) {
      System.err.println("usage: ParentWatchdog MAIN_CLASS [ARG...]");
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
      System.err.println("ParentWatchdog: the bench closed stdin, halting");
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
