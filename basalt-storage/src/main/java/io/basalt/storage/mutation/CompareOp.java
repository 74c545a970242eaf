package io.basalt.storage.mutation;

/** HBase's {@code CompareOperator}, applied as {@code operand OP stored} (the caller's value on the left). */
public enum CompareOp {
  LESS, LESS_OR_EQUAL, EQUAL, NOT_EQUAL, GREATER_OR_EQUAL, GREATER, NO_OP;

  /** @param cmp the result of comparing the operand to the stored value */
  public boolean holds(int cmp) {
    return switch (this) {
      case LESS -> cmp < 0;
      case LESS_OR_EQUAL -> cmp <= 0;
      case EQUAL -> cmp == 0;
      case NOT_EQUAL -> cmp != 0;
      case GREATER_OR_EQUAL -> cmp >= 0;
      case GREATER -> cmp > 0;
      case NO_OP -> false;
    };
  }
}
