package io.basalt.server.regionserver;

import io.basalt.server.convert.Schemas;
import io.basalt.storage.region.Region;
import io.basalt.storage.region.StorageEngine;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hbase.NotServingRegionException;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The regions one server hosts, each a storage region in {@code dataDir/regions/<encoded name>}, plus the
 * state of the client protocol around them (scanner leases, nonces).
 */
public final class RegionServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(RegionServer.class);

  private final ServerName serverName;
  private final StorageEngine engine;
  private final Path regionsDir;
  private final Map<String, HostedRegion> regions = new ConcurrentHashMap<>();
  private final ScannerLeases leases;
  private final Nonces nonces = new Nonces();
  private volatile MetaSource meta;

  public RegionServer(ServerName serverName, StorageEngine engine, Path dataDir, long scannerLeaseMillis) {
    this.serverName = serverName;
    this.engine = engine;
    this.regionsDir = dataDir.resolve("regions");
    this.leases = new ScannerLeases(scannerLeaseMillis, serverName.getStartCode() << 16);
  }

  public ServerName serverName() {
    return serverName;
  }

  /** Serves {@code hbase:meta} from this source (the master's catalog). */
  public void serveMeta(MetaSource source) {
    this.meta = source;
  }

  MetaSource meta() {
    return meta;
  }

  ScannerLeases leases() {
    return leases;
  }

  Nonces nonces() {
    return nonces;
  }

  Path regionDir(RegionInfo info) {
    return regionsDir.resolve(info.getEncodedName());
  }

  /** Opens (creating if new) the store of a region and starts serving it. */
  public void openRegion(RegionInfo info, TableDescriptor table) throws IOException {
    if (regions.containsKey(info.getEncodedName())) {
      return;
    }
    Path dir = regionDir(info);
    Region store;
    try {
      store = Files.isDirectory(dir) ? engine.open(dir) : engine.create(dir, Schemas.descriptor(table, info));
      if (!store.descriptor().families().equals(Schemas.descriptor(table, info).families())) {
        store.alterFamilies(Schemas.descriptor(table, info));
      }
    } catch (RuntimeException e) {
      throw new IOException("cannot open region " + info.getRegionNameAsString() + ": " + e.getMessage(), e);
    }
    regions.put(info.getEncodedName(), new HostedRegion(info, table, store));
    LOG.info("opened region {}", info.getRegionNameAsString());
  }

  /** Stops serving a region and closes its store. */
  public void closeRegion(String encodedName) {
    HostedRegion r = regions.remove(encodedName);
    if (r != null) {
      leases.closeRegion(r.info().getRegionNameAsString());
      r.store().close();
      LOG.info("closed region {}", r.info().getRegionNameAsString());
    }
  }

  /** Closes a region and deletes its data (table deleted or truncated). */
  public void dropRegion(RegionInfo info) throws IOException {
    closeRegion(info.getEncodedName());
    io.basalt.storage.io.LocalStorageFiles.INSTANCE.deleteRecursively(regionDir(info));
  }

  /** Applies a changed table descriptor (families, settings) to its open regions. */
  public void alterTable(TableDescriptor table) {
    regions.replaceAll((name, r) -> {
      if (!r.info().getTable().equals(table.getTableName())) {
        return r;
      }
      r.store().alterFamilies(Schemas.descriptor(table, r.info()));
      return new HostedRegion(r.info(), table, r.store());
    });
  }

  HostedRegion region(byte[] regionName) throws NotServingRegionException {
    String encoded = RegionInfo.encodeRegionName(regionName);
    HostedRegion r = regions.get(encoded);
    if (r == null) {
      throw new NotServingRegionException(org.apache.hadoop.hbase.util.Bytes.toStringBinary(regionName)
          + " is not online on " + serverName);
    }
    return r;
  }

  public Collection<RegionInfo> onlineRegions() {
    return regions.values().stream().map(HostedRegion::info).toList();
  }

  public Region store(String encodedName) {
    HostedRegion r = regions.get(encodedName);
    return r == null ? null : r.store();
  }

  @Override
  public void close() {
    leases.close();
    for (String name : regions.keySet()) {
      try {
        closeRegion(name);
      } catch (RuntimeException e) {
        LOG.warn("closing region {} failed", name, e);
      }
    }
  }
}
