package io.basalt.server.acl;

import java.util.Optional;
import org.apache.hadoop.hbase.TableName;

/**
 * What the snapshot rules need to know of the master's catalog: a stored snapshot's owner and table (HBase's
 * AccessController judges a delete, restore or clone by the stored description, not the caller's request), and
 * whether a table exists (a RestoreSnapshot request of an existing table restores it, else it clones).
 */
public interface SnapshotFacts {
  /** A stored snapshot: who took it ("" when taken without authorisation) and of which table. */
  record Stored(String owner, TableName table) {}

  /** Before the master has wired its catalog in: nothing is known, every snapshot call needs global ADMIN. */
  SnapshotFacts NONE = new SnapshotFacts() {
    @Override
    public Optional<Stored> snapshot(String name) {
      return Optional.empty();
    }

    @Override
    public boolean tableExists(TableName table) {
      return false;
    }
  };

  Optional<Stored> snapshot(String name);

  boolean tableExists(TableName table);
}
