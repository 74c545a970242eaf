package io.basalt.server.security;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Mutual challenge-response proving that both ends of an internal connection hold the {@link ClusterSecret},
 * run by the connecting side before anything else it sends. The secret never travels, each side's fresh
 * nonce makes every proof single-use, and the server proves itself first so a member never talks to an
 * impostor. It authenticates the connection's start only: without TLS, traffic after it is neither
 * encrypted nor integrity-protected (as SASL auth without a QOP).
 *
 * <pre>
 *   client: "BMem"  byte version (1)  byte[32] client nonce
 *   server: byte 0  byte[32] server nonce  byte[32] HMAC(secret, "server", client nonce, server nonce)
 *           (or byte 1, uint16 length, UTF-8 message: refused before the handshake, e.g. too busy)
 *   client: byte[32] HMAC(secret, "client", server nonce, client nonce)
 *   server: byte 0 (accepted); on a wrong proof it closes the connection instead
 * </pre>
 */
public final class MemberHandshake {
  /** First bytes of a member connection; no HBase preamble ("HBas", "Regist") or TLS record starts so. */
  public static final byte[] MAGIC = {'B', 'M', 'e', 'm'};
  static final int VERSION = 1;
  static final int NONCE_BYTES = 32;
  static final int PROOF_BYTES = 32;
  static final byte ACCEPTED = 0;
  static final int CONTINUE = 0;
  /** The same bytes as the segment protocol's error reply. */
  static final int REFUSED = 1;
  private static final byte[] SERVER = "server".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] CLIENT = "client".getBytes(StandardCharsets.US_ASCII);

  private MemberHandshake() {}

  /**
   * The connecting side: proves membership to the server at the other end of the streams and checks the
   * server's proof. A server with another secret is an {@link IOException} naming where ours came from.
   */
  public static void prove(DataInputStream in, DataOutputStream out, ClusterSecret secret, String peer)
      throws IOException {
    byte[] clientNonce = ClusterSecret.nonce();
    out.write(MAGIC);
    out.write(VERSION);
    out.write(clientNonce);
    out.flush();
    byte[] serverNonce = new byte[NONCE_BYTES];
    byte[] serverProof = new byte[PROOF_BYTES];
    try {
      int status = in.readUnsignedByte();
      if (status == REFUSED) {
        byte[] message = new byte[in.readUnsignedShort()];
        in.readFully(message);
        throw new Refused(new String(message, StandardCharsets.UTF_8));
      }
      if (status != CONTINUE) {
        throw new IOException(peer + " answered the cluster member handshake with " + status
            + " (not a Basalt server of this version?)");
      }
      in.readFully(serverNonce);
      in.readFully(serverProof);
    } catch (java.io.EOFException e) {
      throw new IOException(peer + " closed the connection during the cluster member handshake (not a Basalt "
          + "server of this version?)");
    }
    if (!secret.verify(serverProof(secret, clientNonce, serverNonce), serverProof)) {
      throw new IOException(peer + " does not hold this cluster's secret (ours is from " + secret.source()
          + "): every master and region server needs the same basalt.cluster.secret.file");
    }
    out.write(clientProof(secret, serverNonce, clientNonce));
    out.flush();
    int verdict = in.read();
    if (verdict != ACCEPTED) {
      throw new IOException(peer + " refused our cluster member proof");
    }
  }

  /**
   * The accepting side, after it read {@link #MAGIC}: true once the peer proved membership (the accepted
   * byte is then sent); false if it did not (nothing more is sent: close the connection).
   */
  public static boolean accept(DataInputStream in, DataOutputStream out, ClusterSecret secret) throws IOException {
    int version = in.readUnsignedByte();
    byte[] clientNonce = new byte[NONCE_BYTES];
    in.readFully(clientNonce);
    if (version != VERSION) {
      return false;
    }
    byte[] serverNonce = ClusterSecret.nonce();
    out.write(CONTINUE);
    out.write(serverNonce);
    out.write(serverProof(secret, clientNonce, serverNonce));
    out.flush();
    byte[] proof = new byte[PROOF_BYTES];
    in.readFully(proof);
    if (!secret.verify(clientProof(secret, serverNonce, clientNonce), proof)) {
      return false;
    }
    out.write(ACCEPTED);
    out.flush();
    return true;
  }

  /** The server turned the connection away before the handshake (too busy, say); its reason is the message. */
  public static final class Refused extends IOException {
    Refused(String message) {
      super(message);
    }
  }

  static byte[] serverProof(ClusterSecret secret, byte[] clientNonce, byte[] serverNonce) {
    return secret.mac(SERVER, clientNonce, serverNonce);
  }

  static byte[] clientProof(ClusterSecret secret, byte[] serverNonce, byte[] clientNonce) {
    return secret.mac(CLIENT, serverNonce, clientNonce);
  }
}
