package io.basalt.server.regionserver;

import io.basalt.server.catalog.Member;
import io.basalt.storage.region.Region;
import io.basalt.storage.replication.ReplicaRole;
import io.basalt.storage.replication.ReplicatedRegion;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;

/**
 * A region this server serves: its identity, its table's settings and its store; for a replicated region,
 * this server's member of its replica group and the group's members.
 */
record HostedRegion(RegionInfo info, TableDescriptor table, Region store, List<Member> members) {
  HostedRegion(RegionInfo info, TableDescriptor table, Region store) {
    this(info, table, store, List.of());
  }

  HostedRegion withTable(TableDescriptor newTable) {
    return new HostedRegion(info, newTable, store, members);
  }

  boolean replicated() {
    return store instanceof ReplicatedRegion;
  }

  /** Whether this copy takes writes and answers consistent reads (always, for an unreplicated region). */
  boolean primary() {
    return !(store instanceof ReplicatedRegion r) || r.role() == ReplicaRole.PRIMARY;
  }

  /** The server of the member its group elected, as this member knows it. */
  Optional<ServerName> primaryServer() {
    if (!(store instanceof ReplicatedRegion r)) {
      return Optional.empty();
    }
    return r.primary().flatMap(node -> members.stream().filter(m -> m.nodeName().equals(node)).findFirst())
        .map(Member::server);
  }
}
