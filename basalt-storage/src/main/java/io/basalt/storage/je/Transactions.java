package io.basalt.storage.je;

import com.sleepycat.je.Environment;
import com.sleepycat.je.Transaction;
import com.sleepycat.je.TransactionConfig;
import com.sleepycat.je.rep.InsufficientAcksException;
import com.sleepycat.je.rep.ReplicatedEnvironment;
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
    boolean ended = false;
    try {
      T result = body.apply(txn);
      try {
        txn.commit();
      } catch (InsufficientAcksException e) {
        ended = true; // committed here, just not acknowledged by enough of the group: nothing to abort
        throw e;
      }
      ended = true;
      return result;
    } finally {
      if (!ended) {
        txn.abort();
      }
    }
  }

  /** For background work whose loss in a crash only means it runs again: no log flush, no acknowledgement. */
  static <T> T runNoSync(Environment env, Function<Transaction, T> body) {
    return run(env, CommitPolicies.unflushed(env instanceof ReplicatedEnvironment), body);
  }
}
