package io.basalt.server.master;

import io.basalt.server.acl.SnapshotFacts;
import io.basalt.server.catalog.Catalog;
import java.util.Optional;
import org.apache.hadoop.hbase.TableName;

/** The catalog's snapshots and tables as the authorisation rules see them (owner and table of a stored snapshot). */
final class MasterSnapshotFacts implements SnapshotFacts {
  private final Catalog catalog;

  MasterSnapshotFacts(Catalog catalog) {
    this.catalog = catalog;
  }

  @Override
  public Optional<Stored> snapshot(String name) {
    try {
      return catalog.snapshots().get(name).map(s -> new Stored(s.owner(), s.table().getTableName()));
    } catch (RuntimeException e) {
      return Optional.empty(); // an unreadable entry: the call itself will report it
    }
  }

  @Override
  public boolean tableExists(TableName table) {
    return catalog.table(table).isPresent();
  }
}
