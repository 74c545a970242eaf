package io.basalt.dist.cli;

import picocli.CommandLine.Command;

/** {@code basalt version}. */
@Command(name = "version", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = "Prints Basalt's version and the Java it runs on.")
final class VersionCommand implements Runnable {
  @Override
  public void run() {
    for (String line : new Version().getVersion()) {
      System.out.println(line);
    }
  }
}
