package io.basalt.storage.je;

import com.sleepycat.je.EnvironmentConfig;
import com.sleepycat.je.rep.ReplicatedEnvironment;
import io.basalt.storage.error.StorageException;
import io.basalt.storage.replication.GroupMembership;
import io.basalt.storage.replication.ChannelGuard;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Makes a clone of a member's log the founder of a new replica group. A split clones every member's log
 * into each daughter's directory, and the clones still believe they belong to the parent's group (its
 * members, at its addresses). One member per daughter opens its clone once with JE's reset of the group:
 * the group keeps its name, its UUID and its log positions, so the daughter's other members, whose clones end
 * at the same position, join it without copying anything; the founder is alone in it, at its new address.
 * A marker file records that the reset was done: it must never run again (a second reset would drop the
 * members that joined since). A crash before the marker is written repeats the reset, which is harmless
 * while no other member has joined (the split opens them only after this returns).
 */
final class GroupRefounding {
  static final String MARKER = "basalt.group-refounded";

  private GroupRefounding() {}

  /** Returns false if this directory's group was refounded already (nothing done). */
  static boolean refound(Path dir, EnvironmentConfig env, GroupMembership founder, ChannelGuard guard) {
    Path marker = dir.resolve(MARKER);
    if (Files.exists(marker)) {
      return false;
    }
    ReplicatedEnvironment reset = ReplicaEnvironments.openReset(dir, env, founder, guard);
    reset.close();
    markRefounded(dir, founder);
    return true;
  }

  /** Records (durably) that {@code dir}'s group was refounded at {@code founder}'s address. */
  static void markRefounded(Path dir, GroupMembership founder) {
    Path marker = dir.resolve(MARKER);
    try {
      Path work = dir.resolve(MARKER + ".tmp");
      Files.writeString(work, founder.address() + "\n");
      try (var channel = java.nio.channels.FileChannel.open(work, java.nio.file.StandardOpenOption.WRITE)) {
        channel.force(true);
      }
      Files.move(work, marker, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new StorageException("recording the new group of " + dir + " failed: " + e.getMessage(), e);
    }
  }

  static boolean isRefounded(Path dir) {
    return Files.exists(dir.resolve(MARKER));
  }
}
