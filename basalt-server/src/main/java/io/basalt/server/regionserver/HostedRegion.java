package io.basalt.server.regionserver;

import io.basalt.storage.region.Region;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;

/** A region this server serves: its identity, its table's settings and its store. */
record HostedRegion(RegionInfo info, TableDescriptor table, Region store) {}
