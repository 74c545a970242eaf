package io.basalt.server.control;

import io.basalt.server.catalog.Member;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.client.RegionInfo;

/**
 * The server side of control calls: named methods taking and returning a {@link ControlCodec} payload.
 * Carried over ClientService's {@code ExecRegionServerService} under the service name {@link #SERVICE},
 * the envelope HBase itself uses for server-side endpoints, so no extra protocol or port is needed.
 */
public final class ControlEndpoint {
  public static final String SERVICE = "BasaltControl";

  /** One control method. */
  @FunctionalInterface
  public interface Method {
    byte[] call(ControlCodec.Reader args) throws IOException;
  }

  private final Map<String, Method> methods = new ConcurrentHashMap<>();

  public ControlEndpoint register(String name, Method method) {
    methods.put(name, method);
    return this;
  }

  public byte[] call(String name, byte[] payload) throws IOException {
    Method m = methods.get(name);
    if (m == null) {
      throw new DoNotRetryIOException("unknown control method " + name);
    }
    return m.call(new ControlCodec.Reader(payload));
  }

  /** Exposes a region server's {@link RegionServerControl} calls. */
  public static ControlEndpoint of(RegionServerControl rs) {
    byte[] none = new byte[0];
    ControlEndpoint endpoint = new ControlEndpoint();
    RemoteSnapshots.register(endpoint, rs.snapshots());
    RemoteGroupMerges.register(endpoint, rs.groupMerges());
    return endpoint
        .register("openRegion", a -> {
          rs.openRegion(a.region(), a.table());
          return none;
        })
        .register("createRegion", a -> {
          rs.createRegion(a.region(), a.table());
          return none;
        })
        .register("replicationPort", a -> new ControlCodec.Writer().number(rs.replicationPort(a.region(), a.numbers()))
            .toBytes())
        .register("openMember", a -> {
          rs.openMember(a.region(), a.table(), a.string(), a.members(), a.number() != 0);
          return none;
        })
        .register("sealForSplit", a -> new ControlCodec.Writer().number(rs.groupSplits().sealForSplit(a.region()))
            .toBytes())
        .register("closeAndCloneMember", a -> new ControlCodec.Writer()
            .number(rs.groupSplits().closeAndCloneMember(a.region(), a.region(), a.region(), a.number())).toBytes())
        .register("foundDaughterGroup", a -> {
          rs.groupSplits().foundDaughterGroup(a.region(), a.string(), a.members());
          return none;
        })
        .register("rollBackGroupSplit", a -> {
          rs.groupSplits().rollBackGroupSplit(a.region(), a.table(), a.region(), a.region(), a.string(), a.members());
          return none;
        })
        .register("transferPrimary", a -> {
          rs.transferPrimary(a.region(), a.server());
          return none;
        })
        .register("joinMember", a -> {
          rs.joinMember(a.region(), a.table(), a.string(), a.members());
          return none;
        })
        .register("deleteMember", a -> {
          RegionInfo region = a.region();
          List<Member> gone = a.members();
          if (gone.size() != 1) {
            throw new DoNotRetryIOException("deleteMember takes one member, not " + gone.size());
          }
          rs.deleteMember(region, gone.get(0));
          return none;
        })
        .register("closeRegion", a -> {
          rs.closeRegion(a.region());
          return none;
        })
        .register("dropRegion", a -> {
          rs.dropRegion(a.region());
          return none;
        })
        .register("flushTable", a -> new ControlCodec.Writer()
            .number(rs.flushTable(org.apache.hadoop.hbase.TableName.valueOf(a.string()))).toBytes())
        .register("alterTable", a -> {
          rs.alterTable(a.table());
          return none;
        })
        .register("onlineRegions", a -> new ControlCodec.Writer().regions(rs.onlineRegions()).toBytes())
        .register("storedRegions", a -> new ControlCodec.Writer().strings(rs.storedRegions()).toBytes())
        .register("midpoint", a -> new ControlCodec.Writer().bytes(rs.midpoint(a.region()).orElse(null)).toBytes())
        .register("closeAndClone", a -> {
          CloneReport r = rs.closeAndClone(a.region(), a.region(), a.region());
          return new ControlCodec.Writer().number(r.closeMillis()).number(r.cloneMillis()).number(r.bytesCopied())
              .toBytes();
        })
        .register("rollBackSplit", a -> {
          rs.rollBackSplit(a.region(), a.table(), a.region(), a.region());
          return none;
        })
        .register("closeAndMerge", a -> {
          CloneReport r = rs.closeAndMerge(a.region(), a.region(), a.region());
          return new ControlCodec.Writer().number(r.closeMillis()).number(r.cloneMillis()).number(r.bytesCopied())
              .toBytes();
        })
        .register("rollBackMerge", a -> {
          rs.rollBackMerge(a.region(), a.region(), a.table(), a.region());
          return none;
        })
        .register("preClose", a -> new ControlCodec.Writer().moveSource(rs.preClose(a.region())).toBytes())
        .register("prefetch", a -> {
          rs.prefetch(a.region(), a.moveSource());
          return none;
        })
        .register("closeForMove", a -> new ControlCodec.Writer().moveSource(rs.closeForMove(a.region())).toBytes())
        .register("openMoved", a -> new ControlCodec.Writer()
            .number(rs.openMoved(a.region(), a.table(), a.moveSource())).toBytes())
        .register("finishMoveAway", a -> {
          rs.finishMoveAway(a.region(), a.server());
          return none;
        })
        .register("abortMoveAway", a -> {
          rs.abortMoveAway(a.region(), a.table());
          return none;
        })
        .register("abortMoveIn", a -> {
          rs.abortMoveIn(a.region());
          return none;
        });
  }
}
