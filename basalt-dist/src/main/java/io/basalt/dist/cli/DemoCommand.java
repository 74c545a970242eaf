package io.basalt.dist.cli;

import io.basalt.storage.demo.StorageDemo;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code basalt demo [DIR]}: the storage layer's tour. */
@Command(name = "demo", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = "A tour of the region store (no server) on DIR.")
final class DemoCommand implements Callable<Integer> {
  @Parameters(arity = "0..1", paramLabel = "DIR", defaultValue = "data", description = "Directory (default ./data).")
  String dir;

  @Override
  public Integer call() throws Exception {
    StorageDemo.main(new String[] {dir});
    return 0;
  }
}
