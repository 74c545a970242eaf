package io.basalt.storage.model;

import io.basalt.storage.mutation.CompareOp;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeepDeletedCells;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Random step sequences for {@link ModelBasedTest}, a pure function of the seed. Tuned for collisions: few
 * rows (two of them busy), few qualifiers (empty, and ones with 0x00 bytes), small timestamps around a slowly
 * moving clock that often stands still, LATEST mixed with explicit, old and slightly future timestamps, and
 * read-modify-writes that often hit the column just written.
 */
final class StepGenerator {
  static final List<byte[]> ROWS = List.of(
      new byte[] {'a'}, new byte[] {'a', 0}, new byte[] {'a', 0, 0}, new byte[] {'a', 1}, new byte[] {'b'},
      new byte[] {(byte) 0xFF});
  /** Scan bounds besides the rows themselves: between and around them. */
  private static final List<byte[]> OTHER_BOUNDS = List.of(
      new byte[] {0}, new byte[] {'a', 0, 1}, new byte[] {'a', 'b'}, new byte[] {'c'});
  private static final List<byte[]> QUALIFIERS = List.of(new byte[0], new byte[] {0}, new byte[] {'q'}, new byte[] {'q', 0});
  private static final List<byte[]> VALUES = List.of(
      new byte[] {'v', '0'}, new byte[] {'v', '1'}, new byte[0], ModelBytes.ofLong(0), ModelBytes.ofLong(7));
  private static final String[] FAMILY_NAMES = {"f1", "f2", "f3"};
  private static final long START_CLOCK = 10;
  private static final int PURGE_EVERY = 50;
  private static final int REOPEN_EVERY = 150;

  private final Random rnd;
  private final boolean avoidKnownBugs;
  private long now = START_CLOCK;
  /** The column most recently written, which read-modify-writes like to hit again. */
  private byte[] lastRow = ROWS.get(0);
  private byte[] lastFamily = family("f1");
  private byte[] lastQualifier = QUALIFIERS.get(0);

  private StepGenerator(long seed, boolean avoidKnownBugs) {
    this.rnd = new Random(seed);
    this.avoidKnownBugs = avoidKnownBugs;
  }

  /**
   * @param avoidKnownBugs leave out inputs that hit the store bugs {@code ModelRegressionTest} shows, to look
   *     for other differences while those are open
   */
  static List<ModelStep> generate(long seed, int steps, boolean avoidKnownBugs) {
    StepGenerator g = new StepGenerator(seed, avoidKnownBugs);
    List<ModelStep> out = new ArrayList<>();
    for (int i = 0; i < steps; i++) {
      int tick = g.rnd.nextInt(6);
      g.now += tick < 3 ? 0 : tick < 5 ? 1 : 2 + g.rnd.nextInt(2);
      if (i % PURGE_EVERY == PURGE_EVERY - 1) {
        out.add(new ModelStep.Purge(g.now, true));
      } else if (i % REOPEN_EVERY == REOPEN_EVERY - 1) {
        out.add(new ModelStep.Reopen(g.now));
      } else {
        out.add(g.step());
      }
    }
    return out;
  }

  /**
   * Per seed: one family keeping 1 version, one keeping 3 (each sometimes with KEEP_DELETED_CELLS), and one
   * with KEEP_DELETED_CELLS (TRUE, or TTL which is the same without a TTL) keeping 1 to 3, dealt to the names
   * in random order. No TTL: expiry depends on when a read happens, which the model does not simulate.
   */
  static List<FamilySchema> schemas(long seed) {
    Random r = new Random(seed * 31 + 7);
    List<String> names = new ArrayList<>(List.of(FAMILY_NAMES));
    Collections.shuffle(names, r);
    List<FamilySchema> out = new ArrayList<>();
    out.add(FamilySchema.of(names.get(0)).withMaxVersions(1)
        .withKeepDeletedCells(r.nextInt(4) == 0 ? KeepDeletedCells.TRUE : KeepDeletedCells.FALSE));
    out.add(FamilySchema.of(names.get(1)).withMaxVersions(3)
        .withKeepDeletedCells(r.nextInt(4) == 0 ? KeepDeletedCells.TRUE : KeepDeletedCells.FALSE));
    out.add(FamilySchema.of(names.get(2)).withMaxVersions(1 + r.nextInt(3))
        .withKeepDeletedCells(r.nextInt(3) == 0 ? KeepDeletedCells.TTL : KeepDeletedCells.TRUE));
    return out;
  }

