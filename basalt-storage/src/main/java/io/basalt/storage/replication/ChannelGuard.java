package io.basalt.storage.replication;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * Decides who may open a replication connection (the members' replication ports accept TCP from anyone):
 * the connecting side proves something before its first replication byte, the accepting side checks it.
 * The server supplies it (cluster membership); storage only runs it.
 */
public interface ChannelGuard {
  /** The connecting side, on a connected blocking channel, before anything else is sent. */
  void prove(SocketChannel channel) throws IOException;

  /** The accepting side of one new connection. */
  Admission admit();

  /** An accepting side fed the bytes as they arrive (the accepting channel is non-blocking). */
  interface Admission {
    /**
     * Consumes what it needs of {@code in} (bytes past the proof stay there) and returns the bytes to send
     * back, possibly none. Throws once the peer has failed to prove itself.
     */
    ByteBuffer consume(ByteBuffer in) throws IOException;

    /** True once the peer has proven itself. */
    boolean admitted();
  }
}
