package io.basalt.storage.je;

import com.sleepycat.je.EnvironmentConfig;
import com.sleepycat.je.rep.ReplicatedEnvironment;
import io.basalt.storage.error.StorageException;
import io.basalt.storage.replication.ChannelGuard;
import io.basalt.storage.replication.GroupMembership;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Founds a NEW replica group from a local copy of another group's member log: JE's {@code DbResetRepGroup} reset
 * without keeping the UUID, the documented way to start a group from a backup. The founder gets the group name it
 * is configured with and JE gives the group a new UUID; JE also cuts the log's replication history (its VLSN index
 * up to the reset), so no member of the old group can sync from it or feed it, and JE's handshakes refuse a node
 * of another group name or UUID. That is what a clone of a snapshot needs: its log is a live group's, and the clone
 * must never meet that group. The price: the new group's other members cannot start from identical copies of the
 * log (a split's daughters do, {@link GroupRefounding}); they join empty and JE copies the founder's files to them
 * (network restore).
 *
 * <p>A marker file records the founding: it must never run again (a second reset would drop the members that
 * joined since). A crash before the marker repeats it, which is harmless while no other member has joined (they
 * are let in only after this returns).
 */
final class NewGroupFounding {
  static final String MARKER = "basalt.group-founded";

  private NewGroupFounding() {}

  /** Returns false if this directory's group was founded already (nothing done). */
  static boolean found(Path dir, EnvironmentConfig env, GroupMembership founder, ChannelGuard guard) {
    Path marker = dir.resolve(MARKER);
    if (Files.exists(marker)) {
      return false;
    }
    ReplicatedEnvironment reset = ReplicaEnvironments.openReset(dir, env, founder, guard, false);
    reset.close();
    try {
      Path work = dir.resolve(MARKER + ".tmp");
      Files.writeString(work, founder.groupName() + " " + founder.address() + "\n");
      try (FileChannel channel = FileChannel.open(work, StandardOpenOption.WRITE)) {
        channel.force(true);
      }
      Files.move(work, marker, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new StorageException("recording the new group of " + dir + " failed: " + e.getMessage(), e);
    }
    return true;
  }

  static boolean isFounded(Path dir) {
    return Files.exists(dir.resolve(MARKER));
  }
}
