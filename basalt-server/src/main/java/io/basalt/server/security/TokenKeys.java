package io.basalt.server.security;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.LongSupplier;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The keys that sign authentication tokens, shared by every master and region server through ZooKeeper, so a
 * token one server issued is accepted by all. One znode per key ({@code <dir>/key-<sequence>}, the sequence
 * is the key id tokens name), its content encrypted (AES-GCM) under a key derived from the cluster secret:
 * HBase clients may read Basalt's znodes, and must not learn the keys.
 *
 * <p>No leader: a server that needs a key and finds none younger than the update interval adds one (two
 * servers racing add two, both valid). A key is kept until the last token it may have signed expired
 * (created + update interval + token lifetime), then whoever notices deletes it.
 */
public final class TokenKeys {
  private static final Logger LOG = LoggerFactory.getLogger(TokenKeys.class);
  private static final byte VERSION = 1;
  private static final byte[] AAD = "basalt token signing key v1".getBytes(StandardCharsets.US_ASCII);
  private static final int SECRET_BYTES = 32;
  private static final long REFRESH_MILLIS = 10_000;
  private static final long MISS_REFRESH_MILLIS = 1_000;
  private static final SecureRandom RANDOM = new SecureRandom();

  /** A signing key; {@code expires} is when no token it signed can still be valid. */
  public record Key(int id, long created, long expires, byte[] secret) {}

  private final CuratorFramework zk;
  private final String dir;
  private final SecretKeySpec sealing;
  private final long updateIntervalMillis;
  private final long tokenLifetimeMillis;
  private final LongSupplier clock;
  private final Map<Integer, Key> keys = new ConcurrentSkipListMap<>();
  private volatile long lastRefresh;

  public TokenKeys(CuratorFramework zk, String dir, ClusterSecret secret, long updateIntervalMillis,
      long tokenLifetimeMillis, LongSupplier clock) {
    this.zk = zk;
    this.dir = dir;
    this.sealing = new SecretKeySpec(java.util.Arrays.copyOf(secret.mac(AAD), 16), "AES");
    this.updateIntervalMillis = updateIntervalMillis;
    this.tokenLifetimeMillis = tokenLifetimeMillis;
    this.clock = clock;
  }

  public long tokenLifetimeMillis() {
    return tokenLifetimeMillis;
  }

  /** The key to sign with now: the newest one younger than the update interval, added if there is none. */
  public synchronized Key current() throws IOException {
    long now = clock.getAsLong();
    if (now - lastRefresh > REFRESH_MILLIS) {
      refresh();
    }
    Key newest = newest();
    if (newest != null && newest.created() + updateIntervalMillis > now) {
      return newest;
    }
    refresh(); // another server may have just rolled
    newest = newest();
    if (newest != null && newest.created() + updateIntervalMillis > now) {
      return newest;
    }
    return add(now);
  }

  /** The key with this id, or null if it never existed or expired. Unknown ids look in ZooKeeper (rate-limited). */
  public Key byId(int id) throws IOException {
    Key k = keys.get(id);
    if (k == null) {
      synchronized (this) {
        if (clock.getAsLong() - lastRefresh > MISS_REFRESH_MILLIS) {
          refresh();
        }
        k = keys.get(id);
      }
    }
    return k == null || k.expires() <= clock.getAsLong() ? null : k;
  }

  private Key newest() {
    Key newest = null;
    for (Key k : keys.values()) {
      if (newest == null || k.created() > newest.created()) {
        newest = k;
      }
    }
    return newest;
  }

  private Key add(long now) throws IOException {
    byte[] secret = new byte[SECRET_BYTES];
    RANDOM.nextBytes(secret);
    long expires = now + updateIntervalMillis + tokenLifetimeMillis;
    try {
      String path = zk.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT_SEQUENTIAL)
          .forPath(dir + "/key-", seal(now, expires, secret));
      Key k = new Key(idOf(path.substring(path.lastIndexOf('/') + 1)), now, expires, secret);
      keys.put(k.id(), k);
      LOG.info("added token signing key {} (expires {})", k.id(), java.time.Instant.ofEpochMilli(expires));
      return k;
    } catch (Exception e) {
      throw new IOException("cannot store a token signing key in ZooKeeper under " + dir + ": " + e.getMessage(), e);
    }
  }

  /** Reads the key znodes: loads new keys, forgets gone ones, deletes expired ones. */
  private void refresh() throws IOException {
    long now = clock.getAsLong();
    List<String> children;
    try {
      children = zk.getChildren().forPath(dir);
    } catch (KeeperException.NoNodeException e) {
      children = List.of();
    } catch (Exception e) {
      throw new IOException("cannot read the token signing keys in ZooKeeper under " + dir + ": " + e.getMessage(), e);
    }
    java.util.Set<Integer> present = new java.util.HashSet<>();
    for (String child : children) {
      int id;
      try {
        id = idOf(child);
      } catch (NumberFormatException e) {
        continue; // not one of ours
      }
      present.add(id);
      Key k = keys.get(id);
      try {
        if (k == null) {
          k = unseal(id, zk.getData().forPath(dir + "/" + child));
          keys.put(id, k);
        }
        if (k.expires() <= now) {
          keys.remove(id);
          zk.delete().forPath(dir + "/" + child);
        }
      } catch (KeeperException.NoNodeException e) {
        keys.remove(id); // deleted meanwhile
      } catch (GeneralSecurityException e) {
        LOG.warn("token signing key {} under {} cannot be opened with this server's cluster secret; ignored", child, dir);
      } catch (Exception e) {
        throw new IOException("cannot read token signing key " + child + ": " + e.getMessage(), e);
      }
    }
    keys.keySet().retainAll(present);
    lastRefresh = now;
  }

  private static int idOf(String child) {
    if (!child.startsWith("key-")) {
      throw new NumberFormatException(child);
    }
    return Integer.parseInt(child.substring(4));
  }

  private byte[] seal(long created, long expires, byte[] secret) throws GeneralSecurityException, IOException {
    ByteArrayOutputStream plain = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(plain);
    out.writeLong(created);
    out.writeLong(expires);
    out.write(secret);
    byte[] iv = new byte[12];
    RANDOM.nextBytes(iv);
    Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
    c.init(Cipher.ENCRYPT_MODE, sealing, new GCMParameterSpec(128, iv));
    c.updateAAD(AAD);
    byte[] sealed = c.doFinal(plain.toByteArray());
    return ByteBuffer.allocate(1 + iv.length + sealed.length).put(VERSION).put(iv).put(sealed).array();
  }

  private Key unseal(int id, byte[] data) throws GeneralSecurityException {
    if (data == null || data.length < 1 + 12 + 16 || data[0] != VERSION) {
      throw new GeneralSecurityException("not a version " + VERSION + " token key");
    }
    Cipher c = Cipher.getInstance("AES/GCM/NoPadding");
    c.init(Cipher.DECRYPT_MODE, sealing, new GCMParameterSpec(128, data, 1, 12));
    c.updateAAD(AAD);
    ByteBuffer plain = ByteBuffer.wrap(c.doFinal(data, 13, data.length - 13));
    long created = plain.getLong();
    long expires = plain.getLong();
    byte[] secret = new byte[plain.remaining()];
    plain.get(secret);
    return new Key(id, created, expires, secret);
  }
}
