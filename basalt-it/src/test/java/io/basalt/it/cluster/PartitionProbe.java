package io.basalt.it.cluster;

import io.basalt.server.rpc.RemoteException;
import io.basalt.server.rpc.RpcClient;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.shaded.protobuf.RequestConverter;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateRequest;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutateResponse;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * A client that stays next to one region server when the test cuts it off: started in the server's network
 * namespace, it sends one Put after another straight to that server for one region (no client retries, no
 * redirects) and prints the outcome of each, so the test can see exactly what the server acknowledged and when:
 *
 * <pre>ACK seq epochMillis row | REFUSED seq epochMillis row exceptionClass message | FAILED seq epochMillis row exception</pre>
 *
 * Runs until its parent closes its standard input ({@code ChildMain}).
 */
public final class PartitionProbe {
  private PartitionProbe() {}

  /** {@code HOST PORT REGION_NAME(Bytes.toStringBinary) ROW_PREFIX PAUSE_MS}. */
  public static void main(String[] args) throws Exception {
    InetSocketAddress server = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
    byte[] region = Bytes.toBytesBinary(args[2]);
    String prefix = args[3];
    long pauseMillis = Long.parseLong(args[4]);
    try (RpcClient rpc = new RpcClient("partition-probe", 2_000)) {
      for (long seq = 0; ; seq++) {
        String row = prefix + String.format("%06d", seq);
        MutateRequest request = RequestConverter.buildMutateRequest(region,
            new Put(Bytes.toBytes(row)).addColumn(Workload.F, Workload.Q, Bytes.toBytes(row)));
        String outcome;
        try {
          rpc.call(server, "ClientService", "Mutate", request, MutateResponse.getDefaultInstance(), 10_000);
          outcome = "ACK " + seq + " " + System.currentTimeMillis() + " " + row;
        } catch (RemoteException e) {
          outcome = "REFUSED " + seq + " " + System.currentTimeMillis() + " " + row + " " + e.className() + " "
              + firstLine(e.getMessage());
        } catch (IOException e) {
          outcome = "FAILED " + seq + " " + System.currentTimeMillis() + " " + row + " " + firstLine(e.toString());
        }
        System.out.println(outcome);
        Thread.sleep(pauseMillis);
      }
    }
  }

  private static String firstLine(String s) {
    return s == null ? "" : s.lines().findFirst().orElse("");
  }

  /** One line of a probe's output. */
  record Outcome(String kind, long seq, long epochMillis, String row, String detail) {
    boolean acknowledged() {
      return kind.equals("ACK");
    }
  }

  /** The outcomes in a probe's log (other lines, e.g. the JVM's, are skipped). */
  static List<Outcome> parse(String log) {
    List<Outcome> outcomes = new ArrayList<>();
    for (String line : log.lines().toList()) {
      String[] p = line.split(" ", 5);
      if (p.length >= 4 && (p[0].equals("ACK") || p[0].equals("REFUSED") || p[0].equals("FAILED"))) {
        outcomes.add(new Outcome(p[0], Long.parseLong(p[1]), Long.parseLong(p[2]), p[3], p.length > 4 ? p[4] : ""));
      }
    }
    return outcomes;
  }
}
