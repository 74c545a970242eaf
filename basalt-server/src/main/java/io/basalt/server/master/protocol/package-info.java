/**
 * Split, split of a replicated region ({@link GroupSplitProtocol}: every member clones its own log), move,
 * replica-group member changes ({@link ReplaceMemberProtocol}), and snapshots ({@link SnapshotProtocol} to take or
 * import one, {@link DeleteSnapshotProtocol}, {@link CloneSnapshotProtocol} to clone or restore; docs/snapshots.md),
 * region merge ({@link MergeProtocol}: a clone of the larger region filled with the smaller one's records;
 * {@link GroupMergeProtocol} for replicated regions: the larger one's group refounded from each member's clone and
 * filled through its replicated environment)
 * as pure state machines (ARCHITECTURE §4, paper
 * §III.D-E), in the style of etcd's raft
 * {@code RawNode}: the protocol decides, a driver does the work. Nothing here touches ZooKeeper, the
 * network, files, threads or clocks.
 *
 * <h2>Driving a protocol</h2>
 * <pre>
 *   Protocol p = SplitProtocol.begin(...) | GroupSplitProtocol.begin(...) | MoveProtocol.begin(...)
 *              | ReplaceMemberProtocol.begin(...) | Protocol.recover(znodeBytes)
 *   while (p.next().isPresent()) {
 *     Action a = p.next().get();
 *     try { p.completed(a, execute(a)); }            // Result.DONE, or the result the action asks for
 *     catch (IOException e) { p.failed(a, e.toString()); back off, maybe wait for a server to return; }
 *   }
 *   p.outcome()  // SPLIT | MOVED | REPLACED | ROLLED_BACK | REFUSED, with a reason
 * </pre>
 * One action is outstanding at a time; {@link Protocol#next()} returns the same instance until it is
 * reported. Each action says where it runs ({@link Site}): the master (ZooKeeper and the catalog) or one
 * region server, resolved by the driver to the instance live now at the recorded host and port (a
 * restarted server keeps its directories and takes the action). One action may be several region-server
 * actions run at once ({@link Action.InParallel}): it fails if any part does, whatever the others did.
 *
 * <h2>Rules the driver keeps</h2>
 * <ul>
 *   <li>Every action is idempotent: repeating one that was done, or half done, is harmless. The driver may
 *       repeat any action after a failure or a crash.
 *   <li>{@link Action.PersistTxn} writes the transaction's znode (create or overwrite); {@link
 *       Action.DeleteTxn} deletes it. They come before and after every step with side effects, so the last
 *       persisted record alone tells a new master what to do: {@code Protocol.recover(bytes)}.
 *   <li>The driver may abandon a machine at any moment only by acting as if the master crashed: run {@code
 *       Protocol.recover} on what ZooKeeper now holds (a missing znode means nothing is left to do).
 *   <li>A region named in a transaction in flight belongs to it: no split, move, balance, assignment or
 *       close may start on it until the transaction's znode is deleted. Assignment of a returning server
 *       opens only regions the catalog says are OPEN on it (never SPLITTING or MOVING ones); of a region
 *       whose members are changing, only the members the change does not own ({@link MemberTxn#ownMembers}).
 *   <li>A region server runs control calls for one region one at a time (a call from a master that has
 *       since died may still be running when the new master repeats or undoes it).
 * </ul>
 *
 * <h2>Invariants (checked after every step by the tests, crashes and failures included)</h2>
 * At most one process serves each key; a region is served only where the catalog maps it, or, before it
 * is published, by a server no client has been told about. Every acknowledged write stays in the
 * directory of the region, on the server, that the catalog routes its key to: a split parent's files go
 * only after both daughters are cloned durably and published, a moved region's source copy only after the
 * target has opened it and the catalog maps it there. For a replicated region: every majority of its JE
 * group holds every acknowledged write, a member counts as a copy only once it holds what its primary had
 * committed, and no directory of a member the catalog lists is dropped.
 */
package io.basalt.server.master.protocol;