  private ModelStep step() {
    int op = rnd.nextInt(100);
    if (op < 8) {
      return new ModelStep.Purge(now, false);
    }
    op = rnd.nextInt(100);
    byte[] row = rnd.nextInt(5) < 2 ? ROWS.get(rnd.nextInt(2)) : pick(ROWS);
    if (op < 40) {
      Durability d = pick(List.of(Durability.SKIP_WAL, Durability.ASYNC_WAL, Durability.SYNC_WAL));
      return op < 30 ? new ModelStep.Mutate(now, mutation(row), d) : new ModelStep.MutateBatch(now, batch(), d);
    }
    if (op < 55) {
      return new ModelStep.Get(now, rnd.nextInt(15) == 0 ? new byte[] {'a', 'b'} : row, query());
    }
    if (op < 67) {
      return scan();
    }
    if (op < 81) {
      boolean append = op >= 75;
      if (rnd.nextBoolean()) {
        row = lastRow;
      }
      return new ModelStep.ReadModifyWrite(now, row, changes(row, append), append, rnd.nextInt(5) != 0);
    }
    if (op < 95) {
      CompareOp cmp = rnd.nextInt(8) == 0 ? CompareOp.NO_OP
          : pick(List.of(CompareOp.EQUAL, CompareOp.EQUAL, CompareOp.NOT_EQUAL, CompareOp.LESS,
              CompareOp.LESS_OR_EQUAL, CompareOp.GREATER, CompareOp.GREATER_OR_EQUAL));
      int v = rnd.nextInt(10);
      byte[] value = v < 3 ? null : v == 3 ? new byte[0] : pick(VALUES);
      return new ModelStep.CheckAndMutate(now, family(), pick(QUALIFIERS), cmp, value, mutation(row));
    }
    return op < 98 ? new ModelStep.Purge(now, true) : new ModelStep.Reopen(now);
  }

  /** One to three cells: puts only, deletes only, or both, often on the same column. */
  private RowMutation mutation(byte[] row) {
    RowMutation.Builder b = RowMutation.of(row);
    int kind = rnd.nextInt(20);
    int n = 1 + rnd.nextInt(3);
    byte[] family = family();
    byte[] qualifier = pick(QUALIFIERS);
    for (int i = 0; i < n; i++) {
      if (i > 0 && rnd.nextInt(10) >= 4) {
        family = family();
        qualifier = pick(QUALIFIERS);
      }
      boolean put = kind < 12 || (kind >= 17 && rnd.nextBoolean());
      if (put) {
        b.put(family, qualifier, timestamp(), pick(VALUES));
        remember(row, family, qualifier);
        continue;
      }
      switch (rnd.nextInt(8)) {
        case 0, 1, 2 -> b.deleteVersion(family, qualifier, rnd.nextBoolean() ? RowMutation.LATEST : timestamp());
        case 3, 4 -> b.deleteColumn(family, qualifier, rnd.nextBoolean() ? timestamp() : Math.max(0, now - 3 - rnd.nextInt(5)));
        case 5 -> b.deleteFamily(family, rnd.nextBoolean() ? timestamp() : rnd.nextInt(4));
        case 6 -> b.deleteFamilyVersion(family, timestamp());
        default -> b.deleteVersion(family, qualifier, RowMutation.LATEST).deleteVersion(family, qualifier, RowMutation.LATEST);
      }
    }
    return b.build();
  }

  /**
   * Two to six rows' mutations, usually in key order from a random row on, neighbours or with gaps (a buffered
   * client's sequential puts), sometimes a row twice in a row, sometimes in any order.
   */
  private List<RowMutation> batch() {
    List<RowMutation> out = new ArrayList<>();
    int n = 2 + rnd.nextInt(5);
    boolean ordered = rnd.nextInt(4) != 0;
    int at = rnd.nextInt(ROWS.size());
    for (int i = 0; i < n; i++) {
      if (!ordered) {
        at = rnd.nextInt(ROWS.size());
      } else if (i > 0 && rnd.nextInt(6) != 0) {
        at += rnd.nextInt(3) == 0 ? 2 : 1;
      }
      if (at >= ROWS.size()) {
        break;
      }
      out.add(mutation(ROWS.get(at)));
    }
    return out;
  }

  private void remember(byte[] row, byte[] family, byte[] qualifier) {
    lastRow = row;
    lastFamily = family;
    lastQualifier = qualifier;
  }

