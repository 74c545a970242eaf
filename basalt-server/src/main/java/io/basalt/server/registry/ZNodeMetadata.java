package io.basalt.server.registry;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The metadata prefix HBase's {@code RecoverableZooKeeper} puts in front of every znode it writes:
 * {@code 0xFF | int32 idLength | id}, where id is the writer's identifier ({@code "master:16000"}) followed by
 * 8 random salt bytes. The Java client skips it when present; other clients (gohbase) refuse data without it,
 * so every registry znode we write carries it.
 */
public final class ZNodeMetadata {
  static final byte MAGIC = (byte) 0xFF;
  private static final int SALT_BYTES = Long.BYTES;

  private ZNodeMetadata() {}

  /** {@code data} behind the prefix naming {@code identifier}, as HBase writes it (empty data stays empty). */
  public static byte[] prepend(String identifier, byte[] data) {
    if (data.length == 0) {
      return data;
    }
    byte[] id = identifier.getBytes(StandardCharsets.UTF_8);
    int idLength = id.length + SALT_BYTES;
    return ByteBuffer.allocate(1 + Integer.BYTES + idLength + data.length)
        .put(MAGIC).putInt(idLength).put(id).putLong(ThreadLocalRandom.current().nextLong()).put(data).array();
  }

  /** The data behind the prefix; data without one is returned as is (znodes of older Basalt, other writers). */
  public static byte[] strip(byte[] data) {
    if (data == null || data.length == 0 || data[0] != MAGIC) {
      return data;
    }
    if (data.length < 1 + Integer.BYTES) {
      throw new IllegalArgumentException("znode metadata prefix cut short (" + data.length + " bytes)");
    }
    int idLength = ByteBuffer.wrap(data, 1, Integer.BYTES).getInt();
    int start = 1 + Integer.BYTES + idLength;
    if (idLength < 0 || start > data.length) {
      throw new IllegalArgumentException("znode metadata id length " + idLength + " exceeds the " + data.length
          + "-byte znode");
    }
    return Arrays.copyOfRange(data, start, data.length);
  }
}
