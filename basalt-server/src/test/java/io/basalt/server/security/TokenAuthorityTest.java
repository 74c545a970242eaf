package io.basalt.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.basalt.server.zk.EmbeddedZooKeeper;
import io.basalt.server.zk.ZooKeeperClients;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.curator.framework.CuratorFramework;
import org.apache.hadoop.hbase.security.token.AuthenticationTokenIdentifier;
import org.apache.hadoop.security.token.SecretManager.InvalidToken;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Tokens issued by one server and checked by another through the keys they share in ZooKeeper. */
@Timeout(60)
class TokenAuthorityTest {
  private static final String DIR = "/basalt/tokenauth/keys";
  private static final long INTERVAL = 60_000;
  private static final long LIFETIME = 300_000;
  private static final ClusterSecret SECRET = ClusterSecret.of(new byte[32]);

  @TempDir Path dir;
  private EmbeddedZooKeeper zooKeeper;
  private CuratorFramework zkA;
  private CuratorFramework zkB;
  private final AtomicLong clock = new AtomicLong(1_000_000_000_000L);

  @BeforeEach
  void start() throws Exception {
    zooKeeper = new EmbeddedZooKeeper(new InetSocketAddress("127.0.0.1", 0), dir);
    zkA = ZooKeeperClients.connect(zooKeeper.connectString(), 10_000);
    zkB = ZooKeeperClients.connect(zooKeeper.connectString(), 10_000);
  }

  @AfterEach
  void stop() {
    zkB.close();
    zkA.close();
    zooKeeper.close();
  }

  private TokenAuthority authority(CuratorFramework zk, ClusterSecret secret) {
    return new TokenAuthority(new TokenKeys(zk, DIR, secret, INTERVAL, LIFETIME, clock::get), () -> "cluster-1", clock::get);
  }

  private static AuthenticationTokenIdentifier parse(byte[] identifier) throws Exception {
    AuthenticationTokenIdentifier id = new AuthenticationTokenIdentifier();
    id.readFields(new DataInputStream(new ByteArrayInputStream(identifier)));
    return id;
  }

  @Test
  void aTokenIssuedByOneServerIsCheckedByAnother() throws Exception {
    TokenAuthority a = authority(zkA, SECRET);
    TokenAuthority b = authority(zkB, SECRET);
    TokenAuthority.Token t = a.issue("alice@EXAMPLE.COM");
    assertThat(t.service()).isEqualTo("cluster-1");
    AuthenticationTokenIdentifier id = parse(t.identifier());
    assertThat(id.getUsername()).isEqualTo("alice@EXAMPLE.COM");
    assertThat(id.getExpirationDate() - id.getIssueDate()).isEqualTo(LIFETIME);
    assertThat(b.password(t.identifier())).isEqualTo(t.password());
    assertThat(TokenAuthority.owner(t.identifier())).isEqualTo("alice@EXAMPLE.COM");
  }

  @Test
  void keysRollAfterTheIntervalAndOldTokensStayValidUntilTheyExpire() throws Exception {
    TokenAuthority a = authority(zkA, SECRET);
    TokenAuthority b = authority(zkB, SECRET);
    TokenAuthority.Token first = a.issue("alice");
    clock.addAndGet(INTERVAL + 1);
    TokenAuthority.Token second = b.issue("bob");
    assertThat(parse(second.identifier()).getKeyId()).isNotEqualTo(parse(first.identifier()).getKeyId());
    assertThat(a.password(second.identifier())).isEqualTo(second.password());
    assertThat(b.password(first.identifier())).isEqualTo(first.password());

    clock.addAndGet(LIFETIME - INTERVAL); // first expired, second not yet
    assertThatThrownBy(() -> b.password(first.identifier())).isInstanceOf(InvalidToken.class).hasMessageContaining("expired");
    assertThat(a.password(second.identifier())).isEqualTo(second.password());
    clock.addAndGet(INTERVAL);
    a.issue("carol"); // refreshes: the first key, past every token it signed, is deleted
    assertThat(zkA.getChildren().forPath(DIR)).hasSize(2);
  }

  @Test
  void forgedOrForeignIdentifiersAreRefused() throws Exception {
    TokenAuthority a = authority(zkA, SECRET);
    TokenAuthority.Token t = a.issue("alice");
    AuthenticationTokenIdentifier id = parse(t.identifier());
    AuthenticationTokenIdentifier otherKey = new AuthenticationTokenIdentifier("alice", id.getKeyId() + 1000,
        id.getIssueDate(), id.getExpirationDate());
    assertThatThrownBy(() -> a.password(otherKey.getBytes())).isInstanceOf(InvalidToken.class)
        .hasMessageContaining("does not hold");
    byte[] hugeLength = ByteBuffer.allocate(8).putInt(Integer.MAX_VALUE).array();
    assertThatThrownBy(() -> a.password(hugeLength)).isInstanceOf(InvalidToken.class);
    assertThatThrownBy(() -> a.password(new byte[] {1, 2})).isInstanceOf(InvalidToken.class);
    // Another identity in a validly framed identifier gets another password: the MAC covers it.
    AuthenticationTokenIdentifier mallory = new AuthenticationTokenIdentifier("mallory", id.getKeyId(),
        id.getIssueDate(), id.getExpirationDate());
    assertThat(a.password(mallory.getBytes())).isNotEqualTo(t.password());
  }

  @Test
  void keysInZooKeeperAreSealedWithTheClusterSecret() throws Exception {
    TokenAuthority a = authority(zkA, SECRET);
    TokenAuthority.Token t = a.issue("alice");
    String child = zkA.getChildren().forPath(DIR).get(0);
    byte[] stored = zkA.getData().forPath(DIR + "/" + child);
    assertThat(new String(stored, java.nio.charset.StandardCharsets.ISO_8859_1)).doesNotContain("alice");
    TokenAuthority stranger = authority(zkB, ClusterSecret.of(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
        14, 15, 16}));
    assertThatThrownBy(() -> stranger.password(t.identifier())).isInstanceOf(InvalidToken.class);
  }
}
