package io.basalt.server.regionserver;

import java.util.List;
import org.apache.hadoop.hbase.DoNotRetryIOException;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos;
import org.apache.hadoop.hbase.shaded.protobuf.generated.HBaseProtos.NameBytesPair;

/**
 * Security attributes of an operation that Basalt cannot honour, refused whether authorisation is on or not:
 * a cell ACL ({@code Mutation.setACL}, attribute {@code acl}) and visibility labels ({@code
 * Mutation.setCellVisibility} and {@code Get/Scan.setAuthorizations}, attribute {@code VISIBILITY}). HBase
 * without its AccessController or VisibilityController stores such cells without the restriction and ignores
 * the read's authorisations; a client that asked for them would believe its cells protected, so Basalt refuses.
 */
final class SecurityAttributes {
  /** HBase's AccessControlConstants.OP_ATTRIBUTE_ACL. */
  static final String CELL_ACL = "acl";
  /** HBase's VisibilityConstants.VISIBILITY_LABELS_ATTR_KEY (cell visibility on a mutation, authorisations on a read). */
  static final String VISIBILITY = "VISIBILITY";

  private SecurityAttributes() {}

  static void check(ClientProtos.MutationProto m) throws DoNotRetryIOException {
    for (NameBytesPair a : m.getAttributeList()) {
      if (a.getName().equals(CELL_ACL)) {
        throw new DoNotRetryIOException("Cell ACLs (Mutation.setACL) are not supported by Basalt: the cells would be "
            + "stored without their ACL; grant on the table, family or qualifier instead");
      }
      if (a.getName().equals(VISIBILITY)) {
        throw new DoNotRetryIOException("Visibility labels (Mutation.setCellVisibility) are not supported by Basalt: "
            + "the cells would be stored readable by everyone with READ");
      }
    }
  }

  static void check(ClientProtos.Get g) throws DoNotRetryIOException {
    checkRead(g.getAttributeList(), "Get");
  }

  static void check(ClientProtos.Scan s) throws DoNotRetryIOException {
    checkRead(s.getAttributeList(), "Scan");
  }

  private static void checkRead(List<NameBytesPair> attributes, String kind) throws DoNotRetryIOException {
    for (NameBytesPair a : attributes) {
      if (a.getName().equals(VISIBILITY)) {
        throw new DoNotRetryIOException("Visibility labels (" + kind + ".setAuthorizations) are not supported by "
            + "Basalt");
      }
    }
  }
}
