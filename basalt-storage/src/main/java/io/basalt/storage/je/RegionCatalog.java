package io.basalt.storage.je;

import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseConfig;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.Environment;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.TransactionConfig;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.error.InvalidMutationException;
import io.basalt.storage.error.RowOutOfRangeException;
import io.basalt.storage.error.StorageException;
import io.basalt.storage.error.UnknownFamilyException;
import io.basalt.storage.read.ColumnSelection;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * A region's layout in its JE environment: its {@link RegionMetadata} record in {@code basalt.meta}, and one
 * JE database per column family, named {@code family:} and the family's name in hex.
 */
final class RegionCatalog {
  private static final String FAMILY_DB_PREFIX = "family:";

  private final Environment env;
  private final Database metaDb;
  private final TransactionConfig metadataCommit;
  private volatile RegionMetadata metadata;
  private volatile List<FamilyStore> families;

  /**
   * Opens {@code basalt.meta}; the family databases wait for {@link #openFamilies()}, so the region can take
   * its saved cell count in between. {@code metadataCommit}: how a metadata change is committed.
   */
  RegionCatalog(Environment env, RegionMetadata metadata, TransactionConfig metadataCommit) {
    this.env = env;
    this.metadataCommit = metadataCommit;
    this.metaDb = env.openDatabase(null, RegionMetadata.DATABASE, dbConfig());
    this.metadata = metadata;
  }

  private static byte[] storedMetadata(Database db) {
    DatabaseEntry data = Cursors.entry();
    if (db.get(null, new DatabaseEntry(RegionMetadata.KEY), data, LockMode.DEFAULT) != OperationStatus.SUCCESS) {
      return null;
    }
    return data.getData();
  }

  static RegionMetadata readMetadata(Environment env) {
    DatabaseConfig dc = dbConfig();
    dc.setAllowCreate(false);
    try (Database db = env.openDatabase(null, RegionMetadata.DATABASE, dc)) {
      byte[] stored = storedMetadata(db);
      if (stored == null) {
        throw new StorageException("region metadata missing in " + env.getHome());
      }
      return RegionMetadata.decode(stored);
    } catch (com.sleepycat.je.DatabaseNotFoundException e) {
      throw new StorageException(env.getHome() + " is not a Basalt region (no " + RegionMetadata.DATABASE + ")", e);
    }
  }

  private static DatabaseConfig dbConfig() {
    DatabaseConfig dc = new DatabaseConfig();
    dc.setAllowCreate(true);
    dc.setTransactional(true);
    dc.setKeyPrefixing(true);
    return dc;
  }

  private static String familyDbName(byte[] family) {
    return FAMILY_DB_PREFIX + HexFormat.of().formatHex(family);
  }

  /** Writes the metadata only if {@code basalt.meta} holds something else. */
  void storeIfChanged() {
    if (!Arrays.equals(storedMetadata(metaDb), metadata.encode())) {
      writeMetadata(metadata);
    }
  }

  /** {@code create}: a missing family database is created (only a copy that can write may). */
  void openFamilies(boolean create) {
    this.families = openFamilies(metadata.descriptor(), create);
  }

  private List<FamilyStore> openFamilies(RegionDescriptor descriptor, boolean create) {
    List<FamilyStore> out = new ArrayList<>();
    DatabaseConfig dc = dbConfig();
    dc.setAllowCreate(create);
    try {
      for (FamilySchema f : descriptor.families()) {
        try {
          out.add(new FamilyStore(f, env.openDatabase(null, familyDbName(f.name()), dc), metadata.layout()));
        } catch (com.sleepycat.je.DatabaseNotFoundException notYet) {
          // a secondary whose log has the family's metadata before its database: it appears with a later reload
        }
      }
    } catch (RuntimeException e) {
      closeAll(out, e);
      throw e;
    }
    return List.copyOf(out);
  }

  private static void closeAll(List<FamilyStore> stores, RuntimeException cause) {
    for (FamilyStore f : stores) {
      try {
        f.close();
      } catch (RuntimeException e) {
        cause.addSuppressed(e);
      }
    }
  }

