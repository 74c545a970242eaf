package io.basalt.bench.elasticity;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;

/** Dropping a measured table to free its disk, tolerating a server that refuses the first close. */
final class Tables {
  private static final int TRIES = 5;

  private Tables() {}

  /**
   * Disables and deletes {@code name}, retrying a refused disable a few times 5 s apart (each failure is
   * printed and noted: it is a server problem worth reporting, not a measurement). Gives up with a note.
   */
  static void drop(Admin admin, TableName name, PrintStream out, List<String> notes)
      throws IOException, InterruptedException {
    for (int attempt = 1; ; attempt++) {
      try {
        if (admin.isTableEnabled(name)) {
          admin.disableTable(name);
        }
        admin.deleteTable(name);
        return;
      } catch (IOException e) {
        String cause = e.getMessage() == null ? e.toString() : e.getMessage().lines().findFirst().orElse("");
        String note = "dropping table " + name + " failed (attempt " + attempt + "): " + cause;
        out.println(note);
        notes.add(note);
        if (attempt == TRIES) {
          notes.add("table " + name + " was left in place");
          return;
        }
        Thread.sleep(5_000);
      }
    }
  }
}
