package io.basalt.server.zk;

import java.util.ArrayList;
import java.util.List;
import org.apache.curator.framework.api.ACLProvider;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;

/**
 * Znode ACLs for a cluster whose servers log in to ZooKeeper with SASL, as HBase's ZKUtil.createACL sets them on a
 * secure cluster: every znode is readable and writable only by its creator's SASL identity (all of the cluster's
 * servers log in as the same one), except the znodes an unmodified HBase client reads without credentials
 * (HBase's ZNodePaths.isClientReadable), which everyone may read: the HBase parent itself, the active master, the
 * cluster id, hbase:meta's location(s), and the region server and table directories.
 */
public final class SecureZnodeAcls implements ACLProvider {
  private static final List<ACL> CLIENT_READABLE;

  static {
    List<ACL> acl = new ArrayList<>(ZooDefs.Ids.CREATOR_ALL_ACL);
    acl.addAll(ZooDefs.Ids.READ_ACL_UNSAFE);
    // not List.copyOf: ZooKeeper's create asks the list whether it contains null, which an immutable list refuses
    CLIENT_READABLE = java.util.Collections.unmodifiableList(acl);
  }

  private final String hbaseParent;

  /** {@code hbaseParent}: zookeeper.znode.parent, the root of the client registry ("/hbase"). */
  public SecureZnodeAcls(String hbaseParent) {
    this.hbaseParent = hbaseParent;
  }

  @Override
  public List<ACL> getDefaultAcl() {
    return ZooDefs.Ids.CREATOR_ALL_ACL;
  }

  @Override
  public List<ACL> getAclForPath(String path) {
    return clientReadable(path) ? CLIENT_READABLE : ZooDefs.Ids.CREATOR_ALL_ACL;
  }

  /** HBase's ZNodePaths.isClientReadable for the default znode names. */
  boolean clientReadable(String path) {
    String p = hbaseParent;
    return path.equals(p) || path.equals(p + "/master") || path.equals(p + "/hbaseid")
        || path.equals(p + "/meta-region-server") || path.startsWith(p + "/meta-region-server-")
        || path.equals(p + "/rs") || path.equals(p + "/table") || path.startsWith(p + "/table/");
  }
}
