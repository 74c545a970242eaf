package io.basalt.storage.mutation;

/** One part of an atomic row update: puts and deletes, an increment, or an append. */
public sealed interface RowOperation permits RowMutation, Increment, Append {
  byte[] row();
}
