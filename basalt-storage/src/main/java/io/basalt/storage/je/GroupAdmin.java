package io.basalt.storage.je;

import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.rep.MemberActiveException;
import com.sleepycat.je.rep.MemberNotFoundException;
import com.sleepycat.je.rep.NodeState;
import com.sleepycat.je.rep.ReplicatedEnvironment;
import com.sleepycat.je.rep.ReplicationNode;
import com.sleepycat.je.rep.net.DataChannelFactory;
import com.sleepycat.je.rep.util.ReplicationGroupAdmin;
import io.basalt.storage.error.ReplicasUnavailableException;
import io.basalt.storage.error.StorageException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Set;

/** Changes to a replica group's membership, asked of its primary through any members' addresses. */
final class GroupAdmin {
  /** How long a deletion waits for the primary to notice that the member it deletes has stopped. */
  private static final Duration MEMBER_INACTIVE_WAIT = Duration.ofSeconds(5);

  private GroupAdmin() {}

  /**
   * Deletes {@code nodeName} from {@code group}: the group no longer counts it for elections or acknowledgements,
   * and the name may join again later as a new member. Not a member (any more): nothing to do.
   */
  static void deleteMember(String group, Set<InetSocketAddress> via, DataChannelFactory channels, String nodeName) {
    long deadline = System.nanoTime() + MEMBER_INACTIVE_WAIT.toNanos();
    while (true) {
      try {
        new ReplicationGroupAdmin(group, via, channels).deleteMember(nodeName);
        return;
      } catch (MemberNotFoundException alreadyGone) {
        return;
      } catch (MemberActiveException stillConnected) {
        // The primary notices a stopped member's connection drop a moment after it stopped.
        if (System.nanoTime() > deadline) {
          throw new StorageException("deleting member " + nodeName + " of group " + group
              + " failed: it is still running (" + stillConnected.getMessage() + ")", stillConnected);
        }
        sleep(100);
      } catch (DatabaseException ex) {
        throw JeErrors.translate("deleting member " + nodeName + " of group " + group, ex);
      } catch (RuntimeException ex) {
        throw new StorageException("deleting member " + nodeName + " of group " + group + " failed: "
            + ex.getMessage(), ex);
      }
    }
  }

  /**
   * Throws unless {@code target} answers within {@code timeout} as a secondary following {@code primaryName}.
   * JE's master transfer holds the primary's commits once the target has caught up, until the target confirms the
   * log's very end: a target whose process died without its primary noticing yet would hold every write for the
   * transfer's whole timeout, so it is asked first.
   */
  static void requireFollowing(String group, Set<InetSocketAddress> via, DataChannelFactory channels,
      ReplicationNode target, String primaryName, Duration timeout) {
    NodeState state;
    try {
      state = new ReplicationGroupAdmin(group, via, channels).getNodeState(target, (int) timeout.toMillis());
    } catch (Exception unreachable) {
      throw new ReplicasUnavailableException("member " + target.getName() + " of group " + group
          + " does not answer (" + unreachable.getMessage() + ")", unreachable);
    }
    if (state.getNodeState() != ReplicatedEnvironment.State.REPLICA || !primaryName.equals(state.getMasterName())) {
      throw new ReplicasUnavailableException("member " + target.getName() + " of group " + group + " is "
          + state.getNodeState() + " following " + state.getMasterName() + ", not a secondary of " + primaryName,
          null);
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted", ie);
    }
  }
}
