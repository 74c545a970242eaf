package io.basalt.server.master;

import io.basalt.server.catalog.Member;
import io.basalt.server.catalog.RegionRecord;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionInfoBuilder;
import org.apache.hadoop.hbase.net.Address;
import org.apache.hadoop.hbase.util.Bytes;

/** A cluster on paper for the replica planners: servers, regions with members, and the view they plan from. */
final class ReplicaFixture {
  static final TableName T = TableName.valueOf("t");
  static final TableName OFF = TableName.valueOf("disabled");

  final List<RegionRecord> regions = new ArrayList<>();
  final List<ServerName> live = new ArrayList<>();
  final Map<Address, Long> downSince = new HashMap<>();
  final Map<Address, Boolean> decommissioned = new HashMap<>();
  final Set<String> held = new HashSet<>();
  final Map<TableName, Integer> factors = new HashMap<>(Map.of(T, 3));
  Function<RegionRecord, ServerName> primaryOf = RegionRecord::server;
  long now = 1_000_000;

  static ServerName server(int i) {
    return ServerName.valueOf("127.0.0.1", 16020 + i, 1L);
  }

  /** The same server restarted: same address, new start code. */
  static ServerName restarted(int i) {
    return ServerName.valueOf("127.0.0.1", 16020 + i, 2L);
  }

  static RegionInfo region(TableName table, int i) {
    return RegionInfoBuilder.newBuilder(table).setStartKey(Bytes.toBytes(String.format("%04d", i)))
        .setEndKey(Bytes.toBytes(String.format("%04d", i + 1))).setRegionId(1).build();
  }

  ReplicaFixture live(int... servers) {
    for (int s : servers) {
      live.add(server(s));
    }
    return this;
  }

  ReplicaFixture down(int server, long since) {
    downSince.put(server(server).getAddress(), since);
    return this;
  }

  /** A replicated region of table t with members on these servers (the first founded it). */
  RegionInfo replicated(int index, int... servers) {
    return replicated(T, index, servers);
  }

  RegionInfo replicated(TableName table, int index, int... servers) {
    RegionInfo info = region(table, index);
    List<Member> members = new ArrayList<>();
    for (int s : servers) {
      members.add(new Member(server(s), 20_000 + s));
    }
    regions.add(RegionRecord.replicated(info, RegionRecord.OPEN, members));
    return info;
  }

  RegionInfo unreplicated(int index, int server) {
    RegionInfo info = region(T, 1000 + index);
    regions.add(new RegionRecord(info, server(server), RegionRecord.OPEN));
    return info;
  }

  ReplicaView view() {
    return new ReplicaView(List.copyOf(regions), Map.copyOf(factors), List.copyOf(live), Map.copyOf(downSince),
        Map.copyOf(decommissioned), Set.copyOf(held), primaryOf, now);
  }

  /** Carries a replacement out on paper, as replaceMember would: the member on {@code from} goes, one on {@code to} comes. */
  void apply(ReplicaRepair.Replacement r) {
    for (int i = 0; i < regions.size(); i++) {
      RegionRecord rec = regions.get(i);
      if (!rec.info().equals(r.region())) {
        continue;
      }
      List<Member> members = new ArrayList<>(rec.members());
      if (r.from() != null) {
        members.removeIf(m -> m.isOn(r.from()));
      }
      if (r.to() != null) {
        members.add(new Member(r.to(), 30_000 + r.to().getPort()));
      }
      regions.set(i, rec.withMembers(members));
    }
  }

  /** Members per live server, by address. */
  Map<Address, Integer> membersPerServer() {
    Map<Address, Integer> out = new HashMap<>();
    live.forEach(s -> out.put(s.getAddress(), 0));
    for (RegionRecord r : regions) {
      for (Member m : r.members()) {
        out.computeIfPresent(m.server().getAddress(), (a, n) -> n + 1);
      }
    }
    return out;
  }

  RegionRecord record(RegionInfo info) {
    return regions.stream().filter(r -> r.info().equals(info)).findFirst().orElseThrow();
  }
}
