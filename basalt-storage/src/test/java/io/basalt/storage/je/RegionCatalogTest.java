package io.basalt.storage.je;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseConfig;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.Environment;
import com.sleepycat.je.EnvironmentConfig;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.TransactionConfig;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A layout change that fails part-way leaves the region reading through open handles. A promotion's reload once
 * closed every family database before opening the new ones; when an open failed, each later read of that member
 * failed with "Database was closed" (a DoNotRetryIOException to the client) until the member closed.
 */
class RegionCatalogTest {
  private static final RegionDescriptor JUST_F = new RegionDescriptor(List.of(FamilySchema.of("f")), KeyRange.ALL);
  private static final RegionDescriptor F_AND_G =
      new RegionDescriptor(List.of(FamilySchema.of("f"), FamilySchema.of("g")), KeyRange.ALL);

  @TempDir
  Path dir;
  private Environment env;
  private RegionCatalog catalog;

  @BeforeEach
  void open() {
    env = new Environment(dir.toFile(), new EnvironmentConfig().setAllowCreate(true).setTransactional(true));
    catalog = new RegionCatalog(env, new RegionMetadata(JUST_F, false, RegionMetadata.NEW_REGION_FORMAT),
        new TransactionConfig());
    catalog.storeIfChanged();
    catalog.openFamilies(true);
    // Family g's database exists but cannot be opened as a family database (it was made with duplicates).
    DatabaseConfig duplicates = new DatabaseConfig().setAllowCreate(true).setTransactional(true)
        .setSortedDuplicates(true);
    env.openDatabase(null, "family:67", duplicates).close();
  }

  @AfterEach
  void close() {
    catalog.closeDatabases();
    env.close();
  }

  @Test
  void aReloadThatCannotOpenAFamilyKeepsReadingThroughTheHandlesItHad() {
    // what a primary's alter leaves in the log of a secondary: the layout names f and g
    catalog.metaDb().put(null, new DatabaseEntry(RegionMetadata.KEY),
        new DatabaseEntry(new RegionMetadata(F_AND_G, false, RegionMetadata.NEW_REGION_FORMAT).encode()));

    assertThatThrownBy(catalog::reload).isInstanceOf(IllegalArgumentException.class);

    assertThat(catalog.metadata().descriptor()).as("the layout stays with the handles it has").isEqualTo(JUST_F);
    assertThat(catalog.families()).hasSize(1);
    assertReadable(catalog.family(bytes("f")).db());
  }

  @Test
  void anAlterThatCannotOpenAFamilyChangesNothing() {
    assertThatThrownBy(() -> catalog.alterFamilies(F_AND_G)).isInstanceOf(IllegalArgumentException.class);

    assertThat(catalog.metadata().descriptor()).isEqualTo(JUST_F);
    assertThat(RegionCatalog.readMetadata(env).descriptor()).isEqualTo(JUST_F);
    assertReadable(catalog.family(bytes("f")).db());
  }

  @Test
  void anAlterOpensTheNewFamiliesAndRemovesTheDroppedOnes() {
    RegionDescriptor justH = new RegionDescriptor(List.of(FamilySchema.of("h")), KeyRange.ALL);
    Database before = catalog.family(bytes("f")).db();

    catalog.alterFamilies(justH);

    assertThat(catalog.metadata().descriptor()).isEqualTo(justH);
    assertReadable(catalog.family(bytes("h")).db());
    assertThatThrownBy(() -> before.get(null, new DatabaseEntry(bytes("r")), new DatabaseEntry(), LockMode.DEFAULT))
        .isInstanceOf(IllegalStateException.class);
    assertThat(env.getDatabaseNames()).contains("family:68").doesNotContain("family:66");
  }

  private static void assertReadable(Database db) {
    assertThat(db.get(null, new DatabaseEntry(bytes("r")), new DatabaseEntry(), LockMode.DEFAULT))
        .isEqualTo(OperationStatus.NOTFOUND);
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
