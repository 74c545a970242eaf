package io.basalt.server.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The secret file: created once, owner-only, shared by processes starting together; bad files refused. */
class ClusterSecretTest {
  @TempDir Path dir;

  @Test
  void createdOnceOwnerOnlyAndReadBackTheSame() throws IOException {
    Path file = dir.resolve("sub/cluster.secret");
    ClusterSecret first = ClusterSecret.loadOrCreate(file);
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
    assertThat(Files.readString(file).trim()).hasSize(64).matches("[0-9a-f]+");
    assertThat(ClusterSecret.loadOrCreate(file)).isEqualTo(first);
    assertThat(first.toString()).doesNotContain(Files.readString(file).trim());
  }

  @Test
  void processesStartingTogetherAgreeOnOneSecret() throws Exception {
    Path file = dir.resolve("cluster.secret");
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<ClusterSecret>> all = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        all.add(pool.submit((Callable<ClusterSecret>) () -> ClusterSecret.loadOrCreate(file)));
      }
      Set<ClusterSecret> distinct = new HashSet<>();
      for (Future<ClusterSecret> f : all) {
        distinct.add(f.get());
      }
      assertThat(distinct).hasSize(1);
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aFileOthersCanReadOrThatIsNotASecretIsRefused() throws IOException {
    Path open = dir.resolve("open.secret");
    Files.writeString(open, "00112233445566778899aabbccddeeff\n");
    Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
    assertThatThrownBy(() -> ClusterSecret.loadOrCreate(open)).isInstanceOf(IOException.class)
        .hasMessageContaining("readable by others");
    Path text = dir.resolve("text.secret");
    Files.writeString(text, "correct horse battery staple\n");
    Files.setPosixFilePermissions(text, PosixFilePermissions.fromString("rw-------"));
    assertThatThrownBy(() -> ClusterSecret.loadOrCreate(text)).isInstanceOf(IOException.class)
        .hasMessageContaining("not hex");
    Path shortOne = dir.resolve("short.secret");
    Files.writeString(shortOne, "0011\n");
    Files.setPosixFilePermissions(shortOne, PosixFilePermissions.fromString("rw-------"));
    assertThatThrownBy(() -> ClusterSecret.loadOrCreate(shortOne)).isInstanceOf(IOException.class)
        .hasMessageContaining("at least 16");
  }
}
