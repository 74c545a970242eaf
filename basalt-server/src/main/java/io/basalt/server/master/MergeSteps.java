package io.basalt.server.master;

import io.basalt.server.catalog.Catalog;
import io.basalt.server.catalog.RegionRecord;
import io.basalt.server.control.CloneReport;
import io.basalt.server.master.protocol.Action;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.ipc.ServerNotRunningYetException;

/** How the driver executes the merge protocol's own actions ({@link io.basalt.server.master.protocol.MergeProtocol}). */
final class MergeSteps {
  private final Catalog catalog;
  private final ServerManager servers;

  MergeSteps(Catalog catalog, ServerManager servers) {
    this.catalog = catalog;
    this.servers = servers;
  }

  static boolean handles(Action a) {
    return a instanceof Action.CloseAndMerge || a instanceof Action.PublishMerge || a instanceof Action.RollBackMerge;
  }

  /** Runs {@code a}; returns the bytes it copied, and puts its phases' times in {@code phases}. */
  long execute(Action a, TableDescriptor table, Map<String, Long> phases) throws IOException {
    if (a instanceof Action.CloseAndMerge m) {
      CloneReport report = servers.control(live(m.server())).closeAndMerge(m.lower(), m.upper(), m.merged());
      phases.put("close", report.closeMillis());
      phases.put("merge", report.cloneMillis());
      return report.bytesCopied();
    }
    if (a instanceof Action.PublishMerge p) {
      // One ZooKeeper transaction: no reader sees the merged region beside either old one, nor neither.
      ServerName server = servers.liveAt(p.server()).orElse(p.server());
      catalog.replaceRegions(List.of(new RegionRecord(p.merged(), server, RegionRecord.OPEN)),
          List.of(p.lower(), p.upper()));
    } else if (a instanceof Action.RollBackMerge r) {
      servers.control(live(r.server())).rollBackMerge(r.lower(), r.upper(), table, r.merged());
    } else {
      throw new IllegalArgumentException("not a merge action: " + a);
    }
    return 0;
  }

  private ServerName live(ServerName recorded) throws ServerNotRunningYetException {
    return servers.liveAt(recorded).orElseThrow(() ->
        new ServerNotRunningYetException("region server " + recorded.getAddress() + " is not online"));
  }
}
