package io.basalt.bench.elasticity;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Entry point of the region server JVMs the benchmark starts: runs {@code args[0]}'s main with the other
 * arguments and halts as soon as standard input reaches end of file. The benchmark holds that pipe open, so a
 * region server never outlives it, even when the benchmark is killed outright.
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
        // a broken pipe means the parent is gone too
      }
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
