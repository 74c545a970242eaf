package io.basalt.gateway.shell;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.standalone.StandaloneConfig;
import io.basalt.server.standalone.StandaloneServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shell against Basalt standalone in this JVM: one script of every command per test (one JRuby runtime
 * each, as startup dominates), every answer checked against HBase's shell output format.
 */
@Timeout(180)
class ShellTest {
  private static Path dir;
  private static StandaloneServer cluster;
  private static Configuration conf;

  @BeforeAll
  static void start() throws IOException, InterruptedException {
    dir = Files.createTempDirectory("shell-");
    cluster = new StandaloneServer(StandaloneConfig.defaults(dir.resolve("data")).withPorts(0, 0, 0));
    conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", cluster.zookeeperQuorum());
    conf.setInt("hbase.zookeeper.property.clientPort", cluster.zookeeperPort());
    conf.setInt("hbase.client.retries.number", 3);
  }

  @AfterAll
  static void stop() throws IOException {
    try {
      cluster.close();
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  /** Exit code and everything printed (stdout then stderr). */
  record Run(int code, String out) {}

  private static Run shell(String stdin, String... args) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    int code = BasaltShell.run(conf, List.of(args),
        new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8)), out, out, false);
    // HBase pads the first column of ROW/COLUMN listings; one space keeps the expectations readable.
    String text = bytes.toString(StandardCharsets.UTF_8).replaceAll("(?m)^( ?\\S+) {2,}", "$1 ");
    System.out.println(text); // the transcript, in the surefire report
    return new Run(code, text);
  }

  @Test
  void everyCommandOnStdinAnswersInHBaseFormat() {
    Run run = shell(String.join("\n",
        "version",
        "whoami",
        "status",
        "create 'st', 'f', {NAME => 'g', VERSIONS => 3}",
        "list",
        "exists 'st'",
        "exists 'nope'",
        "describe 'st'",
        "alter 'st', NAME => 'f', VERSIONS => 5",
        "alter 'st', NAME => 'h'",
        "alter 'st', 'delete' => 'h'",
        "desc 'st'",
        "put 'st', 'r1', 'f:a', 'v1'",
        "put 'st', 'r2', 'f:a', 'v2', 1000",
        "put 'st', 'r3', 'g:b', 'old', 10",
        "put 'st', 'r3', 'g:b', 'new', 20",
        "get 'st', 'r1'",
        "get 'st', 'r3', {COLUMN => 'g:b', VERSIONS => 3}",
        "get 'st', 'r3', {COLUMN => 'g:b', TIMERANGE => [0, 15]}",
        "scan 'st'",
        "scan 'st', {STARTROW => 'r2', STOPROW => 'r3'}",
        "scan 'st', {COLUMNS => ['f'], LIMIT => 1}",
        "scan 'st', {FILTER => \"PrefixFilter('r2')\"}",
        "scan 'st', {REVERSED => true, LIMIT => 1}",
        "scan 'st', {ROWPREFIXFILTER => 'r3', VERSIONS => 3}",
        "scan 'st', {COLUMNS => ['g:b'], TIMERANGE => [15, 30]}",
        "delete 'st', 'r1', 'f:a'",
        "get 'st', 'r1'",
        "deleteall 'st', 'r2'",
        "count 'st'",
        "incr 'st', 'c', 'f:n', 5",
        "incr 'st', 'c', 'f:n'",
        "get_counter 'st', 'c', 'f:n'",
        "get_counter 'st', 'c', 'f:none'",
        "count 'st', INTERVAL => 1",
        "(1..3).each { |i| put 'st', \"loop#{i}\", 'f:a', i.to_s }",
        "n = count 'st'",
        "puts \"rows=#{n}\"",
        "is_enabled 'st'",
        "disable 'st'",
        "is_disabled 'st'",
        "enable 'st'",
        "truncate 'st'",
        "count 'st'",
        "create_namespace 'sns'",
        "list_namespace",
        "create 'sns:t2', 'f'",
        "list_namespace_tables 'sns'",
        "describe_namespace 'sns'",
        "balance_switch false",
        "balance_switch true",
        "balancer",
        "list_decommissioned_regionservers",
        "server = admin.getRegionServers.first.getServerName",
        "region = admin.getRegions(org.apache.hadoop.hbase.TableName.valueOf('sns:t2')).first.getEncodedName",
        "move region, server",
        "put 'sns:t2', 'a', 'f:q', '1'",
        "put 'sns:t2', 'z', 'f:q', '2'",
        "split 'sns:t2', 'm'",
        "t2 = org.apache.hadoop.hbase.TableName.valueOf('sns:t2')",
        "200.times { break if admin.getRegions(t2).size == 2; sleep 0.1 }",
        "puts \"regions=#{admin.getRegions(t2).size}\"",
        "scan 'sns:t2'",
        "halves = admin.getRegions(t2).map { |r| r.getEncodedName }",
        "merge_region halves[0], halves[1]",
        "puts \"merged=#{admin.getRegions(t2).size}\"",
        "scan 'sns:t2'",
        "decommission_regionservers [server], false",
        "list_decommissioned_regionservers",
        "recommission_regionserver server",
        "list_decommissioned_regionservers",
        "help 'scan'",
        "help",
        "disable 'sns:t2'",
        "drop 'sns:t2'",
        "drop_namespace 'sns'",
        "disable 'st'",
        "drop 'st'",
        "list",
        "exit"));
    String out = run.out();
    assertThat(run.code()).as(out).isZero();
    assertThat(out).doesNotContain("ERROR");
    assertThat(out).contains("Created table st\nTook ").contains("=> Hbase::Table - st\n");
    assertThat(out).contains("TABLE\nst\n1 row(s)\nTook ").contains("=> [\"st\"]\n");
    assertThat(out).contains("Table st does exist\nTook ").contains("=> true\n");
    assertThat(out).contains("Table nope does not exist\nTook ").contains("=> false\n");
    assertThat(out).contains("Table st is ENABLED\n").contains("COLUMN FAMILIES DESCRIPTION\n{NAME => 'f', ")
        .contains("{NAME => 'g', ").contains("VERSIONS => '3'").contains("VERSIONS => '5'");
    assertThat(out).contains("Updating all regions with the new schema...\nDone.\nTook ");
    assertThat(out).containsPattern("1 active master, 0 backup masters, 1 servers, 0 dead, \\d+\\.\\d{4} average load");
    // get: COLUMN/CELL with HBase's timestamp rendering (local date-time), versions newest first.
    assertThat(out).containsPattern(
        "COLUMN CELL\n f:a timestamp=\\d{4}-\\d\\d-\\d\\dT[0-9:.]+, value=v1\n1 row\\(s\\)\nTook ");
    assertThat(out).containsPattern(
        "COLUMN CELL\n g:b timestamp=1970-01-01T[0-9:.]+, value=new\n"
            + " g:b timestamp=1970-01-01T[0-9:.]+, value=old\n1 row\\(s\\)");
    assertThat(out).containsPattern("COLUMN CELL\n g:b timestamp=1970-01-01T[0-9:.]+, value=old\n1 row\\(s\\)");
    // scan: ROW COLUMN+CELL, one line per cell, N row(s).
    assertThat(out).containsPattern("ROW COLUMN\\+CELL\n r1 column=f:a, timestamp=[^,]+, value=v1\n r2 column=f:a, "
        + "timestamp=1970-01-01T[0-9:.]+, value=v2\n r3 column=g:b, timestamp=[^,]+, value=new\n3 row\\(s\\)\nTook ");
    assertThat(out).containsPattern("ROW COLUMN\\+CELL\n r2 column=f:a, [^\n]+value=v2\n1 row\\(s\\)\nTook ");
    assertThat(out).containsPattern("ROW COLUMN\\+CELL\n r1 column=f:a, [^\n]+value=v1\n1 row\\(s\\)\nTook ");
    assertThat(out).containsPattern("ROW COLUMN\\+CELL\n r3 column=g:b, [^\n]+value=new\n1 row\\(s\\)\nTook ");
    assertThat(out).containsPattern(
        "ROW COLUMN\\+CELL\n r3 column=g:b, [^\n]+value=new\n r3 column=g:b, [^\n]+value=old\n1 row\\(s\\)");
    assertThat(out).containsPattern("ROW COLUMN\\+CELL\n r3 column=g:b, [^\n]+value=new\n1 row\\(s\\)");
    // After delete the row reads empty.
    assertThat(out).contains("COLUMN CELL\n0 row(s)\nTook ");
    assertThat(out).contains("COUNTER VALUE = 5\n").contains("COUNTER VALUE = 6\n")
        .contains("No counter found at specified coordinates\n");
    assertThat(out).contains("1 row(s)\nTook ")
        .contains("Current count: 1, row: c\nCurrent count: 2, row: r3\n2 row(s)\n");
    assertThat(out).contains("rows=5\n");
    assertThat(out).contains("Truncating 'st' table (it may take a while):\nDisabling table...\nTruncating table...\n");
    assertThat(out).contains("0 row(s)\nTook ");
    assertThat(out).contains("NAMESPACE\ndefault\nhbase\nsns\n3 row(s)\n");
    assertThat(out).contains("TABLE\nt2\n1 row(s)\n").contains("=> [\"t2\"]\n");
    assertThat(out).contains("DESCRIPTION\n{NAME => 'sns'}\n");
    assertThat(out).contains("Previous balancer state : true\n").contains("Previous balancer state : false\n");
    assertThat(out).contains("DECOMMISSIONED REGION SERVERS\n0 row(s)\n");
    assertThat(out).contains("merged=1\n");
    assertThat(out).contains("regions=2\n")
        .containsPattern("ROW COLUMN\\+CELL\n a [^\n]+value=1\n z [^\n]+value=2\n2 row");
    assertThat(out).containsPattern("DECOMMISSIONED REGION SERVERS\n [^,\n]+,\\d+,\\d+\n1 row\\(s\\)\n");
    assertThat(out).contains("scan 't1' [, {COLUMNS => ['f1'], LIMIT => 10");
    assertThat(out).contains("Basalt shell: HBase's shell language over the HBase client. Commands:\n")
        .containsPattern("alter, balance_switch, balancer, clone_snapshot, count, create, .*, list_snapshots, .*, restore_snapshot, scan, snapshot, .*, whoami\n");
    assertThat(out).contains("TABLE\n0 row(s)\nTook ").contains("=> []\n");
    assertThat(out).containsPattern("Took \\d+\\.\\d{4} seconds");
  }

  @Test
  void snapshotCommandsTakeListCloneRestoreAndDelete() {
    Run run = shell(String.join("\n",
        "create 'snt', 'f'",
        "put 'snt', 'r1', 'f:a', 'before'",
        "snapshot 'snt', 'snt_s1'",
        "put 'snt', 'r1', 'f:a', 'after'",
        "list_snapshots",
        "list_snapshots 'nomatch.*'",
        "clone_snapshot 'snt_s1', 'snt_copy'",
        "get 'snt_copy', 'r1'",
        "disable 'snt'",
        "restore_snapshot 'snt_s1'",
        "enable 'snt'",
        "get 'snt', 'r1'",
        "delete_snapshot 'snt_s1'",
        "list_snapshots",
        "help 'clone_snapshot'",
        "disable 'snt'", "drop 'snt'", "disable 'snt_copy'", "drop 'snt_copy'", // the cluster is shared
        "clone_snapshot 'snt_missing', 'snt_other'"), "-n");
    String out = run.out();
    assertThat(out).containsPattern("SNAPSHOT TABLE \\+ CREATION TIME\n snt_s1 snt \\(\\d{4}-\\d\\d-\\d\\d [^)]+\\)\n1 row\\(s\\)\nTook ")
        .contains("=> [\"snt_s1\"]\n");
    assertThat(out).contains("SNAPSHOT TABLE + CREATION TIME\n0 row(s)\nTook ");
    assertThat(out).containsPattern("COLUMN CELL\n f:a timestamp=[^,]+, value=before\n1 row\\(s\\)[^=]+COLUMN CELL\n"
        + " f:a timestamp=[^,]+, value=before\n1 row\\(s\\)");
    assertThat(out).doesNotContain("value=after");
    assertThat(out).contains("clone_snapshot 'snapshotName', 'tableName'");
    assertThat(out).contains("ERROR: SnapshotDoesNotExistException: ").contains("For usage try 'help \"clone_snapshot\"'");
    assertThat(run.code()).as("-n stops at the failed command").isEqualTo(1);
  }

  @Test
  void errorsUseHBaseWordingAndNonInteractiveStopsWithExitCodeOne() {
    Run interactive = shell(String.join("\n",
        "scan 'missing'",
        "get 'missing', 'r'",
        "put 'missing', 'r', 'f:a', 'v'",
        "create_namespace 'dupns'",
        "create_namespace 'dupns'",
        "describe_namespace 'nons'",
        "create 'dup', 'f'",
        "create 'dup', 'f'",
        "drop 'dup'",
        "scan 'dup', {'BOGUS' => 1}",
        "scan 'dup', {FILTER => \"NoSuchFilter('x')\"}",
        "create 'x', {NAME => 'f', VERSIONS => 'many'}",
        "put 'dup', 'r'",
        "scan 'dup', {",
        "  LIMIT => 1 }",
        "nosuchcommand",
        "list 'du.*'"));
    String out = interactive.out();
    // Without -n every error is reported and the session goes on to the end.
    assertThat(interactive.code()).as(out).isZero();
    assertThat(out).contains("ERROR: Unknown table missing!\n\nFor usage try 'help \"scan\"'\n\nTook ");
    assertThat(out).contains("For usage try 'help \"get\"'").contains("For usage try 'help \"put\"'");
    assertThat(out).contains("ERROR: Namespace already exists: dupns!\n");
    assertThat(out).contains("ERROR: Unknown namespace nons!\n");
    assertThat(out).contains("ERROR: Table already exists: dup!\n");
    assertThat(out).contains("ERROR: Table dup is enabled. Disable it first.\n");
    assertThat(out).contains("ERROR: Unknown argument(s) for scan: BOGUS\n");
    assertThat(out).contains("ERROR: ").contains("NoSuchFilter");
    assertThat(out).contains("ERROR: VERSIONS must be an integer, not \"many\"\n");
    assertThat(out).contains("ERROR: wrong number of arguments");
    assertThat(out).contains("ERROR: undefined local variable or method `nosuchcommand'");
    assertThat(out).containsPattern("ROW COLUMN\\+CELL\n0 row\\(s\\)\nTook ");
    assertThat(out).contains("TABLE\ndup\n1 row(s)\n");

    Run strict = shell("list\nscan 'missing'\nlist\n", "-n");
    assertThat(strict.code()).as(strict.out()).isEqualTo(1);
    assertThat(strict.out()).contains("ERROR: Unknown table missing!");
    assertThat(strict.out().split("TABLE\n", -1)).as("stops at the first failure").hasSize(2);

    Run syntax = shell("put 'dup', 'r', 'f:a', 'v'\nscan 'dup' }\nlist\n", "-n");
    assertThat(syntax.code()).as(syntax.out()).isEqualTo(1);
    assertThat(syntax.out()).contains("ERROR: ").contains("syntax error").doesNotContain("TABLE\n");
  }

  @Test
  void scriptFileRunsRubyAndExitCodesFollowIt() throws IOException {
    Path script = dir.resolve("load.rb");
    Files.writeString(script, String.join("\n",
        "create 'scripted', 'f'",
        "rows = %w[a b c]",
        "rows.each_with_index { |r, i| put 'scripted', r, 'f:q', (i * 10).to_s }",
        "total = count('scripted')",
        "puts \"counted #{total}\"",
        "scan 'scripted', {FILTER => \"ValueFilter(=, 'binary:10')\"}",
        "disable 'scripted'",
        "drop 'scripted'",
        "exit 3"));
    Run run = shell("", script.toString());
    assertThat(run.code()).as(run.out()).isEqualTo(3);
    assertThat(run.out()).contains("counted 3\n")
        .containsPattern("ROW COLUMN\\+CELL\n b column=f:q, [^\n]+value=10\n1 row\\(s\\)");
    // A script's own values are not echoed (no irb there).
    assertThat(run.out()).doesNotContain("=> ");

    Path failing = dir.resolve("failing.rb");
    Files.writeString(failing, "get 'nowhere', 'r'\nputs 'not reached'\n");
    Run failed = shell("", failing.toString());
    assertThat(failed.code()).isEqualTo(1);
    assertThat(failed.out()).contains("ERROR: Unknown table nowhere!").doesNotContain("not reached");

    Run missing = shell("", dir.resolve("absent.rb").toString());
    assertThat(missing.code()).isEqualTo(1);
    assertThat(missing.out()).contains("ERROR: no such script: ");
  }
}
