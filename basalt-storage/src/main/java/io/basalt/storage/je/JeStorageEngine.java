package io.basalt.storage.je;

import com.sleepycat.je.Environment;
import com.sleepycat.je.EnvironmentConfig;
import com.sleepycat.je.EnvironmentLockedException;
import com.sleepycat.je.rep.ReplicatedEnvironment;
import io.basalt.storage.StorageConfig;
import io.basalt.storage.error.StorageException;
import io.basalt.storage.io.LocalStorageFiles;
import io.basalt.storage.io.StorageFiles;
import io.basalt.storage.region.EngineStats;
import io.basalt.storage.region.Region;
import io.basalt.storage.region.StorageEngine;
import io.basalt.storage.replication.GroupMembership;
import io.basalt.storage.replication.ReplicaRole;
import io.basalt.storage.replication.ReplicatedRegion;
import io.basalt.storage.replication.RoleListener;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import io.basalt.storage.segment.ClosedSegmentSet;
import io.basalt.storage.segment.LogSegmentSet;
import io.basalt.storage.segment.RegionCloner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import io.basalt.storage.replication.ChannelGuard;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JE engine: one JE environment per region directory, all on one shared cache, and one background
 * thread running each region's maintenance (collection of out-of-range keys, purge) on a schedule.
 */
public final class JeStorageEngine implements StorageEngine {
  private static final Logger LOG = LoggerFactory.getLogger(JeStorageEngine.class);

  static {
    // JE's TupleBinding creates a LongBinding (its subclass) in its static initializer, and JE's recovery
    // reaches both classes from different starting points. Two environments opened at once in a fresh JVM (a
    // returning region server opens its members 8 at a time) can each start one of the two initializations and
    // wait for the other's forever: the thread dumps of a stalled churn soak showed every member open of a
    // restarted server stuck there, its groups without a majority. Initialized here, once, by one thread.
    com.sleepycat.bind.tuple.TupleBinding.getPrimitiveBinding(Long.class);
  }

  private final StorageConfig config;
  private final StorageFiles files;
  private final Set<JeRegion> open = ConcurrentHashMap.newKeySet();
  private final EngineStatsSampler statsSampler = new EngineStatsSampler();
  /** Closed region directories whose segments are being shipped: not to be opened meanwhile. */
  private final Set<Path> pinned = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService maintenance;
  /** Counts the cells of regions just opened, off the open path (a count reads the whole index). */
  private final java.util.concurrent.ExecutorService counting;
  /** The replica group members opened here, for {@link #askForPrimaries}. */
  private final Set<JeReplicaRegion> members = ConcurrentHashMap.newKeySet();
  private final ScheduledExecutorService primaryFinder;
  /**
   * How long a member may know no primary before it asks its helpers, and how often it asks again (its identity
   * is checked every half second: a stale one is best put right before the primary dies).
   */
  private static final java.time.Duration ASK_FOR_PRIMARY_AFTER = java.time.Duration.ofSeconds(3);
  /** In a member's directory while it is being filled from its group (see {@link #interruptedFill}). */
  static final String FILLING_MARKER = "basalt.filling";

  /** Who may open replication connections to this engine's members; null: anyone (tests of storage alone). */
  private volatile ChannelGuard channelGuard;

  /**
   * Replication connections to and from this engine's members must pass {@code guard} (the server's
   * cluster membership check). Set before the first member opens.
   */
  public void guardReplication(ChannelGuard guard) {
    this.channelGuard = guard;
  }

  public JeStorageEngine(StorageConfig config) {
    this(config, LocalStorageFiles.INSTANCE);
  }

