package io.basalt.it.status;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's headless Chromium, run once per page with {@code --dump-dom}: the DOM after the page loaded,
 * as a browser parsed and rendered it. CI installs the package ({@code .ci/run}); elsewhere
 * {@code apt-get install chromium}, or point {@code -Dbasalt.it.chromium} at another binary.
 */
final class Chromium {
  private final Path binary;
  private final Path profile;

  Chromium(Path profile) {
    this.binary = Path.of(System.getProperty("basalt.it.chromium", "/usr/bin/chromium"));
    this.profile = profile;
    if (!Files.isExecutable(binary)) {
      throw new IllegalStateException(binary + " is missing: install Debian's chromium package "
          + "(apt-get install -y chromium), or set -Dbasalt.it.chromium=/path/to/chromium");
    }
  }

  /** Loads {@code url} and returns the rendered DOM. */
  String dumpDom(String url) throws IOException, InterruptedException {
    Path out = Files.createTempFile(profile.getParent(), "dom", ".html");
    Path err = Files.createTempFile(profile.getParent(), "chromium", ".log");
    Process p = new ProcessBuilder(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-background-networking", "--disable-component-update", "--disable-default-apps",
        "--disable-sync", "--no-first-run", "--mute-audio", "--user-data-dir=" + profile,
        "--window-size=412,915", "--dump-dom", url))
        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    try {
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        throw new IOException("chromium did not finish loading " + url + " within 60 s");
      }
    } finally {
      if (p.isAlive()) {
        p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
    String dom = Files.readString(out, StandardCharsets.UTF_8);
    if (p.exitValue() != 0 || dom.isBlank()) {
      throw new IOException("chromium exited with " + p.exitValue() + " for " + url + ": "
          + Files.readString(err, StandardCharsets.UTF_8));
    }
    return dom;
  }
}
