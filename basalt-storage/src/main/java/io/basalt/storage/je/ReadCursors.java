package io.basalt.storage.je;

import com.sleepycat.je.Cursor;
import com.sleepycat.je.CursorConfig;
import com.sleepycat.je.Database;
import com.sleepycat.je.Transaction;
import java.util.ArrayDeque;

/**
 * The lock-free read cursors of one family database, kept open for reuse. Opening a JE cursor (a locker and its
 * registration, ids, a clock read) measured about 6 µs of server CPU on the bench machine, which a Get and every
 * scanner's opening paid once per family. A returned cursor may still sit on a record: every reader starts with a
 * search, as on a new cursor. Calls from any thread: these cursors take no locks, which is all JE ties to the thread
 * that opened a cursor in a plain environment. A replicated environment also files each such cursor under the thread
 * that opened it until that thread closes it ({@code LockManager.registerThreadLocker}), so there a cursor is opened
 * and closed by each use, as it must be closed on its own thread: see {@link #outliveCalls}.
 */
final class ReadCursors {
  /**
   * Non-sticky: JE moves the cursor itself instead of a clone per step (a clone is a cursor, a locker and a lock
   * record: most of a scan's allocation), and a failed move leaves it unpositioned, which every user allows for.
   */
  static final CursorConfig CONFIG = new CursorConfig().setReadUncommitted(true).setNonSticky(true);

  /** More than the RPC handlers that read at once; cursors beyond it are closed on return. */
  private static final int MAX_IDLE = 32;

  private final Database db;
  private final boolean reuse;
  private final ArrayDeque<Cursor> idle = new ArrayDeque<>();
  private boolean closed;

  ReadCursors(Database db) {
    this.db = db;
    this.reuse = outliveCalls(db.getEnvironment());
  }

  /**
   * Whether a read cursor of {@code env} may be closed by another thread than the one that opened it, and so be kept
   * past the call that opened it: in a plain environment only (see above).
   */
  static boolean outliveCalls(com.sleepycat.je.Environment env) {
    return !(env instanceof com.sleepycat.je.rep.ReplicatedEnvironment);
  }

  Cursor take() {
    if (!reuse) {
      return db.openCursor((Transaction) null, CONFIG);
    }
    synchronized (idle) {
      Cursor c = idle.pollFirst();
      if (c != null) {
        return c;
      }
    }
    return db.openCursor((Transaction) null, CONFIG);
  }

  void giveBack(Cursor c) {
    synchronized (idle) {
      if (reuse && !closed && idle.size() < MAX_IDLE) {
        idle.addFirst(c);
        return;
      }
    }
    c.close();
  }

  /** Closes the idle cursors; the database can then close (JE refuses while a cursor is open). */
  void close() {
    synchronized (idle) {
      closed = true;
      idle.forEach(Cursor::close);
      idle.clear();
    }
  }
}
