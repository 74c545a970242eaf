package io.basalt.server.acl;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The authorisation audit trail: every refused call and every administrative call let through, one line each
 * in HBase's SecurityLogger wording ({@code Access denied for user alice; reason: ...; request: put; context:
 * ...}). Goes to its own file when {@code basalt.security.audit.file} is set, else to its own logger.
 */
public final class AuditLog implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger("SecurityLogger.io.basalt.server.acl");

  private final BufferedWriter file;

  public AuditLog(String path) throws IOException {
    if (path.isEmpty()) {
      file = null;
      return;
    }
    Path p = Path.of(path);
    if (p.getParent() != null) {
      Files.createDirectories(p.getParent());
    }
    file = Files.newBufferedWriter(p, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  public void record(boolean allowed, String user, String reason, String request, String context) {
    String line = "Access " + (allowed ? "allowed" : "denied") + " for user " + (user.isEmpty() ? "UNKNOWN" : user)
        + "; reason: " + reason + "; request: " + request + "; context: " + context;
    if (file == null) {
      LOG.info(line);
      return;
    }
    synchronized (this) {
      try {
        file.write(Instant.now() + " " + line);
        file.newLine();
        file.flush();
      } catch (IOException e) {
        LOG.error("audit log write failed ({}); the line was: {}", e.getMessage(), line);
      }
    }
  }

  @Override
  public synchronized void close() throws IOException {
    if (file != null) {
      file.close();
    }
  }
}