  public JeStorageEngine(StorageConfig config, StorageFiles files) {
    this.config = config;
    this.files = files;
    this.maintenance = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "basalt-region-maintenance");
      t.setDaemon(true);
      return t;
    });
    this.counting = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "basalt-region-count");
      t.setDaemon(true);
      return t;
    });
    this.primaryFinder = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "basalt-primary-finder");
      t.setDaemon(true);
      return t;
    });
    primaryFinder.scheduleWithFixedDelay(this::askForPrimaries, 500, 500, TimeUnit.MILLISECONDS);
  }

  /**
   * A member JE runs under a stale id gets the right one ({@link JeReplicaRegion#fixStaleIdentity}); members
   * that have known no primary for a while ask their helpers ({@link JeReplicaRegion#askForPrimary}).
   */
  private void askForPrimaries() {
    members.removeIf(JeReplicaRegion::isClosed);
    for (JeReplicaRegion m : members) {
      if (m.fixStaleIdentity()) {
        LOG.warn("{}: JE ran member {} under a member id its group no longer has; given the recorded one",
            m.region().directory(), m.membership().nodeName());
      }
      m.askForPrimary(ASK_FOR_PRIMARY_AFTER);
    }
  }

  private EnvironmentConfig envConfig(boolean allowCreate) {
    return RegionEnvironmentConfig.of(config, allowCreate);
  }

  private Environment openEnvironment(Path dir, boolean create) {
    return openEnvironment(dir, () -> new Environment(dir.toFile(), envConfig(create)));
  }

  private <E extends Environment> E openEnvironment(Path dir, java.util.function.Supplier<E> opener) {
    if (pinned.contains(key(dir))) {
      throw new StorageException("region " + dir + " cannot be opened while its closed segments are in use");
    }
    try {
      E env = opener.get();
      // JE sizes a shared cache from the first environment of the process; make it this engine's size.
      if (env.getConfig().getCacheSize() != config.cacheBytes()) {
        env.setMutableConfig(env.getMutableConfig().setCacheSize(config.cacheBytes()));
      }
      return env;
    } catch (EnvironmentLockedException e) {
      throw new StorageException("region directory " + dir + " is in use by another process", e);
    } catch (com.sleepycat.je.DatabaseException e) {
      throw JeErrors.translate("opening region " + dir, e);
    }
  }

  @Override
  public Region create(Path dir, RegionDescriptor descriptor) {
    return create(dir, descriptor, RegionMetadata.NEW_REGION_FORMAT);
  }

  /**
   * A new region in an older format ({@code 1}: one record per cell), as a cluster being upgraded may need while
   * members of the release before still run, and as tests comparing the formats do.
   */
  public Region create(Path dir, RegionDescriptor descriptor, int formatVersion) {
    try {
      if (!files.isEmptyOrMissing(dir)) {
        throw new StorageException("cannot create a region in non-empty directory " + dir);
      }
      files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    RegionMetadata metadata = new RegionMetadata(descriptor, false, formatVersion); // checks the version first
    Environment env = openEnvironment(dir, true);
    return register(dir, env, metadata, true);
  }

  @Override
  public Region open(Path dir) {
    if (!Files.isDirectory(dir)) {
      throw new StorageException("no region directory " + dir);
    }
    Environment env = openEnvironment(dir, false);
    RegionMetadata meta;
    try {
      meta = RegionCatalog.readMetadata(env);
    } catch (RuntimeException e) {
      env.close();
      throw e;
    }
    return register(dir, env, meta, false);
  }

  @Override
  public Region openRestricted(Path dir, KeyRange range) {
    Environment env = openEnvironment(dir, false);
    RegionMetadata meta;
    try {
      meta = RegionCatalog.readMetadata(env);
      if (!meta.descriptor().range().encloses(range)) {
        throw new StorageException("range " + range + " is not inside the clone's range " + meta.descriptor().range());
      }
    } catch (RuntimeException e) {
      env.close();
      throw e;
    }
    boolean narrower = !meta.descriptor().range().equals(range);
    return register(dir, env, meta.with(meta.descriptor().withRange(range), meta.pendingCollection() || narrower),
        false);
  }

  // ---------------------------------------------------------------- members of replica groups

  @Override
  public ReplicatedRegion createGroup(Path dir, RegionDescriptor descriptor, GroupMembership membership,
      RoleListener listener) {
    prepareEmpty(dir);
    ReplicatedEnvironment env = openEnvironment(dir,
        () -> ReplicaEnvironments.open(dir, envConfig(true), membership, true, true, channelGuard));
    return registerMember(dir, env, new RegionMetadata(descriptor, false, RegionMetadata.NEW_REGION_FORMAT), true,
        membership, listener);
  }

  @Override
  public ReplicatedRegion joinGroup(Path dir, GroupMembership membership, RoleListener listener) {
    prepareEmpty(dir);
    Path filling = dir.resolve(FILLING_MARKER);
    try {
      Files.writeString(filling, membership.nodeName() + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // Filled once it has followed a primary (or become one): JE's syncup is done by then.
    RoleListener clearing = (region, role, primary) -> {
      if (role == ReplicaRole.SECONDARY || role == ReplicaRole.PRIMARY) {
        try {
          Files.deleteIfExists(filling);
        } catch (IOException e) {
          LOG.warn("{}: cannot remove {}: {}", dir, FILLING_MARKER, e.toString());
        }
      }
      listener.roleChanged(region, role, primary);
    };
    ReplicatedEnvironment env = openEnvironment(dir,
        () -> ReplicaEnvironments.open(dir, envConfig(true), membership, false, true, channelGuard));
    return registerMember(dir, env, null, false, membership, clearing);
  }

  /**
   * A member that was being filled when its server died (or its group went away) holds part of some other
   * member's log: opened as it is, it joined under an identity its group no longer had, and JE's feeder on the
   * primary failed the primary's whole environment over the mismatch, again at each election (a group lost in
   * the churn soak). Such a directory starts over empty.
   */
  private boolean interruptedFill(Path dir) {
    if (!Files.exists(dir.resolve(FILLING_MARKER))) {
      return false;
    }
    LOG.warn("{}: its member was still being filled when it last stopped; filling it again from the start", dir);
    try {
      files.deleteRecursively(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return true;
  }

  @Override
  public ReplicatedRegion openMember(Path dir, GroupMembership membership, RoleListener listener) {
    if (!Files.isDirectory(dir)) {
      throw new StorageException("no region directory " + dir);
    }
    if (interruptedFill(dir)) {
      return joinGroup(dir, membership, listener);
    }
    ReplicatedEnvironment env = openEnvironment(dir,
        () -> ReplicaEnvironments.open(dir, envConfig(false), membership, false, false, channelGuard));
    return registerMember(dir, env, null, false, membership, listener);
  }

  @Override
  public ReplicatedRegion openMember(Path dir, GroupMembership membership, RoleListener listener, KeyRange range) {
    if (!Files.isDirectory(dir)) {
      throw new StorageException("no region directory " + dir);
    }
    if (interruptedFill(dir)) {
      return joinGroup(dir, membership, listener);
    }
    ReplicatedEnvironment env = openEnvironment(dir,
        () -> ReplicaEnvironments.open(dir, envConfig(false), membership, false, false, channelGuard));
    RegionMetadata meta;
    try {
      meta = MergedGroupFounding.awaitRangeEnclosing(env, range);
    } catch (RuntimeException e) {
      closeQuietly(env);
      throw e;
    }
    boolean narrower = !meta.descriptor().range().equals(range);
    return registerMember(dir, env, meta.with(meta.descriptor().withRange(range),
        meta.pendingCollection() || narrower), false, membership, listener);
  }

  @Override
  public boolean refoundGroup(Path dir, GroupMembership founder) {
    if (!Files.isDirectory(dir)) {
      throw new StorageException("no region directory " + dir);
    }
    if (GroupRefounding.isRefounded(dir)) {
      return false; // done before; the member may be open by now
    }
    requireClosed(dir, "refounding its group");
    if (pinned.contains(key(dir))) {
      throw new StorageException("region " + dir + " cannot be opened while its closed segments are in use");
    }
    try {
      return GroupRefounding.refound(dir, envConfig(false), founder, channelGuard);
    } catch (EnvironmentLockedException e) {
      throw new StorageException("region directory " + dir + " is in use by another process", e);
    } catch (com.sleepycat.je.DatabaseException e) {
      throw JeErrors.translate("refounding the group of " + dir, e);
    }
  }

  @Override
  public io.basalt.storage.region.MergeReport refoundMergedGroup(Path dir, GroupMembership founder, Path smaller,
      KeyRange merged) {
    if (!Files.isDirectory(dir) || !Files.isDirectory(smaller)) {
      throw new StorageException("no region directory " + (Files.isDirectory(dir) ? smaller : dir));
    }
    if (GroupRefounding.isRefounded(dir)) {
      return null;
    }
    requireClosed(dir, "refounding its group");
    requireClosed(smaller, "merging");
    try {
      return MergedGroupFounding.refoundAndFill(dir, envConfig(false), founder, channelGuard, smaller, merged);
    } catch (EnvironmentLockedException e) {
      throw new StorageException("region directory " + dir + " is in use by another process", e);
    } catch (com.sleepycat.je.DatabaseException e) {
      throw JeErrors.translate("founding the merged group of " + dir, e);
    }
  }

  @Override
  public long logBytes(Path dir) {
    return RegionMerger.logBytes(files, dir);
  }

  @Override
  public boolean foundNewGroup(Path dir, GroupMembership founder) {
    if (!Files.isDirectory(dir)) {
      throw new StorageException("no region directory " + dir);
    }
    if (NewGroupFounding.isFounded(dir)) {
      return false; // done before; the member may be open by now
    }
    requireClosed(dir, "founding a group from it");
    if (pinned.contains(key(dir))) {
      throw new StorageException("region " + dir + " cannot be opened while its closed segments are in use");
    }
    try {
      return NewGroupFounding.found(dir, envConfig(false), founder, channelGuard);
    } catch (EnvironmentLockedException e) {
      throw new StorageException("region directory " + dir + " is in use by another process", e);
    } catch (com.sleepycat.je.DatabaseException e) {
      throw JeErrors.translate("founding a new group in " + dir, e);
    }
  }

  private void prepareEmpty(Path dir) {
    try {
      if (!files.isEmptyOrMissing(dir)) {
        throw new StorageException("cannot start a member in non-empty directory " + dir);
      }
      files.createDirectories(dir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code meta}: the founder's; a joining or reopened member reads the one its log holds. */
  private ReplicatedRegion registerMember(Path dir, ReplicatedEnvironment env, RegionMetadata meta, boolean fresh,
      GroupMembership membership, RoleListener listener) {
    JeReplicaRegion member;
    try {
      RegionMetadata m = meta != null ? meta : RegionCatalog.readMetadata(env);
      JeRegion region = register(dir, env, m, fresh, () -> env.getState().isMaster());
      member = new JeReplicaRegion(region, env, membership, listener, this::promoted, this::reopen);
    } catch (RuntimeException e) {
      closeQuietly(env);
      throw e;
    }
    member.listen();
    members.add(member);
    return member;
  }

  /**
   * JE stopped a member on its own (it must roll back commits its group never acknowledged, or fell too far
   * behind): the member is opened afresh from its directory, which rejoins its group; retried until it works
   * or the member is closed.
   */
  private void reopen(JeReplicaRegion member) {
    if (maintenance.isShutdown()) {
      return;
    }
    maintenance.execute(() -> {
      JeRegion old = member.region();
      Path dir = old.directory();
      LOG.warn("{}: its replica group member stopped ({}); opening it again", dir, member.membership().nodeName());
      try {
        old.close();
      } catch (RuntimeException e) {
        LOG.debug("closing the stopped member {} failed: {}", dir, e.toString());
      }
      try {
        if (member.isClosed()) {
          return;
        }
        ReplicatedEnvironment env = openEnvironment(dir,
            () -> ReplicaEnvironments.open(dir, envConfig(false), member.membership(), false, false, channelGuard));
        try {
          member.replace(register(dir, env, RegionCatalog.readMetadata(env), false, () -> env.getState().isMaster()),
              env);
        } catch (RuntimeException e) {
          closeQuietly(env);
          throw e;
        }
      } catch (RuntimeException e) {
        LOG.warn("{}: opening the member again failed ({}); retrying in a few seconds", dir, e.toString());
        if (!maintenance.isShutdown() && !member.isClosed()) {
          maintenance.schedule(() -> reopen(member), 3, TimeUnit.SECONDS);
        }
      }
    });
  }

  /**
   * A member became its group's primary: it reloads its layout and counts its cells (off JE's thread). A failure
   * (its group short of members while JE opens a database, say) is retried while it stays primary.
   */
  private void promoted(JeRegion region) {
    counting.execute(() -> {
      try {
        if (!region.isClosing()) {
          region.promoted();
          region.recount();
        }
      } catch (RuntimeException e) {
        if (!region.isClosing()) {
          LOG.warn("taking over {} as primary failed; retrying in a few seconds", region.directory(), e);
          if (!maintenance.isShutdown()) {
            maintenance.schedule(() -> {
              if (!region.isClosing() && region.writable()) {
                promoted(region);
              }
            }, 3, TimeUnit.SECONDS);
          }
        }
      }
    });
  }

  private static void closeQuietly(Environment env) {
    try {
      if (env.isValid()) {
        env.close();
      }
    } catch (RuntimeException e) {
      LOG.warn("closing {} failed: {}", env.getHome(), e.toString());
    }
  }

  /** {@code fresh}: a region just created, which holds no cells (its count is known without counting). */
  private Region register(Path dir, Environment env, RegionMetadata meta, boolean fresh) {
    return register(dir, env, meta, fresh, () -> true);
  }

  private JeRegion register(Path dir, Environment env, RegionMetadata meta, boolean fresh,
      java.util.function.BooleanSupplier writable) {
    JeRegion[] self = new JeRegion[1];
    JeRegion region;
    try {
      region = new JeRegion(dir, env, config, files, meta, fresh, writable, () -> open.remove(self[0]));
    } catch (RuntimeException e) {
      env.close();
      throw e;
    }
    self[0] = region;
    open.add(region);
    if (!region.cellCountKnown()) {
      // Count first, then collect: a count taken while the collector deletes keys would be off.
      counting.execute(() -> {
        try {
          if (!region.isClosing()) {
            region.recount();
          }
        } catch (RuntimeException e) {
          if (!region.isClosing()) {
            LOG.warn("counting the cells of {} failed", region.directory(), e);
          }
        }
        if (meta.pendingCollection() && !maintenance.isShutdown()) {
          maintenance.execute(() -> runMaintenance(region));
        }
      });
    } else if (meta.pendingCollection()) {
      maintenance.execute(() -> runMaintenance(region));
    }

    if (config.purgeIntervalMillis() > 0) {
      maintenance.schedule(() -> periodic(region), config.purgeIntervalMillis(), TimeUnit.MILLISECONDS);
    }
    return region;
  }

  private void periodic(JeRegion region) {
    if (!open.contains(region)) {
      return;
    }
    runMaintenance(region);
    if (open.contains(region) && !maintenance.isShutdown()) {
      maintenance.schedule(() -> periodic(region), config.purgeIntervalMillis(), TimeUnit.MILLISECONDS);
    }
  }

  private static void runMaintenance(JeRegion region) {
    try {
      if (!region.isClosing()) {
        long removed = region.maintain();
        if (removed > 0) {
          LOG.info("maintenance of {} removed {} entries", region.directory(), removed);
        }
      }
    } catch (RuntimeException e) {
      if (!region.isClosing()) {
        LOG.warn("maintenance of {} failed", region.directory(), e);
      }
    }
  }

  @Override
  public long cloneClosed(Path source, Path target) {
    requireClosed(source, "cloning");
    return RegionCloner.cloneClosed(files, source, target);
  }

  @Override
  public io.basalt.storage.region.MergeReport mergeClosed(Path a, Path b, Path target, KeyRange merged) {
    requireClosed(a, "merging");
    requireClosed(b, "merging");
    return RegionMerger.merge(files, a, b, target, merged, () -> openEnvironment(target, false));
  }

  @Override
  public LogSegmentSet closedSegments(Path dir) {
    requireClosed(dir, "listing its closed segments");
    Path key = key(dir);
    if (!pinned.add(key)) {
      throw new IllegalStateException("a closed segment set of " + dir + " is already open");
    }
    try {
      return ClosedSegmentSet.list(files, dir, () -> pinned.remove(key));
    } catch (RuntimeException e) {
      pinned.remove(key);
      throw e;
    }
  }

  private void requireClosed(Path dir, String what) {
    for (JeRegion r : open) {
      if (key(r.directory()).equals(key(dir))) {
        throw new StorageException("region " + dir + " must be closed before " + what);
      }
    }
  }

  private static Path key(Path dir) {
    return dir.toAbsolutePath().normalize();
  }

  @Override
  public EngineStats stats() {
    return statsSampler.sample(open, config.cacheBytes());
  }

  @Override
  public void close() {
    counting.shutdownNow();
    primaryFinder.shutdownNow();
    maintenance.shutdownNow();
    for (JeRegion r : List.copyOf(open)) {
      try {
        r.close();
      } catch (RuntimeException e) {
        LOG.warn("closing {} failed", r.directory(), e);
      }
    }
  }
}
