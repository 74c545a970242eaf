package io.basalt.server.security;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The key every master and region server of one cluster holds and no client does: internal connections
 * (control calls, segment transfer) prove knowledge of it with {@link MemberHandshake}; it never travels.
 *
 * <p>Where it comes from: a file readable by its owner only ({@code basalt.cluster.secret.file}), 32 random
 * bytes as hex, created on first use. Processes of one user on one machine (bin/basalt-cluster, the tests'
 * local clusters) share it with no configuration; a multi-machine cluster copies the file to each machine
 * as it would a keytab. ZooKeeper is deliberately not used: any client that can read the HBase registry
 * there could read the secret too. A standalone process keeps one in memory ({@link #inProcess()}).
 */
public final class ClusterSecret {
  private static final int BYTES = 32;
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final ClusterSecret IN_PROCESS = new ClusterSecret(randomBytes(BYTES), "in-process");

  private final byte[] key;
  private final String source;

  private ClusterSecret(byte[] key, String source) {
    this.key = key;
    this.source = source;
  }

  /** One secret for every server in this JVM (standalone, in-process tests): nothing outside can know it. */
  public static ClusterSecret inProcess() {
    return IN_PROCESS;
  }

  /** A secret given directly (tests). */
  public static ClusterSecret of(byte[] key) {
    if (key.length < 16) {
      throw new IllegalArgumentException("a cluster secret needs at least 16 bytes, not " + key.length);
    }
    return new ClusterSecret(key.clone(), "given");
  }

  /** The default file: {@code ~/.basalt/cluster.secret}. */
  public static Path defaultFile() {
    return Path.of(System.getProperty("user.home"), ".basalt", "cluster.secret");
  }

  /**
   * Reads {@code file}, or creates it (owner-only permissions, atomically: processes starting together
   * end up with the same secret). A file others can read, or one that is not 32+ bytes of hex, is refused:
   * a server must not run with a secret it cannot trust.
   */
  public static ClusterSecret loadOrCreate(Path file) throws IOException {
    Path f = file.toAbsolutePath();
    if (!Files.exists(f)) {
      create(f);
    }
    checkPermissions(f);
    String text = Files.readString(f).trim();
    byte[] key;
    try {
      key = HexFormat.of().parseHex(text);
    } catch (IllegalArgumentException e) {
      throw new IOException("cluster secret file " + f + " is not hex: " + e.getMessage());
    }
    if (key.length < 16) {
      throw new IOException("cluster secret file " + f + " holds " + key.length + " bytes; at least 16 are needed");
    }
    return new ClusterSecret(key, f.toString());
  }

  private static void create(Path f) throws IOException {
    Files.createDirectories(f.getParent());
    Path tmp = Files.createTempFile(f.getParent(), ".cluster.secret", ".tmp", ownerOnlyAttribute());
    try {
      Files.writeString(tmp, HexFormat.of().formatHex(randomBytes(BYTES)) + "\n");
      try {
        // A hard link is created only if the name is free (link(2)): the first process to finish wins and the
        // others read its file. An atomic rename would not do: on Linux it replaces the file another process
        // may already have read (ClusterSecretTest caught two secrets).
        Files.createLink(f, tmp);
      } catch (FileAlreadyExistsException raced) {
        // another process created it first
      } catch (UnsupportedOperationException noHardLinks) {
        try {
          Files.move(tmp, f);
        } catch (FileAlreadyExistsException raced) {
          // another process created it first
        }
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  private static java.nio.file.attribute.FileAttribute<?>[] ownerOnlyAttribute() {
    if (!posix()) {
      return new java.nio.file.attribute.FileAttribute<?>[0];
    }
    return new java.nio.file.attribute.FileAttribute<?>[] {
        PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))};
  }

  private static void checkPermissions(Path f) throws IOException {
    if (!posix()) {
      return;
    }
    Set<PosixFilePermission> p = Files.getPosixFilePermissions(f);
    if (p.contains(PosixFilePermission.GROUP_READ) || p.contains(PosixFilePermission.OTHERS_READ)) {
      throw new IOException("cluster secret file " + f + " is readable by others (" + PosixFilePermissions.toString(p)
          + "); chmod 600 it");
    }
  }

  private static boolean posix() {
    return java.nio.file.FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
  }

  private static byte[] randomBytes(int n) {
    byte[] b = new byte[n];
    RANDOM.nextBytes(b);
    return b;
  }

  static byte[] nonce() {
    return randomBytes(BYTES);
  }

  /** HMAC-SHA256 under this secret of the parts, each length-prefixed so no two lists collide. */
  byte[] mac(byte[]... parts) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      for (byte[] p : parts) {
        mac.update(new byte[] {(byte) (p.length >>> 24), (byte) (p.length >>> 16), (byte) (p.length >>> 8),
            (byte) p.length});
        mac.update(p);
      }
      return mac.doFinal();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every JDK", e);
    }
  }

  /** Constant-time comparison of a received proof. */
  boolean verify(byte[] expected, byte[] received) {
    return MessageDigest.isEqual(expected, received);
  }

  /** Where the secret came from (a file path, never the secret), for error messages. */
  public String source() {
    return source;
  }

  @Override
  public String toString() {
    return "ClusterSecret(" + source + ")";
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ClusterSecret c && Arrays.equals(key, c.key);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(key);
  }
}
