package io.basalt.storage.je;

import com.sleepycat.je.EnvironmentConfig;
import com.sleepycat.je.rep.ReplicatedEnvironment;
import io.basalt.storage.error.StorageException;
import io.basalt.storage.region.MergeReport;
import io.basalt.storage.replication.ChannelGuard;
import io.basalt.storage.replication.GroupMembership;
import io.basalt.storage.schema.KeyRange;
import java.nio.file.Path;

/**
 * Founds the group of a merge of two replicated regions from the founder's clone of the larger region's log, and
 * fills it with the smaller region's records: the clone is opened once with JE's reset of the group (as a split
 * daughter's founder is, {@link GroupRefounding}), alone in it and so its primary, and the smaller region's records
 * are written through that replicated environment, so that they are entries of the group's log which the other
 * members, whose clones end at the same position, stream when they join. The marker is written only after the
 * copy: a repeat after a crash before it resets again (harmless: no member joined yet) and finds the copy done or
 * does it again ({@link RegionMerger#fill} is idempotent).
 */
final class MergedGroupFounding {
  /** How long a member opening at a range wider than its log's waits for its log to widen (a merged region's). */
  private static final java.time.Duration WIDER_RANGE_WAIT = java.time.Duration.ofMinutes(2);

  private MergedGroupFounding() {}

  /** Returns what the copy cost, or null if {@code dir} was founded and filled already. */
  static MergeReport refoundAndFill(Path dir, EnvironmentConfig env, GroupMembership founder, ChannelGuard guard,
      Path smaller, KeyRange merged) {
    if (GroupRefounding.isRefounded(dir)) {
      return null;
    }
    MergeReport report = RegionMerger.fill(() -> {
      ReplicatedEnvironment primary = ReplicaEnvironments.openReset(dir, env, founder, guard);
      if (!primary.getState().isMaster()) {
        primary.close();
        throw new StorageException("the refounded group of " + dir + " did not elect "
            + founder.nodeName() + " (" + primary.getState() + "): it cannot take the merge's copy");
      }
      return primary;
    }, smaller, merged, 0);
    GroupRefounding.markRefounded(dir, founder);
    return report;
  }

  /**
   * The member's metadata once its range encloses {@code range}. A merged region's member opens from its clone of
   * the larger region before its log holds the founder's widened range (streamed as it catches up, after the open
   * returns): worth a bounded wait. A split daughter's range is inside its log's at once.
   */
  static RegionMetadata awaitRangeEnclosing(ReplicatedEnvironment env, KeyRange range) {
    long deadline = System.nanoTime() + WIDER_RANGE_WAIT.toNanos();
    while (true) {
      RegionMetadata meta = RegionCatalog.readMetadata(env);
      if (meta.descriptor().range().encloses(range)) {
        return meta;
      }
      if (System.nanoTime() > deadline) {
        throw new StorageException("range " + range + " is not inside the member's range " + meta.descriptor().range()
            + " (waited " + WIDER_RANGE_WAIT.toSeconds() + " s for its log to catch up)");
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new StorageException("interrupted while the member's log catches up", e);
      }
    }
  }
}
