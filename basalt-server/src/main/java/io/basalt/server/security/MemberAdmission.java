package io.basalt.server.security;

import io.basalt.storage.replication.ChannelGuard;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The accepting side of {@link MemberHandshake} as a state machine fed bytes as they arrive, for channels
 * that must not block (JE's replication dispatcher). Refuses anything that does not open with the magic.
 */
final class MemberAdmission implements ChannelGuard.Admission {
  private static final int HELLO_BYTES = MemberHandshake.MAGIC.length + 1 + MemberHandshake.NONCE_BYTES;
  private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

  private final ClusterSecret secret;
  private byte[] clientNonce;
  private byte[] serverNonce;
  private boolean admitted;

  MemberAdmission(ClusterSecret secret) {
    this.secret = secret;
  }

  @Override
  public ByteBuffer consume(ByteBuffer in) throws IOException {
    if (admitted) {
      return NOTHING;
    }
    if (clientNonce == null) {
      if (in.remaining() < HELLO_BYTES) {
        return NOTHING;
      }
      byte[] magic = new byte[MemberHandshake.MAGIC.length];
      in.get(magic);
      int version = in.get() & 0xFF;
      if (!Arrays.equals(magic, MemberHandshake.MAGIC) || version != MemberHandshake.VERSION) {
        throw new IOException("the connection did not open with the cluster member handshake");
      }
      clientNonce = new byte[MemberHandshake.NONCE_BYTES];
      in.get(clientNonce);
      serverNonce = ClusterSecret.nonce();
      byte[] proof = MemberHandshake.serverProof(secret, clientNonce, serverNonce);
      return ByteBuffer.allocate(1 + serverNonce.length + proof.length).put((byte) MemberHandshake.CONTINUE)
          .put(serverNonce).put(proof).flip();
    }
    if (in.remaining() < MemberHandshake.PROOF_BYTES) {
      return NOTHING;
    }
    byte[] proof = new byte[MemberHandshake.PROOF_BYTES];
    in.get(proof);
    if (!secret.verify(MemberHandshake.clientProof(secret, serverNonce, clientNonce), proof)) {
      throw new IOException("a wrong cluster member proof (another cluster's secret?)");
    }
    admitted = true;
    return ByteBuffer.wrap(new byte[] {MemberHandshake.ACCEPTED});
  }

  @Override
  public boolean admitted() {
    return admitted;
  }
}