  /** LATEST, a very old timestamp, one at or a little before now, or one slightly in the future. */
  private long timestamp() {
    int r = rnd.nextInt(12);
    if (r < 4) {
      return RowMutation.LATEST;
    }
    if (r < 5) {
      return rnd.nextInt(4);
    }
    if (r < 10) {
      return Math.max(0, now - rnd.nextInt(6));
    }
    return now + 1 + rnd.nextInt(3);
  }

  /** One or two distinct columns, the first often the one last written (when on the same row). */
  private List<ReferenceModel.Change> changes(byte[] row, boolean append) {
    List<ReferenceModel.Change> out = new ArrayList<>();
    int n = 1 + rnd.nextInt(2);
    boolean again = Arrays.equals(row, lastRow) && rnd.nextBoolean();
    while (out.size() < n) {
      byte[] f = again && out.isEmpty() ? lastFamily : family();
      byte[] q = again && out.isEmpty() ? lastQualifier : pick(QUALIFIERS);
      if (out.stream().anyMatch(c -> Arrays.equals(c.family(), f) && Arrays.equals(c.qualifier(), q))) {
        continue;
      }
      byte[] suffix = rnd.nextInt(6) == 0 ? new byte[0] : new byte[] {'s', (byte) ('0' + rnd.nextInt(10))};
      out.add(new ReferenceModel.Change(f, q, rnd.nextInt(7) - 3, append ? suffix : null));
    }
    remember(row, out.get(0).family(), out.get(0).qualifier());
    return out;
  }

  private ModelStep scan() {
    List<byte[]> bounds = new ArrayList<>(ROWS);
    bounds.addAll(OTHER_BOUNDS);
    byte[] start = rnd.nextInt(4) == 0 ? new byte[0] : pick(bounds);
    byte[] stop = rnd.nextInt(4) == 0 ? new byte[0] : pick(bounds);
    int limit = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(3) : 0;
    int batch = rnd.nextInt(3) == 0 ? 1 + rnd.nextInt(3) : 0;
    ReferenceModel.Scan s = new ReferenceModel.Scan(start, rnd.nextBoolean(), stop, rnd.nextBoolean(), rnd.nextInt(5) < 2,
        limit, batch, query());
    long maxBytes = rnd.nextInt(4) == 0 ? rnd.nextInt(60) : Long.MAX_VALUE;
    return new ModelStep.Scan(now, s, 1 + rnd.nextInt(3), 1 + rnd.nextInt(3), maxBytes);
  }

  private ReferenceModel.Query query() {
    List<ReferenceModel.Col> columns = new ArrayList<>();
    if (rnd.nextInt(5) < 2) {
      int n = 1 + rnd.nextInt(3);
      for (int i = 0; i < n; i++) {
        columns.add(new ReferenceModel.Col(family(), rnd.nextInt(5) == 0 ? null : pick(QUALIFIERS)));
      }
    }
    long[] range = range();
    byte[] override = null;
    long[] other = {0, 0};
    if (rnd.nextInt(7) == 0) {
      override = family();
      other = range();
    }
    int versions = rnd.nextInt(10) == 0 ? Integer.MAX_VALUE : 1 + rnd.nextInt(4);
    int limit = -1;
    int offset = 0;
    if (rnd.nextInt(10) == 0) {
      limit = rnd.nextInt(4) == 0 ? -1 : rnd.nextInt(4);
      if (limit == 0 && avoidKnownBugs) {
        limit = 1; // ModelRegressionTest#perFamilyLimitZeroReturnsNothing
      }
      offset = rnd.nextInt(3);
    }
    return new ReferenceModel.Query(columns, range[0], range[1], override, other[0], other[1], versions, limit, offset);
  }

  /** All time, one timestamp, everything below or from a timestamp, or a window (sometimes empty). */
  private long[] range() {
    long t = rnd.nextInt(4) == 0 ? rnd.nextInt(5) : Math.max(0, now + 2 - rnd.nextInt(15));
    return switch (rnd.nextInt(7)) {
      case 0, 1 -> new long[] {0, Long.MAX_VALUE};
      case 2 -> new long[] {t, t + 1};
      case 3 -> new long[] {0, t};
      case 4 -> new long[] {t, Long.MAX_VALUE};
      default -> new long[] {t, t + rnd.nextInt(7)};
    };
  }

  private byte[] family() {
    return family(FAMILY_NAMES[rnd.nextInt(FAMILY_NAMES.length)]);
  }

  private static byte[] family(String name) {
    return name.getBytes(StandardCharsets.UTF_8);
  }

  private <T> T pick(List<T> options) {
    return options.get(rnd.nextInt(options.size()));
  }
}
