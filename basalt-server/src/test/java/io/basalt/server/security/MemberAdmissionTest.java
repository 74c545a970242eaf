package io.basalt.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.PipedInputStream;
import java.io.PipedOutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The incremental accepting side against the blocking connecting side: the same secret is admitted even
 * when bytes arrive one at a time (and what follows the proof is left for the protocol); another secret,
 * or a connection that does not open with the handshake, is refused.
 */
class MemberAdmissionTest {
  private static final ClusterSecret OURS = ClusterSecret.of(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
      15, 16});
  private static final ClusterSecret THEIRS = ClusterSecret.of(new byte[16]);

  @Test
  void admitsTheSameSecretByteByByteAndLeavesWhatFollows() throws Exception {
    assertThat(run(OURS, OURS, true)).isTrue();
  }

  @Test
  void refusesAnotherSecretOnBothSides() {
    assertThatThrownBy(() -> run(OURS, THEIRS, false)).hasStackTraceContaining("does not hold this cluster's secret");
  }

  @Test
  void refusesAConnectionThatIsNotAHandshake() {
    MemberAdmission a = new MemberAdmission(OURS);
    ByteBuffer preamble = ByteBuffer.wrap(new byte[64]);
    preamble.put(0, new byte[] {'H', 'B', 'a', 's', 0, 0x50});
    assertThatThrownBy(() -> a.consume(preamble)).isInstanceOf(IOException.class);
    assertThat(a.admitted()).isFalse();
  }

  /** A connecting side with {@code client}'s secret against an admission with {@code server}'s. */
  private static boolean run(ClusterSecret client, ClusterSecret server, boolean expectAdmitted) throws Exception {
    PipedOutputStream toServer = new PipedOutputStream();
    PipedInputStream serverIn = new PipedInputStream(toServer, 4096);
    PipedOutputStream toClient = new PipedOutputStream();
    PipedInputStream clientIn = new PipedInputStream(toClient, 4096);
    CompletableFuture<Void> connecting = CompletableFuture.runAsync(() -> {
      try {
        DataOutputStream out = new DataOutputStream(toServer);
        MemberHandshake.prove(new DataInputStream(clientIn), out, client, "test server");
        out.write(new byte[] {'H', 'B', 'a', 's'}); // the protocol that follows
        out.flush();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      } finally {
        try {
          toServer.close();
        } catch (IOException ignored) {
          // test pipe
        }
      }
    });
    MemberAdmission admission = new MemberAdmission(server);
    ByteBuffer pending = ByteBuffer.allocate(512);
    int b;
    try {
      while (!admission.admitted() && (b = serverIn.read()) >= 0) {
        pending.put((byte) b).flip();
        ByteBuffer reply = admission.consume(pending);
        pending.compact();
        byte[] r = new byte[reply.remaining()];
        reply.get(r);
        toClient.write(r);
        toClient.flush();
      }
    } catch (IOException refused) {
      toClient.close();
    }
    connecting.join();
    byte[] rest = serverIn.readAllBytes();
    pending.flip();
    byte[] left = new byte[pending.remaining() + rest.length];
    pending.get(left, 0, pending.remaining());
    System.arraycopy(rest, 0, left, left.length - rest.length, rest.length);
    assertThat(new ByteArrayInputStream(left).readAllBytes()).isEqualTo(new byte[] {'H', 'B', 'a', 's'});
    assertThat(admission.admitted()).isEqualTo(expectAdmitted);
    return admission.admitted();
  }
}
