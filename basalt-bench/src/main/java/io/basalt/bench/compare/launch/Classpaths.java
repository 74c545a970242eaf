package io.basalt.bench.compare.launch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the server JVMs' classes come from. */
final class Classpaths {
  private Classpaths() {}

  /**
   * Basalt runs from the bench's own classpath (basalt-bench depends on basalt-server), unless
   * {@code -Dbasalt.bench.basaltClasspath} names another.
   */
  static String basalt() {
    return System.getProperty("basalt.bench.basaltClasspath", System.getProperty("java.class.path"));
  }

  /**
   * Apache HBase 2.6.4 as Maven resolved it (hbase-runtime/pom.xml, written by basalt-bench's build to
   * target/hbase-server.classpath beside the bench's classes or jar), or the file named by
   * {@code -Dbasalt.bench.hbaseClasspathFile}.
   */
  static String hbase() {
    String named = System.getProperty("basalt.bench.hbaseClasspathFile");
    Path file = named != null ? Path.of(named) : buildDirectory().resolve("hbase-server.classpath");
    try {
      String cp = Files.readString(file, StandardCharsets.UTF_8).trim();
      if (cp.isEmpty()) {
        throw new IllegalStateException(file + " is empty");
      }
      return cp;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the HBase 2.6.4 classpath " + file + " (the basalt-bench build "
          + "writes it: mvn -pl basalt-bench -am package -DskipTests)", e);
    }
  }

  /** basalt-bench/target, found from where this class was loaded (target/classes or target/basalt-bench.jar). */
  private static Path buildDirectory() {
    try {
      Path location = Path.of(Classpaths.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return location.getParent();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
