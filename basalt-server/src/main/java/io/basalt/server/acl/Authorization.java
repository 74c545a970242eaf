package io.basalt.server.acl;

import io.basalt.server.rpc.CallGuard;
import io.basalt.server.rpc.Caller;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.Function;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.security.access.Permission.Action;
import org.apache.hbase.thirdparty.com.google.protobuf.Message;

/**
 * Authorisation of one server (master or region server): the grants watched in ZooKeeper, the checks of every
 * call (as the RPC layer's {@link CallGuard}) and the permission calls' handler. Calls of the cluster's own
 * servers (they proved the cluster secret) are not checked, as HBase's service user is a superuser.
 */
public final class Authorization implements CallGuard, AutoCloseable {
  private final PermissionStore store;
  private final PermissionWatcher watcher;
  private final AuditLog audit;
  private final AccessChecker checker;
  private final RegionCallRules region;
  private final MasterCallRules master;
  private final AclServiceHandler handler;

  private Authorization(CuratorFramework zk, String root, AccessSettings settings,
      Function<byte[], List<byte[]>> tableFamilies) throws IOException {
    store = new PermissionStore(zk, root);
    audit = new AuditLog(settings.auditFile());
    PermissionWatcher w = null;
    try {
      w = new PermissionWatcher(zk, store, settings);
    } finally {
      if (w == null) {
        audit.close();
      }
    }
    watcher = w;
    checker = new AccessChecker(watcher::view, new UserGroups(settings.groupOverrides()), audit);
    region = new RegionCallRules(checker, tableFamilies);
    master = new MasterCallRules(checker, store, () -> {
      try {
        watcher.refresh(store);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    });
    handler = new AclServiceHandler(new Grants(checker, store, watcher, settings), checker);
  }

  /**
   * Null when authorisation is off (then calls are not checked, and permission calls are refused as by HBase).
   * {@code tableFamilies}: the families of the table of a region hosted here, by region name (empty if not hosted).
   */
  public static Authorization start(CuratorFramework zk, String root, AccessSettings settings,
      Function<byte[], List<byte[]>> tableFamilies) throws IOException {
    return settings.enabled() ? new Authorization(zk, root, settings, tableFamilies) : null;
  }

  /** Lets the master's snapshot calls be judged by their stored owners (HBase's snapshot ownership). */
  public void snapshotFacts(SnapshotFacts facts) {
    master.snapshotFacts(facts);
  }

  /** The permission calls' handler, to serve on MasterService and ClientService; {@code a} may be null (off). */
  public static AclServiceHandler handlerOf(Authorization a) {
    return a == null ? new AclServiceHandler(null, null) : a.handler;
  }

  @Override
  public Admitted admit(Caller caller, String service, String method, Message request, List<Cell> cells)
      throws IOException {
    if (caller.clusterMember()) {
      return Admitted.as(request);
    }
    RequestUser u = checker.user(caller);
    return switch (service) {
      case "ClientService" -> region.client(u, method, request, cells);
      case "AdminService" -> region.admin(u, method, request);
      case "MasterService" -> master.admit(u, method, request);
      case "ClientMetaService" -> Admitted.as(request); // where the master and meta are: asked before anything
      default -> {
        checker.requireGlobal(u, service + "." + method, Action.ADMIN, "");
        yield Admitted.as(request);
      }
    };
  }

  @Override
  public void close() throws IOException {
    watcher.close();
    audit.close();
  }
}