  /**
   * Takes the metadata and families from what the log holds now (a secondary follows its primary's
   * changes this way). The caller holds the region's guard exclusively.
   */
  void reload() {
    RegionMetadata next = metadata;
    byte[] stored = storedMetadata(metaDb);
    if (stored != null) {
      RegionMetadata logged = RegionMetadata.decode(stored);
      KeyRange mine = metadata.descriptor().range();
      // A member of a split's daughter opens with the daughter's range before its log holds it (the log is
      // the parent's until the daughter's primary narrows it): a range never widens on reload.
      boolean narrower = !mine.equals(logged.descriptor().range()) && logged.descriptor().range().encloses(mine);
      next = narrower ? logged.with(logged.descriptor().withRange(mine), true) : logged;
    }
    List<FamilyStore> opened = openFamilies(next.descriptor(), false);
    metadata = next; // only with its families: a failed open leaves layout and handles as they were
    replaceFamilies(opened);
  }

  /**
   * Serves from {@code opened} from now on and closes the stores they replace. The new handles are opened before
   * the old ones close: a failed open (a member changing role under a promotion's reload, say) leaves the region
   * reading through handles that still work, never through closed ones.
   */
  private void replaceFamilies(List<FamilyStore> opened) {
    List<FamilyStore> before = families;
    families = opened;
    if (before != null) {
      before.forEach(FamilyStore::close);
    }
  }

  private void writeMetadata(RegionMetadata m) {
    Transactions.run(env, metadataCommit,
        txn -> metaDb.put(txn, new DatabaseEntry(RegionMetadata.KEY), new DatabaseEntry(m.encode())));
    metadata = m;
  }

  /** The range collection is done: a reopened region does not run it again. */
  void markCollected() {
    writeMetadata(metadata.with(metadata.descriptor(), false));
  }

  /**
   * Opens the databases of {@code newDescriptor}'s families (creating new ones), stores those families (the range
   * stays), then closes the old handles and removes the databases of families it no longer has. A failure before
   * the store leaves the region as it was, but for the empty database of a new family (found again if the family is
   * added later). The caller holds the region's guard exclusively.
   */
  void alterFamilies(RegionDescriptor newDescriptor) {
    RegionDescriptor updated = newDescriptor.withRange(range());
    List<FamilyStore> opened = openFamilies(updated, true);
    try {
      writeMetadata(metadata.with(updated, metadata.pendingCollection()));
    } catch (RuntimeException e) {
      closeAll(opened, e);
      throw e;
    }
    List<FamilyStore> before = families;
    replaceFamilies(opened);
    for (FamilyStore f : before) {
      if (updated.family(f.name()).isEmpty()) {
        env.removeDatabase(null, familyDbName(f.name()));
      }
    }
  }

  /** Closes the family databases (those opened so far) and {@code basalt.meta}. */
  void closeDatabases() {
    if (families != null) {
      families.forEach(FamilyStore::close);
    }
    metaDb.close();
  }

  /** Also holds the cell count saved at close (see {@link CellCounter}). */
  Database metaDb() {
    return metaDb;
  }

  RegionMetadata metadata() {
    return metadata;
  }

  List<FamilyStore> families() {
    return families;
  }

  KeyRange range() {
    return metadata.descriptor().range();
  }

  void checkRow(byte[] row) {
    if (row == null || row.length == 0) {
      throw new InvalidMutationException("Row length is 0");
    }
    if (!range().contains(row)) {
      throw new RowOutOfRangeException("row " + Bytes.toStringBinary(row) + " is outside region range " + range());
    }
  }

  FamilyStore family(byte[] name) {
    for (FamilyStore f : families) {
      if (java.util.Arrays.equals(f.name(), name)) {
        return f;
      }
    }
    throw new UnknownFamilyException("Column family " + Bytes.toStringBinary(name) + " does not exist in region");
  }

  /** The families a read touches, in name order; unknown named families are an error. */
  List<FamilyStore> selectFamilies(ColumnSelection columns) {
    if (columns.isAll()) {
      return families;
    }
    List<FamilyStore> out = new ArrayList<>();
    for (byte[] name : columns.namedFamilies()) {
      out.add(family(name));
    }
    return out;
  }
}
