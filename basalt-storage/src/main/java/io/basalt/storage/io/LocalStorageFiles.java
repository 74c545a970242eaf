package io.basalt.storage.io;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** {@link StorageFiles} on the local file system. */
public final class LocalStorageFiles implements StorageFiles {
  public static final LocalStorageFiles INSTANCE = new LocalStorageFiles();

  @Override
  public List<Path> listSegments(Path dir) throws IOException {
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "*.jdb")) {
      for (Path p : ds) {
        out.add(p);
      }
    }
    out.sort(Comparator.comparing(p -> p.getFileName().toString()));
    return out;
  }

  @Override
  public void createDirectories(Path dir) throws IOException {
    Files.createDirectories(dir);
  }

  @Override
  public boolean isEmptyOrMissing(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return true;
    }
    try (Stream<Path> s = Files.list(dir)) {
      return s.findAny().isEmpty();
    }
  }

  @Override
  public void hardLink(Path existing, Path link) throws IOException {
    Files.createLink(link, existing);
  }

  @Override
  public void copy(Path from, Path to) throws IOException {
    try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ);
        FileChannel out = FileChannel.open(to, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      long size = in.size();
      long done = 0;
      while (done < size) {
        done += in.transferTo(done, size - done, out);
      }
      out.force(true);
    }
  }

  @Override
  public long size(Path file) throws IOException {
    return Files.size(file);
  }

  @Override
  public void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        try {
          Files.delete(p);
        } catch (NoSuchFileException ignored) {
          // already gone
        }
      }
    }
  }
}
