package io.basalt.storage.je;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReadCursorsTest {
  @TempDir
  Path dir;
  private Environment env;
  private Database db;

  @BeforeEach
  void open() {
    env = new Environment(dir.toFile(), new EnvironmentConfig().setAllowCreate(true).setTransactional(true));
    db = env.openDatabase(null, "t", new DatabaseConfig().setAllowCreate(true).setTransactional(true));
    for (String k : List.of("a", "b", "c")) {
      db.put(null, entry(k), entry(k + "-value"));
    }
  }

  @AfterEach
  void close() {
    if (env.isValid()) {
      env.close();
    }
  }

  @Test
  void aReturnedCursorIsReusedAndReadsFromAnyThread() throws Exception {
    ReadCursors pool = new ReadCursors(db);
    Cursor first = pool.take();
    assertThat(first.getSearchKey(entry("b"), new DatabaseEntry(), LockMode.READ_UNCOMMITTED))
        .isEqualTo(OperationStatus.SUCCESS);
    pool.giveBack(first); // still on "b"
    Cursor again = CompletableFuture.supplyAsync(pool::take, r -> new Thread(r).start()).get(10, TimeUnit.SECONDS);
    assertThat(again).isSameAs(first);
    String read = CompletableFuture.supplyAsync(() -> {
      DatabaseEntry key = new DatabaseEntry();
      again.getFirst(key, new DatabaseEntry(), LockMode.READ_UNCOMMITTED);
      return new String(key.getData(), StandardCharsets.UTF_8);
    }, r -> new Thread(r).start()).get(10, TimeUnit.SECONDS);
    assertThat(read).isEqualTo("a");
    pool.giveBack(again);
    pool.close();
    db.close(); // JE refuses while a cursor is open: the pool closed its idle ones
  }

  @Test
  void keepsAtMostItsLimitAndClosesWhatComesBackAfterClose() {
    ReadCursors pool = new ReadCursors(db);
    List<Cursor> out = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      out.add(pool.take());
    }
    assertThat(out).doesNotHaveDuplicates();
    out.forEach(pool::giveBack);
    List<Cursor> reused = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      reused.add(pool.take());
    }
    assertThat(reused.stream().filter(out::contains).count()).isEqualTo(32);
    Cursor late = reused.remove(0);
    reused.forEach(pool::giveBack);
    pool.close();
    pool.giveBack(late);
    db.close();
  }

  private static DatabaseEntry entry(String s) {
    return new DatabaseEntry(s.getBytes(StandardCharsets.UTF_8));
  }
}
