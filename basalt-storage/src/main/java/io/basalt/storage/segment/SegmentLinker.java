package io.basalt.storage.segment;

import io.basalt.storage.error.StorageException;
import io.basalt.storage.io.StorageFiles;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Makes a directory that holds a region's log as a {@link LogSegmentSet} lists it, without copying it: a
 * snapshot of a live region. Every file of a set is closed for writing (JE flipped to a new file when the set
 * began), so a hard link is as good as a copy for as long as nothing changes the file in place; JE's cleaner only
 * unlinks files, which leaves the link's data alone.
 *
 * <p>The one way JE does change a closed file in place is a replica group member rolling back commits its group
 * never acknowledged (syncup truncates the log at the match point, possibly inside the newest closed file). For
 * a member's set the caller asks for the newest file to be copied: a rollback cannot reach further back than
 * the commits in flight when the set began, which are all in that file.
 */
public final class SegmentLinker {
  private SegmentLinker() {}

  /** What linking cost: files linked, bytes they hold (shared, not new), bytes copied. */
  public record Linked(int files, long bytesLinked, long bytesCopied) {}

  /**
   * Links (or, for the newest one when {@code copyNewest}, copies) every file of {@code set} into {@code target},
   * which must be empty or missing. On failure {@code target} is removed.
   */
  public static Linked link(StorageFiles files, LogSegmentSet set, Path target, boolean copyNewest) {
    List<Path> segments = set.files();
    if (segments.isEmpty()) {
      throw new StorageException("a log segment set with no files cannot be linked to " + target);
    }
    try {
      if (!files.isEmptyOrMissing(target)) {
        throw new StorageException("link target " + target + " is not empty");
      }
      files.createDirectories(target);
      try {
        long linked = 0;
        long copied = 0;
        for (int i = 0; i < segments.size(); i++) {
          Path s = segments.get(i);
          Path to = target.resolve(s.getFileName());
          if (copyNewest && i == segments.size() - 1) {
            files.copy(s, to);
            copied += files.size(s);
          } else {
            files.hardLink(s, to);
            linked += files.size(s);
          }
        }
        return new Linked(segments.size(), linked, copied);
      } catch (IOException | RuntimeException e) {
        files.deleteRecursively(target);
        throw e;
      }
    } catch (IOException e) {
      throw new StorageException("linking " + segments.size() + " log segments to " + target + " failed: "
          + e.getMessage(), e);
    }
  }
}
