package io.basalt.dist.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** The version this distribution was built as, and what it runs on. */
final class Version implements IVersionProvider {
  static String basalt() {
    Properties p = new Properties();
    try (InputStream in = Version.class.getResourceAsStream("/io/basalt/dist/version.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      // reported as unknown
    }
    return p.getProperty("basalt.version", "unknown");
  }

  @Override
  public String[] getVersion() {
    return new String[] {"Basalt " + basalt(), "HBase wire protocol and client API of HBase 2.6",
        "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ")"};
  }
}
