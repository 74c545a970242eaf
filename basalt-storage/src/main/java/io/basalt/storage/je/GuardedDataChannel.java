package io.basalt.storage.je;

import com.sleepycat.je.rep.net.DataChannel;
import com.sleepycat.je.rep.utilint.net.AbstractDataChannel;
import io.basalt.storage.replication.ChannelGuard;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A JE replication channel (plain or JE's own TLS channel underneath) whose accepting side reads nothing
 * for JE until its {@link ChannelGuard.Admission} has admitted the peer over the inner channel, so with TLS
 * the proof travels encrypted. It is "trust capable", so JE's service dispatcher refuses the connection
 * unless {@link #isTrusted()}: admitted, and trusted by the inner channel too when that can judge (the TLS
 * channel's authenticator: the peer's certificate). The connecting side was proven in
 * {@link GuardedChannelFactory#connect} before this object existed.
 */
final class GuardedDataChannel extends AbstractDataChannel {
  private static final int MAX_HANDSHAKE_BYTES = 512;
  private static final int MAX_FLUSH_TRIES = 1000;

  private final DataChannel inner;
  private final ChannelGuard.Admission admission;
  private final ByteBuffer handshake;
  private ByteBuffer leftover;
  private volatile boolean admitted;

  /** {@code admission} null: the connecting side, already proven. */
  GuardedDataChannel(DataChannel inner, ChannelGuard.Admission admission) {
    super(inner.getSocketChannel());
    this.inner = inner;
    this.admission = admission;
    this.handshake = admission == null ? null : ByteBuffer.allocate(MAX_HANDSHAKE_BYTES);
    this.admitted = admission == null;
  }

  @Override
  public synchronized int read(ByteBuffer dst) throws IOException {
    while (!admitted) {
      int progress = advance();
      if (progress < 0) {
        return -1;
      }
      if (!admitted && (progress == 0 || !inner.isBlocking())) {
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
    return inner.read(dst);
  }

  @Override
  public long read(ByteBuffer[] dsts) throws IOException {
    return read(dsts, 0, dsts.length);
  }

  @Override
  public synchronized long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
    if (admitted && (leftover == null || !leftover.hasRemaining())) {
      return inner.read(dsts, offset, length);
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
    int n = inner.read(handshake);
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
      admitted = true;
    }
    return n;
  }

  private void writeFully(ByteBuffer reply) throws IOException {
    // A few dozen bytes on a fresh connection: the socket buffer takes them at once. A TLS channel may hold
    // them in its own buffer until flushed.
    for (int tries = 0; ; tries++) {
      if (reply.hasRemaining()) {
        inner.write(reply);
      }
      FlushStatus flushed = inner.flush();
      if (!reply.hasRemaining() && flushed != FlushStatus.AGAIN && flushed != FlushStatus.SO_WAIT_WRITE) {
        return;
      }
      if (tries > MAX_FLUSH_TRIES) {
        throw new IOException("cannot send the replication handshake to " + socketChannel.getRemoteAddress());
      }
      Thread.onSpinWait();
    }
  }

  @Override
  public synchronized void configureBlocking(boolean block) throws IOException {
    inner.configureBlocking(block);
  }

  @Override
  public synchronized boolean isBlocking() {
    return inner.isBlocking();
  }

  @Override
  public int write(ByteBuffer src) throws IOException {
    return inner.write(src);
  }

  @Override
  public long write(ByteBuffer[] srcs) throws IOException {
    return inner.write(srcs);
  }

  @Override
  public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
    return inner.write(srcs, offset, length);
  }

  @Override
  public FlushStatus flush() throws IOException {
    return inner.flush();
  }

  @Override
  public void close() throws IOException {
    inner.close();
  }

  @Override
  public CloseAsyncStatus closeAsync() throws IOException {
    return inner.closeAsync();
  }

  @Override
  public void closeForcefully() throws IOException {
    inner.closeForcefully();
  }

  @Override
  public boolean isOpen() {
    return inner.isOpen();
  }

  @Override
  public boolean isSecure() {
    return inner.isSecure();
  }

  @Override
  public boolean isTrustCapable() {
    return true;
  }

  @Override
  public boolean isTrusted() {
    return admitted && (!inner.isTrustCapable() || inner.isTrusted());
  }
}
