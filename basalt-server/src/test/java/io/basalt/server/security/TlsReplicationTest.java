package io.basalt.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sleepycat.je.rep.ReplicationNetworkConfig;
import com.sleepycat.je.rep.util.ReplicationGroupAdmin;
import io.basalt.storage.StorageConfig;
import io.basalt.storage.cell.Bytes;
import io.basalt.storage.je.GuardedChannelFactory;
import io.basalt.storage.je.JeStorageEngine;
import io.basalt.storage.mutation.Durability;
import io.basalt.storage.mutation.RowMutation;
import io.basalt.storage.read.ReadOptions;
import io.basalt.storage.replication.GroupMembership;
import io.basalt.storage.replication.ReplicaRole;
import io.basalt.storage.replication.ReplicatedRegion;
import io.basalt.storage.replication.RoleListener;
import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import io.basalt.storage.testing.FreePorts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The composed replication channel factory with TLS: JE's own SSL channel carrying the member handshake.
 * Three engines with member certificates and the cluster secret elect and replicate (a passive tap in front
 * of one member's replication port sees neither the group's node names nor row bytes); JE's group admin reaches the group with a member certificate and
 * the secret, and not in plaintext, not with the secret over a plaintext channel, not with an ordinary
 * client certificate of the same CA plus the secret, not with a member certificate and another secret.
 */
@Timeout(180)
class TlsReplicationTest {
  private static final byte[] F = Bytes.of("f");
  private static final RegionDescriptor DESCRIPTOR = new RegionDescriptor(List.of(FamilySchema.of("f")), KeyRange.ALL);
  /** Node names travel in JE's group service answers (what member 2 asks member 0 through the tap). */
  private static final String NODE = "basalt-replication-member-";
  private static final byte[] VALUE = "a-replicated-plaintext-cell-value-0042".getBytes(StandardCharsets.US_ASCII);

  @TempDir Path dir;
  @TempDir Path pkiDir;
  private final List<JeStorageEngine> engines = new ArrayList<>();
  private final List<ReplicatedRegion> members = new ArrayList<>();
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @AfterEach
  void close() throws Exception {
    members.forEach(m -> {
      try {
        m.close();
      } catch (RuntimeException ignored) {
        // already closed
      }
    });
    engines.forEach(JeStorageEngine::close);
    for (AutoCloseable c : closeables) {
      c.close();
    }
  }

