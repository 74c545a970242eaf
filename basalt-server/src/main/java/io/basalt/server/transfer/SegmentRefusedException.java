package io.basalt.server.transfer;

import java.io.IOException;

/**
 * The segment server answered a request with an error (segment not exported, changed since its export,
 * invalid request): retrying the same request will not help, unlike a broken or stalled stream.
 */
public final class SegmentRefusedException extends IOException {
  public SegmentRefusedException(String message) {
    super(message);
  }
}
