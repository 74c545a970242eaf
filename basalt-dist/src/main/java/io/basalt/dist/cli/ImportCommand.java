package io.basalt.dist.cli;

import io.basalt.server.bulk.ImportOptions;
import io.basalt.server.bulk.TsvImport;
import io.basalt.server.config.BasaltConfig;
import io.basalt.server.config.ZooKeeperKeys;
import java.io.IOException;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.AsyncConnection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code basalt import -Dimporttsv.columns=HBASE_ROW_KEY,cf:a,... TABLE INPUT...}: HBase's ImportTsv, loading
 * straight into the regions (see {@link TsvImport} and docs/import.md). The {@code importtsv.*} keys are
 * ImportTsv's; any other {@code -D} key goes to the HBase client (TLS, timeouts, ...), as with HBase's tools.
 */
@Command(name = "import", mixinStandardHelpOptions = true, versionProvider = Version.class,
    description = {"Loads delimited text into an existing table with HBase ImportTsv's conventions, writing large "
        + "sorted batches straight into each region (much faster than puts through the client).",
        "Keys: importtsv.columns (required: HBASE_ROW_KEY, optional HBASE_TS_KEY, family or family:qualifier per "
        + "input column), importtsv.separator (one byte, default tab), importtsv.timestamp (default now), "
        + "importtsv.skip.bad.lines (default true), importtsv.log.bad.lines, importtsv.skip.empty.columns, "
        + "importtsv.dry.run.",
        "Rerunning with the same importtsv.timestamp (printed at the start) after a failure writes the same cells: "
        + "no duplicates."})
final class ImportCommand implements Callable<Integer> {
  @Option(names = "-D", paramLabel = "KEY=VALUE", mapFallbackValue = "",
      description = "importtsv.* keys, or HBase client settings. Repeatable.")
  Map<String, String> settings = new LinkedHashMap<>();

  @Option(names = "--config", paramLabel = "FILE", description = "Site file naming the cluster (its ZooKeeper).")
  java.nio.file.Path config;

  @Option(names = "--zookeeper", paramLabel = "HOST:PORT[,...]", description = "ZooKeeper connect string.")
  String zookeeper;

  @Option(names = "--batch-mb", paramLabel = "MB", defaultValue = "4",
      description = "Bytes per bulk call to one region (default ${DEFAULT-VALUE}).")
  int batchMb;

  @Option(names = "--buffer-mb", paramLabel = "MB", defaultValue = "32",
      description = "Bytes buffered and in flight in all (default ${DEFAULT-VALUE}).")
  int bufferMb;

  @Option(names = "--sort-mb", paramLabel = "MB", defaultValue = "64",
      description = "Input sorted in memory before a sorted run is spilled to --tmp-dir (default ${DEFAULT-VALUE}).")
  int sortMb;

  @Option(names = "--tmp-dir", paramLabel = "DIR",
      description = "Where sorted runs go (about the input's size; default: java.io.tmpdir).")
  java.nio.file.Path tmpDir;

  @Option(names = "--progress-seconds", paramLabel = "S", defaultValue = "5",
      description = "Seconds between progress lines (default ${DEFAULT-VALUE}).")
  int progressSeconds;

  @Parameters(index = "0", paramLabel = "TABLE")
  String table;

  @Parameters(index = "1..*", arity = "1..*", paramLabel = "INPUT",
      description = "Files or directories of files (- for standard input; .gz is decompressed).")
  List<String> inputs;

  @Override
  public Integer call() {
    ImportOptions options;
    try {
      options = ImportOptions.from(settings, System.currentTimeMillis());
    } catch (IllegalArgumentException e) {
      throw new CliFailure(e.getMessage());
    }
    Configuration conf = clientConfiguration();
    PrintStream out = System.out;
    TsvImport running = null;
    try (AsyncConnection conn = ConnectionFactory.createAsyncConnection(conf).get()) {
      running = new TsvImport(conn, options,
          new TsvImport.Tuning((long) batchMb << 20, (long) bufferMb << 20, (long) sortMb << 20,
              tmpDir != null ? tmpDir : java.nio.file.Path.of(System.getProperty("java.io.tmpdir")),
              Math.max(1, progressSeconds)), out,
          System.err);
      running.run(TableName.valueOf(table), inputs);
      return 0;
    } catch (IOException e) {
      boolean started = running != null && running.progress().lines() > 0;
      throw new CliFailure(e.getClass().getName() + ": " + e.getMessage() + (started ? resumeHint(options) : ""));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CliFailure("interrupted");
    } catch (java.util.concurrent.ExecutionException e) {
      throw new CliFailure("cannot connect to the cluster: " + e.getCause());
    }
  }

  private static String resumeHint(ImportOptions options) {
    return "\nrows acknowledged so far are stored; after fixing the cause, rerun with -D" + ImportOptions.TIMESTAMP
        + "=" + options.timestamp() + " to finish without duplicates";
  }

  /** The cluster's ZooKeeper (option, site file, -D), and every -D key that is not ImportTsv's. */
  private Configuration clientConfiguration() {
    Map<String, String> basalt = new LinkedHashMap<>();
    settings.forEach((k, v) -> {
      if (!k.startsWith("importtsv.")) {
        basalt.put(k, v);
      }
    });
    BasaltConfig c;
    try {
      List<String> args = new java.util.ArrayList<>();
      if (config != null) {
        args.add("--config");
        args.add(config.toString());
      }
      basalt.forEach((k, v) -> args.add("-D" + k + "=" + v));
      c = io.basalt.server.config.ConfigArgs.loadStrict(args.toArray(new String[0]), Map.of());
    } catch (IllegalArgumentException e) {
      throw new CliFailure(e.getMessage());
    }
    Configuration conf = HBaseConfiguration.create();
    String quorum = zookeeper != null ? zookeeper : ZooKeeperKeys.connectString(c);
    conf.set("hbase.zookeeper.quorum", quorum);
    conf.set("zookeeper.znode.parent", c.get(ZooKeeperKeys.ZNODE_PARENT));
    // A batch is megabytes written in a replica group before the answer: give it time.
    conf.setInt("hbase.rpc.timeout", 120_000);
    conf.setInt("hbase.client.operation.timeout", 600_000);
    basalt.forEach(conf::set);
    return conf;
  }
}
