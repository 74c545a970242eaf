package io.basalt.storage.model;

import io.basalt.storage.cell.Cell;
import io.basalt.storage.mutation.CompareOp;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One step of a model-based run, as plain data so a failing run can be replayed and shrunk: the clock
 * reading it runs at and what it does. {@link ModelHarness} applies it to the store and the model.
 */
sealed interface ModelStep {
  /** The clock ("now" for LATEST) while the step runs. */
  long now();

  record Mutate(long now, RowMutation mutation, Durability durability) implements ModelStep {
    @Override
    public String toString() {
      return "@" + now + " mutate " + ModelBytes.show(mutation.row()) + " " + cells(mutation);
    }
  }

  /** Several rows' mutations as one batch (a client's buffered puts), which must read as if applied in order. */
  record MutateBatch(long now, List<RowMutation> mutations, Durability durability) implements ModelStep {
    @Override
    public String toString() {
      return "@" + now + " mutateBatch " + mutations.stream()
          .map(m -> ModelBytes.show(m.row()) + " " + cells(m)).collect(Collectors.joining("; ", "[", "]"));
    }
  }

  /** checkAndMutate with a column condition over all time. */
  record CheckAndMutate(long now, byte[] family, byte[] qualifier, CompareOp op, byte[] value, RowMutation mutation)
      implements ModelStep {
    @Override
    public String toString() {
      return "@" + now + " checkAndMutate " + ModelBytes.show(mutation.row()) + " if " + ModelBytes.show(value) + " " + op
          + " " + ModelBytes.show(family) + ":" + ModelBytes.show(qualifier) + " then " + cells(mutation);
    }
  }

  /** An increment (changes carry deltas) or an append (changes carry suffixes) of distinct columns. */
  record ReadModifyWrite(long now, byte[] row, List<ReferenceModel.Change> changes, boolean append, boolean returnResults)
      implements ModelStep {
    @Override
    public String toString() {
      return "@" + now + (append ? " append " : " increment ") + ModelBytes.show(row) + " "
          + changes.stream().map(c -> ModelBytes.show(c.family()) + ":" + ModelBytes.show(c.qualifier())
              + (append ? "+=" + ModelBytes.show(c.suffix()) : "+=" + c.delta())).collect(Collectors.joining(", "))
          + (returnResults ? "" : " (no results)");
    }
  }

  record Get(long now, byte[] row, ReferenceModel.Query query) implements ModelStep {
    @Override
    public String toString() {
      return "@" + now + " get " + ModelBytes.show(row) + " " + query;
    }
  }

  /** A scan drained with {@code firstCall} results on the first next() and {@code laterCalls} after. */
  record Scan(long now, ReferenceModel.Scan scan, int firstCall, int laterCalls, long maxBytes) implements ModelStep {
    @Override
    public String toString() {
      return "@" + now + " scan " + scan + " (next " + firstCall + "/" + laterCalls + ", "
          + (maxBytes == Long.MAX_VALUE ? "any" : maxBytes) + " bytes)";
    }
  }

  /**
   * Background maintenance (purge). A thorough one compares many reads of every row before and after; every
   * step is followed by a full read of each row anyway.
   */
  record Purge(long now, boolean thorough) implements ModelStep {
    @Override
    public String toString() {
      return "@" + now + " maintain" + (thorough ? " (thorough)" : "");
    }
  }

  /** Close and reopen the region, checking every read answer stays the same. */
  record Reopen(long now) implements ModelStep {
    @Override
    public String toString() {
      return "@" + now + " reopen";
    }
  }

  private static String cells(RowMutation m) {
    return m.cells().stream().map(ModelStep::cell).collect(Collectors.joining(", ", "[", "]"));
  }

  private static String cell(Cell c) {
    String ts = c.timestamp() == RowMutation.LATEST ? "LATEST" : Long.toString(c.timestamp());
    String where = ModelBytes.show(c.family()) + (c.type().isFamilyMarker() ? "" : ":" + ModelBytes.show(c.qualifier()));
    return switch (c.type()) {
      case PUT -> "put " + where + "@" + ts + "=" + ModelBytes.show(c.value());
      case DELETE -> "deleteVersion " + where + "@" + ts;
      case DELETE_COLUMN -> "deleteColumn " + where + "@" + ts;
      case DELETE_FAMILY -> "deleteFamily " + where + "@" + ts;
      case DELETE_FAMILY_VERSION -> "deleteFamilyVersion " + where + "@" + ts;
    };
  }
}