  @Test
  void membersReplicateOverTlsAndOnlyCertifiedSecretHoldersGetIn() throws Exception {
    TestCertificates pki = TestCertificates.create(pkiDir);
    ClusterSecret secret = ClusterSecret.of(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16});
    String rule = TestCertificates.MEMBER_SUBJECT;
    List<MemberChannelGuard> guards = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      guards.add(new MemberChannelGuard(secret, pki.memberTls(pki.memberKeystore("server" + i), rule)));
    }
    int[] ports = FreePorts.take(3);
    byte[] wire = replicateThroughTap(guards, ports);
    // The tap sees what member 2 asked its helper (JE's feeder stream goes to the primary's own port).
    assertThat(indexOf(wire, NODE.getBytes(StandardCharsets.US_ASCII))).as("no group data in clear").isEqualTo(-1);
    assertThat(indexOf(wire, VALUE)).as("no cell value in clear").isEqualTo(-1);

    Set<InetSocketAddress> helpers = Set.of(new InetSocketAddress("127.0.0.1", ports[0]));
    MemberChannelGuard admin = new MemberChannelGuard(secret, pki.memberTls(pkiDir.resolve("server0.p12"), rule));
    assertThat(new ReplicationGroupAdmin("g1", helpers, GuardedChannelFactory.networkConfig(admin)).getGroup()
        .getNodes()).as("a member certificate and the secret").hasSize(3);
    assertThatThrownBy(() -> new ReplicationGroupAdmin("g1", helpers, ReplicationNetworkConfig.createDefault())
        .getGroup()).as("a plain JE connection").isInstanceOf(RuntimeException.class);
    assertThatThrownBy(() -> new ReplicationGroupAdmin("g1", helpers,
        GuardedChannelFactory.networkConfig(new MemberChannelGuard(secret))).getGroup())
        .as("the secret over a plaintext channel").isInstanceOf(RuntimeException.class);
    MemberChannelGuard ordinary = new MemberChannelGuard(secret, pki.memberTls(pki.clientKeystore("alice"), ""));
    assertThatThrownBy(() -> new ReplicationGroupAdmin("g1", helpers, GuardedChannelFactory.networkConfig(ordinary))
        .getGroup()).as("an ordinary client certificate of the CA with the secret").isInstanceOf(RuntimeException.class);
    MemberChannelGuard otherSecret = new MemberChannelGuard(ClusterSecret.of(new byte[16]),
        pki.memberTls(pkiDir.resolve("server1.p12"), rule));
    assertThatThrownBy(() -> new ReplicationGroupAdmin("g1", helpers, GuardedChannelFactory.networkConfig(otherSecret))
        .getGroup()).as("a member certificate with another secret").isInstanceOf(RuntimeException.class);
  }

  @Test
  void withoutTlsTheSameTapSeesTheGroup() throws Exception {
    MemberChannelGuard plain = new MemberChannelGuard(ClusterSecret.of(new byte[] {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9}));
    byte[] wire = replicateThroughTap(List.of(plain, plain, plain), FreePorts.take(3));
    assertThat(indexOf(wire, NODE.getBytes(StandardCharsets.US_ASCII))).as("the tap sees plaintext").isNotEqualTo(-1);
  }

  /** Three members (member 2 joins through a tap in front of member 0), 20 writes everywhere; the tap's bytes. */
  private byte[] replicateThroughTap(List<MemberChannelGuard> guards, int[] ports) throws Exception {
    Tap tap = new Tap(new InetSocketAddress("127.0.0.1", ports[0]));
    closeables.add(tap);
    members.add(engine(guards.get(0)).createGroup(dir.resolve("m0"), DESCRIPTOR, member(ports, 0, -1), RoleListener.NONE));
    members.add(engine(guards.get(1)).joinGroup(dir.resolve("m1"), member(ports, 1, -1), RoleListener.NONE));
    awaitPrimary();
    members.add(engine(guards.get(2)).joinGroup(dir.resolve("m2"), member(ports, 2, tap.port()), RoleListener.NONE));
    ReplicatedRegion primary = awaitPrimary();
    for (int i = 0; i < 20; i++) {
      primary.mutate(RowMutation.of(Bytes.of("row" + i)).put(F, Bytes.of("q"), 1, VALUE).build(), Durability.SYNC_WAL);
    }
    for (ReplicatedRegion m : members) {
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (m.get(Bytes.of("row19"), ReadOptions.DEFAULT).isEmpty()) {
        assertThat(System.nanoTime()).as("the writes reach every member").isLessThan(deadline);
        Thread.sleep(50);
      }
    }
    assertThat(tap.captured().length).as("member 2 talked through the tap").isGreaterThan(100);
    return tap.captured();
  }

  private ReplicatedRegion awaitPrimary() throws InterruptedException {
    for (long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos(); ; Thread.sleep(50)) {
      ReplicatedRegion p = members.stream().filter(m -> m.role() == ReplicaRole.PRIMARY).findFirst().orElse(null);
      if (p != null) {
        return p;
      }
      assertThat(System.nanoTime()).as("a primary is elected over TLS channels").isLessThan(deadline);
    }
  }

  private JeStorageEngine engine(MemberChannelGuard guard) {
    JeStorageEngine e = new JeStorageEngine(StorageConfig.DEFAULT.withCacheBytes(16 << 20).withPurgeIntervalMillis(0));
    e.guardReplication(guard);
    engines.add(e);
    return e;
  }

  /** Member {@code i}; with {@code tapPort} >= 0 its only helper is that port (the tap in front of member 0). */
  private static GroupMembership member(int[] ports, int i, int tapPort) {
    List<String> helpers = new ArrayList<>();
    if (tapPort >= 0) {
      helpers.add("127.0.0.1:" + tapPort);
    } else {
      for (int j = 0; j < ports.length; j++) {
        if (j != i) {
          helpers.add("127.0.0.1:" + ports[j]);
        }
      }
    }
    return new GroupMembership("g1", NODE + i, "127.0.0.1", ports[i], helpers);
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /** A TCP relay in front of a replication port that records what passes. */
  private static final class Tap implements AutoCloseable {
    private final ServerSocket listener = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress());
    private final InetSocketAddress target;
    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private final List<Socket> sockets = new java.util.concurrent.CopyOnWriteArrayList<>();

    Tap(InetSocketAddress target) throws IOException {
      this.target = target;
      Thread t = new Thread(this::acceptLoop, "replication-tap");
      t.setDaemon(true);
      t.start();
    }

    int port() {
      return listener.getLocalPort();
    }

    byte[] captured() {
      synchronized (captured) {
        return captured.toByteArray();
      }
    }

    private void acceptLoop() {
      try {
        while (true) {
          Socket in = listener.accept();
          Socket out = new Socket(target.getAddress(), target.getPort());
          sockets.add(in);
          sockets.add(out);
          relay(in, out);
          relay(out, in);
        }
      } catch (IOException closed) {
        // the test is over
      }
    }

    private void relay(Socket from, Socket to) {
      Thread t = new Thread(() -> {
        byte[] buffer = new byte[65536];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
          for (int n; (n = in.read(buffer)) > 0; ) {
            synchronized (captured) {
              captured.write(buffer, 0, n);
            }
            out.write(buffer, 0, n);
          }
        } catch (IOException ended) {
          // one side closed
        }
      }, "replication-tap-relay");
      t.setDaemon(true);
      t.start();
    }

    @Override
    public void close() throws IOException {
      listener.close();
      for (Socket s : sockets) {
        s.close();
      }
    }
  }
}
