package io.basalt.storage.je;

import com.sleepycat.je.Environment;
import com.sleepycat.je.Transaction;
import com.sleepycat.je.TransactionConfig;
import java.util.function.Function;

/** One JE transaction around a body: committed if the body returns, aborted if it throws. */
final class Transactions {
  private Transactions() {}

  static TransactionConfig config(com.sleepycat.je.Durability durability) {
    TransactionConfig tc = new TransactionConfig();
    tc.setDurability(durability);
    return tc;
  }

  static <T> T run(Environment env, TransactionConfig config, Function<Transaction, T> body) {
    Transaction txn = env.beginTransaction(null, config);
    boolean committed = false;
    try {
      T result = body.apply(txn);
      txn.commit();
      committed = true;
      return result;
    } finally {
      if (!committed) {
        txn.abort();
      }
    }
  }

  /** For background work whose loss in a crash only means it runs again: no log flush at commit. */
  static <T> T runNoSync(Environment env, Function<Transaction, T> body) {
    return run(env, config(com.sleepycat.je.Durability.COMMIT_NO_SYNC), body);
  }
}
