package io.basalt.server.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.hbase.zookeeper.ZKMetadata;
import org.junit.jupiter.api.Test;

class ZNodeMetadataTest {
  private static final byte[] DATA = "PBUF\u0008\u0001".getBytes(StandardCharsets.ISO_8859_1);

  @Test
  void prefixIsMagicLengthIdAndSalt() {
    byte[] znode = ZNodeMetadata.prepend("master:16000", DATA);
    ByteBuffer buf = ByteBuffer.wrap(znode);
    assertThat(buf.get()).isEqualTo((byte) 0xFF);
    assertThat(buf.getInt()).isEqualTo("master:16000".length() + 8);
    assertThat(znode).hasSize(1 + 4 + 12 + 8 + DATA.length);
    assertThat(new String(znode, 5, 12, StandardCharsets.UTF_8)).isEqualTo("master:16000");
  }

  @Test
  void hbaseStripsOurPrefixAndWeStripHBases() {
    byte[] ours = ZNodeMetadata.prepend("regionserver:16020", DATA);
    assertThat(ZKMetadata.removeMetaData(ours)).isEqualTo(DATA);
    assertThat(ZNodeMetadata.strip(ZKMetadata.appendMetaData("master:1".getBytes(StandardCharsets.UTF_8), DATA)))
        .isEqualTo(DATA);
  }

  @Test
  void dataWithoutPrefixIsReadAsIs() {
    assertThat(ZNodeMetadata.strip(DATA)).isEqualTo(DATA);
    assertThat(ZNodeMetadata.prepend("m:1", new byte[0])).isEmpty();
  }

  @Test
  void truncatedPrefixIsRefused() {
    assertThatThrownBy(() -> ZNodeMetadata.strip(new byte[] {(byte) 0xFF, 0, 0, 0, 50, 1, 2}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("exceeds");
    assertThatThrownBy(() -> ZNodeMetadata.strip(new byte[] {(byte) 0xFF, 0}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cut short");
  }
}
