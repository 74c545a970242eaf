package io.basalt.server.convert;

import io.basalt.storage.schema.FamilySchema;
import io.basalt.storage.schema.KeepDeletedCells;
import io.basalt.storage.schema.KeyRange;
import io.basalt.storage.schema.RegionDescriptor;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.TableDescriptor;

/** An HBase table descriptor and region as the storage layer's region descriptor. */
public final class Schemas {
  private Schemas() {}

  public static RegionDescriptor descriptor(TableDescriptor table, RegionInfo region) {
    List<FamilySchema> families = new ArrayList<>();
    for (ColumnFamilyDescriptor cf : table.getColumnFamilies()) {
      families.add(family(cf));
    }
    return new RegionDescriptor(families, new KeyRange(region.getStartKey(), region.getEndKey()));
  }

  public static FamilySchema family(ColumnFamilyDescriptor cf) {
    long ttl = cf.getTimeToLive() == HConstants.FOREVER ? FamilySchema.FOREVER : cf.getTimeToLive();
    KeepDeletedCells kdc = switch (cf.getKeepDeletedCells()) {
      case FALSE -> KeepDeletedCells.FALSE;
      case TRUE -> KeepDeletedCells.TRUE;
      case TTL -> KeepDeletedCells.TTL;
    };
    return new FamilySchema(cf.getName(), cf.getMaxVersions(), cf.getMinVersions(), ttl, kdc);
  }
}
