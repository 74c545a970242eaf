package io.basalt.dist.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Refuses to start on a data directory that another running process uses ({@code basalt.lock}, an OS file
 * lock released when the process ends, however it ends) or that holds an on-disk format this version cannot
 * read ({@code basalt-format}).
 */
final class DataDirGuard {
  /**
   * The layout of region directories (cell key encoding, region metadata, directory names). Raise it with
   * any change an older Basalt could misread, and teach the new version to read or convert the old one.
   */
  static final int FORMAT_VERSION = 1;
  static final String LOCK_FILE = "basalt.lock";
  static final String FORMAT_FILE = "basalt-format";

  /** Locks held until the process exits. */
  private static final List<FileChannel> HELD = new ArrayList<>();

  private DataDirGuard() {}

  /** Locks {@code dir} for this process and checks its format; {@code option} names how to choose another. */
  static synchronized void claim(Path dir, String option, boolean checkFormat) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new CliFailure("cannot create data directory " + dir + ": " + e);
    }
    lock(dir, option);
    if (checkFormat) {
      checkFormat(dir);
    }
  }

  private static void lock(Path dir, String option) {
    Path file = dir.resolve(LOCK_FILE);
    FileChannel ch = null;
    try {
      ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = ch.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        String holder = Files.readString(file, StandardCharsets.UTF_8).trim();
        ch.close();
        throw new CliFailure("data directory " + dir.toAbsolutePath() + " is in use by another running Basalt process"
            + (holder.isEmpty() ? "" : " (pid " + holder + ")") + "; stop it, or choose another directory with " + option);
      }
      ch.truncate(0);
      ch.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.UTF_8)), 0);
      HELD.add(ch);
    } catch (IOException e) {
      closeQuietly(ch);
      throw new CliFailure("cannot lock data directory " + dir + " (" + file + "): " + e);
    }
  }

  private static void checkFormat(Path dir) {
    Path file = dir.resolve(FORMAT_FILE);
    try {
      if (!Files.exists(file)) {
        // A new directory, or one from before the format was recorded (format 1 is the only one so far).
        Files.writeString(file, FORMAT_VERSION + "\n", StandardCharsets.UTF_8);
        return;
      }
      String text = Files.readString(file, StandardCharsets.UTF_8).trim();
      int found;
      try {
        found = Integer.parseInt(text);
      } catch (NumberFormatException e) {
        throw new CliFailure("data directory " + dir.toAbsolutePath() + " has an unreadable " + FORMAT_FILE + " ('" + text
            + "'); it should hold the on-disk format number (" + FORMAT_VERSION + " for this version)");
      }
      if (found != FORMAT_VERSION) {
        throw new CliFailure("data directory " + dir.toAbsolutePath() + " holds on-disk format " + found
            + ", this Basalt reads format " + FORMAT_VERSION + ": "
            + (found > FORMAT_VERSION ? "run the newer Basalt that wrote it" : "upgrade through the release notes' steps")
            + ", or restore a backup of a matching version (see docs/operations.md, Upgrading)");
      }
    } catch (IOException e) {
      throw new CliFailure("cannot read " + file + ": " + e);
    }
  }

  private static void closeQuietly(FileChannel ch) {
    if (ch != null) {
      try {
        ch.close();
      } catch (IOException ignored) {
        // already failing
      }
    }
  }
}
