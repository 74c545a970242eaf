package io.basalt.storage.je;

import com.sleepycat.je.Environment;
import com.sleepycat.je.util.DbBackup;
import io.basalt.storage.io.StorageFiles;
import io.basalt.storage.segment.LogSegmentSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@link LogSegmentSet} backed by JE's {@link DbBackup}: starting it closes the current log file so
 * every file in the set is immutable, and JE's cleaner will not delete them until {@link #close()}.
 */
final class JeLogSegmentSet implements LogSegmentSet {
  private final DbBackup backup;
  private final List<Path> files;
  private final long last;
  private final long bytes;
  private final Runnable onClose;
  private boolean closed;

  private JeLogSegmentSet(DbBackup backup, List<Path> files, long last, long bytes, Runnable onClose) {
    this.backup = backup;
    this.files = List.copyOf(files);
    this.last = last;
    this.bytes = bytes;
    this.onClose = onClose;
  }

  static JeLogSegmentSet start(Environment env, Path dir, long after, StorageFiles io, Runnable onClose) {
    DbBackup backup = new DbBackup(env);
    backup.startBackup();
    try {
      String[] names = after < 0 ? backup.getLogFilesInBackupSet() : backup.getLogFilesInBackupSet(after);
      List<Path> paths = new ArrayList<>(names.length);
      long total = 0;
      for (String n : names) {
        Path p = dir.resolve(n);
        paths.add(p);
        total += io.size(p);
      }
      return new JeLogSegmentSet(backup, paths, backup.getLastFileInBackupSet(), total, onClose);
    } catch (IOException e) {
      backup.endBackup();
      onClose.run();
      throw new UncheckedIOException(e);
    } catch (RuntimeException e) {
      backup.endBackup();
      onClose.run();
      throw e;
    }
  }

  @Override
  public List<Path> files() {
    return files;
  }

  @Override
  public long lastSegment() {
    return last;
  }

  @Override
  public long totalBytes() {
    return bytes;
  }

  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      backup.endBackup();
    } finally {
      onClose.run();
    }
  }
}
