package io.basalt.storage.je;

import com.sleepycat.je.rep.utilint.net.SimpleDataChannel;
import io.basalt.storage.replication.ChannelGuard;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * A JE replication channel whose accepting side reads nothing for JE until its {@link ChannelGuard.Admission}
 * has admitted the peer. It is "trust capable", so JE's service dispatcher refuses the connection unless
 * {@link #isTrusted()} (its own check for SSL authenticators). The connecting side was proven in
 * {@link GuardedChannelFactory#connect} before this object existed.
 */
final class GuardedDataChannel extends SimpleDataChannel {
  private static final int MAX_HANDSHAKE_BYTES = 512;

  private final ChannelGuard.Admission admission;
  private final ByteBuffer handshake;
  private ByteBuffer leftover;
  private volatile boolean trusted;

  /** {@code admission} null: the connecting side, already proven. */
  GuardedDataChannel(SocketChannel channel, ChannelGuard.Admission admission) {
    super(channel);
    this.admission = admission;
    this.handshake = admission == null ? null : ByteBuffer.allocate(MAX_HANDSHAKE_BYTES);
    this.trusted = admission == null;
  }

  @Override
  public synchronized int read(ByteBuffer dst) throws IOException {
    while (!trusted) {
      int progress = advance();
      if (progress < 0) {
        return -1;
      }
      if (!trusted && (progress == 0 || !socketChannel.isBlocking())) {
        return 0; // non-blocking: JE's selector calls again when more arrives
      }
    }
    if (leftover != null && leftover.hasRemaining()) {
      int n = Math.min(dst.remaining(), leftover.remaining());
      ByteBuffer slice = leftover.slice();
      slice.limit(n);
      dst.put(slice);
      leftover.position(leftover.position() + n);
      return n;
    }
    return socketChannel.read(dst);
  }

  @Override
  public long read(ByteBuffer[] dsts) throws IOException {
    return read(dsts, 0, dsts.length);
  }

  @Override
  public synchronized long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
    if (trusted && (leftover == null || !leftover.hasRemaining())) {
      return socketChannel.read(dsts, offset, length);
    }
    for (int i = offset; i < offset + length; i++) {
      if (dsts[i].hasRemaining()) {
        return read(dsts[i]);
      }
    }
    return 0;
  }

  /** Reads and answers handshake bytes; -1 at end of stream, else the bytes read. */
  private int advance() throws IOException {
    if (!handshake.hasRemaining()) {
      throw new IOException("replication handshake from " + socketChannel.getRemoteAddress() + " is too long");
    }
    int n = socketChannel.read(handshake);
    if (n < 0) {
      return -1;
    }
    handshake.flip();
    ByteBuffer reply;
    try {
      reply = admission.consume(handshake);
    } finally {
      handshake.compact();
    }
    writeFully(reply);
    if (admission.admitted()) {
      handshake.flip();
      leftover = handshake; // what the peer sent after its proof is JE's
      trusted = true;
    }
    return n;
  }

  private void writeFully(ByteBuffer reply) throws IOException {
    // A few dozen bytes on a fresh connection: the socket buffer takes them at once.
    for (int tries = 0; reply.hasRemaining(); tries++) {
      if (tries > 1000) {
        throw new IOException("cannot send the replication handshake to " + socketChannel.getRemoteAddress());
      }
      if (socketChannel.write(reply) == 0) {
        Thread.onSpinWait();
      }
    }
  }

  @Override
  public boolean isTrustCapable() {
    return true;
  }

  @Override
  public boolean isTrusted() {
    return trusted;
  }
}
