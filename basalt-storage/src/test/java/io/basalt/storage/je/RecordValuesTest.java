package io.basalt.storage.je;

import static org.assertj.core.api.Assertions.assertThat;

import com.sleepycat.je.CacheMode;
import com.sleepycat.je.Cursor;
import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseConfig;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.Environment;
import com.sleepycat.je.EnvironmentConfig;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RecordValuesTest {
  private static final byte[] LARGE = filled(1000, (byte) 'x');

  @TempDir
  Path dir;
  private Environment env;
  private Database db;

  @BeforeEach
  void load() {
    open();
    db.put(null, entry("a"), new DatabaseEntry(LARGE));
    db.put(null, entry("b"), entry("small")); // embedded in the leaf
    db.put(null, entry("c"), new DatabaseEntry(new byte[0]));
  }

  private void open() {
    EnvironmentConfig config = new EnvironmentConfig().setAllowCreate(true).setTransactional(true)
        .setConfigParam(EnvironmentConfig.TREE_MAX_EMBEDDED_LN, "16");
    env = new Environment(dir.toFile(), config);
    db = env.openDatabase(null, "t", new DatabaseConfig().setAllowCreate(true).setTransactional(true));
  }

  @AfterEach
  void close() {
    db.close();
    env.close();
  }

  @Test
  void readsTheValueOfTheRecordAKeyOnlyMoveReachedWithoutCopyingIt() {
    try (Cursor c = db.openCursor(null, ReadCursors.CONFIG)) {
      assertThat(c.getFirst(new DatabaseEntry(), Cursors.noData(), LockMode.READ_UNCOMMITTED))
          .isEqualTo(OperationStatus.SUCCESS);
      byte[] first = RecordValues.current(c);
      assertThat(first).isEqualTo(LARGE);
      assertThat(RecordValues.current(c)).isSameAs(first); // JE's own array, read twice

      assertThat(c.getNext(new DatabaseEntry(), Cursors.noData(), LockMode.READ_UNCOMMITTED))
          .isEqualTo(OperationStatus.SUCCESS);
      assertThat(new String(RecordValues.current(c), StandardCharsets.UTF_8)).isEqualTo("small");

      assertThat(c.getNext(new DatabaseEntry(), Cursors.noData(), LockMode.READ_UNCOMMITTED))
          .isEqualTo(OperationStatus.SUCCESS);
      assertThat(RecordValues.current(c)).isEmpty();
    }
  }

  @Test
  void aRecordNotInTheCacheIsFetchedFromTheLog() {
    close();
    open(); // the reopened environment's cache holds no record values yet
    try (Cursor c = db.openCursor(null, ReadCursors.CONFIG)) {
      c.setCacheMode(CacheMode.EVICT_LN);
      c.getFirst(new DatabaseEntry(), Cursors.noData(), LockMode.READ_UNCOMMITTED);
      assertThat(RecordValues.current(c)).isEqualTo(LARGE);
    }
  }

  @Test
  void anUpdateLeavesTheArrayAReaderHoldsAsItWas() {
    try (Cursor c = db.openCursor(null, ReadCursors.CONFIG)) {
      c.getFirst(new DatabaseEntry(), Cursors.noData(), LockMode.READ_UNCOMMITTED);
      byte[] held = RecordValues.current(c);
      db.put(null, entry("a"), new DatabaseEntry(filled(1000, (byte) 'y')));
      assertThat(held).isEqualTo(LARGE);
      assertThat(RecordValues.current(c)).containsOnly((byte) 'y');
    }
  }

  @Test
  void aRecordDeletedAfterTheMoveReadsAsNone() {
    try (Cursor c = db.openCursor(null, ReadCursors.CONFIG)) {
      c.getFirst(new DatabaseEntry(), Cursors.noData(), LockMode.READ_UNCOMMITTED);
      db.delete(null, entry("a"));
      assertThat(RecordValues.current(c)).isNull();
    }
  }

  private static DatabaseEntry entry(String s) {
    return new DatabaseEntry(s.getBytes(StandardCharsets.UTF_8));
  }

  private static byte[] filled(int n, byte b) {
    byte[] out = new byte[n];
    Arrays.fill(out, b);
    return out;
  }
}
