package io.basalt.server.status;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** The master's pages: the cluster overview ({@code /}) and one table ({@code /table?name=NS:T}). */
final class ClusterPages {
  private final ClusterStatus status;
  private final List<Html.Link> nav;

  ClusterPages(ClusterStatus status, List<Html.Link> nav) {
    this.status = status;
    this.nav = nav;
  }

  InfoServer.Response overview(Map<String, String> query) {
    Html h = new Html("Cluster", nav);
    if (!status.active()) {
      h.p("This master is a standby: it serves nothing until it is elected. ",
          status.activeMaster().isEmpty() ? "" : "Active master: " + status.activeMaster());
      return InfoServer.Response.html(200, h.finish());
    }
    List<ClusterStatus.Server> servers = status.servers();
    List<ClusterStatus.Table> tables = status.tables();
    long live = servers.stream().filter(ClusterStatus.Server::live).count();
    int regions = servers.stream().mapToInt(ClusterStatus.Server::regions).sum();
    double rate = servers.stream().mapToDouble(ClusterStatus.Server::requestsPerSecond).sum();
    h.facts("Active master", new Html.Code(status.activeMaster()), "Cluster id", new Html.Code(status.clusterId()),
        "Region servers", live + " live of " + servers.size(), "Tables", tables.size(), "Regions", regions,
        "Requests", Html.rate(rate), "Re-replication", rebuilding(status.rebuilding()),
        "Decommissioned", status.decommissioned().isEmpty() ? "none" : String.join(", ", status.decommissioned()));

    h.h2("Region servers");
    List<List<Object>> rows = new ArrayList<>();
    for (ClusterStatus.Server s : servers) {
      rows.add(List.of(s.statusUrl() == null ? new Html.Code(s.name()) : new Html.Link(s.name(), s.statusUrl()),
          s.live() ? "live" : "DOWN", s.regions(), Html.rate(s.requestsPerSecond())));
    }
    h.table("servers", List.of("Server", "State", "Regions", "Requests"), rows);

    h.h2("Tables");
    rows = new ArrayList<>();
    for (ClusterStatus.Table t : tables) {
      rows.add(List.of(new Html.Link(t.name(), tableHref(t.name())), t.state(), t.regions(), Html.bytes(t.bytes())));
    }
    h.table("tables", List.of("Table", "State", "Regions", "Size"), rows);
    if (tables.isEmpty()) {
      h.muted("No tables yet.");
    }

    h.h2("Recent splits and moves");
    operations(h, status.recentOperations());
    return InfoServer.Response.html(200, h.finish());
  }

  private static String rebuilding(ClusterStatus.Rebuilding r) {
    if (r.due() == 0 && r.missing() == 0) {
      return "every region member serving";
    }
    return r.due() + " members to rebuild on other servers, " + r.missing() + " not serving";
  }

  /** A row key, or a marker for the empty key at either end of a table. */
  static Object key(String printable, String whenEmpty) {
    return printable.isEmpty() ? whenEmpty : new Html.Code(printable);
  }

  static String tableHref(String table) {
    return "/table?name=" + URLEncoder.encode(table, StandardCharsets.UTF_8);
  }

  private static void operations(Html h, List<ClusterStatus.Operation> ops) {
    if (ops.isEmpty()) {
      h.muted("No split or move since this master became active.");
      return;
    }
    List<List<Object>> rows = new ArrayList<>();
    for (ClusterStatus.Operation op : ops) {
      String phases = op.phasesMillis().entrySet().stream().map(e -> e.getKey() + " " + e.getValue() + " ms")
          .collect(Collectors.joining(", "));
      rows.add(List.of(Html.time(op.startedAtMillis()), op.kind(), Html.millis(op.totalMillis()),
          Html.millis(op.unavailableMillis()), op.outcome(), new Html.Code(op.region()), op.from(), op.to(), phases,
          Html.bytes(op.bytes())));
    }
    h.table("operations", List.of("Started (UTC)", "Kind", "Total", "Unavailable", "Outcome", "Region", "From", "To",
        "Phases", "Copied"), rows);
  }

  InfoServer.Response table(Map<String, String> query) {
    String name = query.getOrDefault("name", "");
    Optional<List<ClusterStatus.Region>> regions = status.regions(name);
    if (regions.isEmpty()) {
      Html h = new Html("No table " + name, nav);
      h.p(status.active() ? "There is no table named " : "This master is a standby; it cannot show ", new Html.Code(name), ".");
      return InfoServer.Response.html(404, h.finish());
    }
    Html h = new Html("Table " + name, nav);
    Optional<ClusterStatus.Table> t = status.tables().stream().filter(x -> x.name().equals(name)).findFirst();
    long degraded = regions.get().stream().filter(ClusterStatus.Region::degraded).count();
    int wanted = regions.get().stream().mapToInt(ClusterStatus.Region::wantedCopies).max().orElse(1);
    t.ifPresent(x -> h.facts("State", x.state(), "Regions", x.regions(), "Size", Html.bytes(x.bytes()),
        "Copies of each region", wanted + (degraded > 0 ? " (" + degraded + " regions degraded)" : "")));
    List<List<Object>> rows = new ArrayList<>();
    for (ClusterStatus.Region r : regions.get()) {
      String state = r.state() + (r.daughters().isEmpty() ? "" : " into " + String.join(", ", r.daughters()))
          + (r.degraded() ? " DEGRADED: " + r.liveCopies() + " of " + r.wantedCopies() + " copies up" : "");
      String copies = String.join("; ", r.copies().stream()
          .map(c -> c.server() + " (" + c.role() + (c.live() ? "" : ", DOWN") + ")").toList());
      rows.add(List.of(key(r.startKey(), "(start)"), key(r.endKey(), "(end)"), state,
          Html.bytes(r.logBytes()), Html.count(r.cells()), Html.rate(r.readsPerSecond()),
          Html.rate(r.writesPerSecond()), copies, new Html.Code(r.encodedName())));
    }
    h.h2("Regions");
    h.table("regions", List.of("Start key", "End key", "State", "Size", "Entries", "Reads", "Writes", "Copies",
        "Region"), rows);
    h.muted("Keys are shown as HBase prints them (Bytes.toStringBinary); (start) and (end) are the table's ends.");
    return InfoServer.Response.html(200, h.finish());
  }
}
