package io.basalt.storage.mutation;

import io.basalt.storage.cell.Cell;
import java.util.List;

/**
 * What an atomic row update did: whether it was applied (its condition held) and the new cells of its
 * increments and appends that asked for results, in family/qualifier order.
 */
public record RowOutcome(boolean applied, List<Cell> results) {
  public static final RowOutcome NOT_APPLIED = new RowOutcome(false, List.of());
}
