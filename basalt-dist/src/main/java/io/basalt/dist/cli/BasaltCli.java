package io.basalt.dist.cli;

import io.basalt.bench.storage.StorageBench;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code basalt}: one command for every Basalt process and tool. */
@Command(name = "basalt", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = "An HBase-compatible wide-column store on log-structured B+-trees.",
    subcommands = {StandaloneCommand.class, MasterCommand.class, RegionServerCommand.class, ZooKeeperCommand.class,
        ThriftCommand.class, RestCommand.class, ShellCommand.class, StatusCommand.class, DecommissionCommand.class,
        RecommissionCommand.class, SnapshotCommand.class, ImportCommand.class, ConfigCommand.class, VersionCommand.class, DemoCommand.class},
    footer = {"", "Settings: conf/basalt-site.xml (hbase-site.xml format) and -Dkey=value; see: basalt config list.",
        "Details: docs/operations.md."})
public final class BasaltCli implements Runnable {
  @Spec
  CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** The command line with every subcommand, and one-line errors for anything the user can fix. */
  static CommandLine commandLine() {
    CommandLine cl = new CommandLine(new BasaltCli());
    // "bench" (Basalt against HBase) needs the source tree, so bin/basalt runs it from basalt-bench itself.
    CommandLine bench = new CommandLine(new StorageBench());
    bench.getCommandSpec().name("storage-bench");
    cl.addSubcommand("storage-bench", bench);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setParameterExceptionHandler((e, args) -> {
      String name = e.getCommandLine().getCommandSpec().qualifiedName();
      PrintWriter err = e.getCommandLine().getErr();
      err.println(name + ": " + e.getMessage() + " (see " + name + " --help)");
      err.flush();
      return 2;
    });
    cl.setExecutionExceptionHandler((e, c, parsed) -> {
      if (e instanceof CliFailure) {
        c.getErr().println(c.getCommandSpec().qualifiedName() + ": " + e.getMessage());
        c.getErr().flush();
        return 2;
      }
      throw e;
    });
    return cl;
  }

  public static void main(String[] args) {
    int code = commandLine().execute(args);
    System.exit(code);
  }
}
