package io.basalt.storage.io;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Every file-system operation Basalt itself performs on region directories (JE's own log I/O excepted),
 * behind one interface so tests can wrap it to inject failures or count calls.
 */
public interface StorageFiles {
  /** Log segment files of a region directory ({@code NNNNNNNN.jdb}), oldest first. */
  List<Path> listSegments(Path dir) throws IOException;

  void createDirectories(Path dir) throws IOException;

  boolean isEmptyOrMissing(Path dir) throws IOException;

  /** A new name for an existing file; fails if links are not supported on this file system. */
  void hardLink(Path existing, Path link) throws IOException;

  /** Copies bytes (the kernel's zero-copy path where it has one). */
  void copy(Path from, Path to) throws IOException;

  long size(Path file) throws IOException;

  /** Removes a directory and everything in it; no error if missing. */
  void deleteRecursively(Path dir) throws IOException;
}
