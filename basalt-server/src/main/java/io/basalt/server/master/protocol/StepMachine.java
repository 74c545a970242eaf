package io.basalt.server.master.protocol;

import java.util.Optional;

/**
 * What split, move and member change share: one outstanding action per stage, checked when it is reported, and the
 * outcome. Subclasses map each stage to its action and decide where success and failure lead.
 */
abstract class StepMachine<S extends Enum<S>> {
  /** The current stage, or null once done. */
  private S stage;
  private Action pending;
  private Outcome outcome;

  StepMachine(S first) {
    this.stage = first;
  }

  /** The action of a stage, built from the machine's state. */
  abstract Action actionFor(S stage);

  /** Whether {@code result} is what the stage's action returns. */
  abstract boolean accepts(S stage, Result result);

  /** Moves on after the stage's action was done. */
  abstract void onCompleted(S stage, Result result);

  /** Moves on after the stage's action failed: roll back, end, or stay (retry). */
  abstract void onFailed(S stage, String reason);

  final S stage() {
    return stage;
  }

  final void goTo(S next) {
    stage = next;
    pending = null;
  }

  final void finish(Outcome how) {
    stage = null;
    pending = null;
    outcome = how;
  }

  public final Optional<Action> next() {
    if (stage == null) {
      return Optional.empty();
    }
    if (pending == null) {
      pending = actionFor(stage);
    }
    return Optional.of(pending);
  }

  public final void completed(Action action, Result result) {
    S at = outstanding(action);
    if (result == null || !accepts(at, result)) {
      throw new IllegalArgumentException(action + " cannot return " + result);
    }
    pending = null;
    onCompleted(at, result);
  }

  public final void failed(Action action, String reason) {
    S at = outstanding(action);
    pending = null;
    onFailed(at, action.getClass().getSimpleName() + " on " + action.site() + " failed: " + reason);
  }

  public final boolean isDone() {
    return stage == null;
  }

  public final Optional<Outcome> outcome() {
    return Optional.ofNullable(outcome);
  }

  private S outstanding(Action action) {
    if (stage == null || pending == null || action != pending) {
      throw new IllegalStateException(action + " is not the outstanding action (" + pending + ")");
    }
    return stage;
  }
}
