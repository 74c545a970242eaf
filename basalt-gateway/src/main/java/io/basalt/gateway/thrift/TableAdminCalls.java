package io.basalt.gateway.thrift;

import static io.basalt.gateway.thrift.ThriftConversions.bytes;

import io.basalt.gateway.thrift.generated.AlreadyExists;
import io.basalt.gateway.thrift.generated.ColumnDescriptor;
import io.basalt.gateway.thrift.generated.IOError;
import io.basalt.gateway.thrift.generated.IllegalArgument;
import io.basalt.gateway.thrift.generated.TAccessControlEntity;
import io.basalt.gateway.thrift.generated.TPermissionScope;
import io.basalt.gateway.thrift.generated.TRegionInfo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.security.access.AccessControlClient;
import org.apache.hadoop.hbase.security.access.Permission;
import org.apache.hadoop.hbase.util.Bytes;

/** The table and cluster calls of Thrift 1 (everything that goes through Admin, meta or access control). */
final class TableAdminCalls {
  private final Connection connection;

  TableAdminCalls(Connection connection) {
    this.connection = connection;
  }

  static TableName tableName(ByteBuffer name) {
    return TableName.valueOf(bytes(name));
  }

  void enable(ByteBuffer table) throws IOError {
    try (Admin admin = connection.getAdmin()) {
      admin.enableTable(tableName(table));
    } catch (IOException | IllegalArgumentException e) {
      throw ThriftErrors.io(e);
    }
  }

  void disable(ByteBuffer table) throws IOError {
    try (Admin admin = connection.getAdmin()) {
      admin.disableTable(tableName(table));
    } catch (IOException | IllegalArgumentException e) {
      throw ThriftErrors.io(e);
    }
  }

  boolean isEnabled(ByteBuffer table) throws IOError {
    try (Admin admin = connection.getAdmin()) {
      return admin.isTableEnabled(tableName(table));
    } catch (IOException | IllegalArgumentException e) {
      throw ThriftErrors.io(e);
    }
  }

  /** A full region name ({@code table,start,id.encoded.}) names a region, anything else a table. */
  void compact(ByteBuffer tableOrRegion, boolean major) throws IOError {
    byte[] name = bytes(tableOrRegion);
    try (Admin admin = connection.getAdmin()) {
      if (RegionInfo.parseRegionNameOrReturnNull(name) != null) {
        if (major) {
          admin.majorCompactRegion(name);
        } else {
          admin.compactRegion(name);
        }
      } else if (major) {
        admin.majorCompact(TableName.valueOf(name));
      } else {
        admin.compact(TableName.valueOf(name));
      }
    } catch (IOException | IllegalArgumentException e) {
      throw ThriftErrors.io(e);
    }
  }

  List<ByteBuffer> tableNames() throws IOError {
    try (Admin admin = connection.getAdmin()) {
      List<ByteBuffer> out = new ArrayList<>();
      for (TableName t : admin.listTableNames()) {
        out.add(ByteBuffer.wrap(t.getName()));
      }
      return out;
    } catch (IOException e) {
      throw ThriftErrors.io(e);
    }
  }

  Map<ByteBuffer, Boolean> tableNamesWithIsEnabled() throws IOError {
    try (Admin admin = connection.getAdmin()) {
      Map<ByteBuffer, Boolean> out = new HashMap<>();
      for (TableName t : admin.listTableNames()) {
        out.put(ByteBuffer.wrap(t.getName()), admin.isTableEnabled(t));
      }
      return out;
    } catch (IOException e) {
      throw ThriftErrors.io(e);
    }
  }

  Map<ByteBuffer, ColumnDescriptor> columnDescriptors(ByteBuffer table) throws IOError {
    try (Table t = connection.getTable(tableName(table))) {
      Map<ByteBuffer, ColumnDescriptor> out = new HashMap<>();
      for (ColumnFamilyDescriptor f : t.getDescriptor().getColumnFamilies()) {
        ColumnDescriptor d = ThriftConversions.columnDescriptor(f);
        out.put(ByteBuffer.wrap(d.getName()), d);
      }
      return out;
    } catch (IOException | IllegalArgumentException e) {
      throw ThriftErrors.io(e);
    }
  }

  /** Every region with its server; an unknown table has none (HBase's gateway answers an empty list too). */
  List<TRegionInfo> regions(ByteBuffer table) throws IOError {
    try (RegionLocator locator = connection.getRegionLocator(tableName(table))) {
      List<TRegionInfo> out = new ArrayList<>();
      for (HRegionLocation location : locator.getAllRegionLocations()) {
        out.add(ThriftConversions.regionInfo(location));
      }
      return out;
    } catch (TableNotFoundException e) {
      return new ArrayList<>();
    } catch (IOException | IllegalArgumentException e) {
      throw ThriftErrors.io(e);
    }
  }

  void create(ByteBuffer table, List<ColumnDescriptor> families) throws IOError, IllegalArgument, AlreadyExists {
    try (Admin admin = connection.getAdmin()) {
      TableName name = tableName(table);
      if (admin.tableExists(name)) {
        throw new AlreadyExists("table name already in use");
      }
      TableDescriptorBuilder builder = TableDescriptorBuilder.newBuilder(name);
      for (ColumnDescriptor d : families == null ? List.<ColumnDescriptor>of() : families) {
        builder.setColumnFamily(ThriftConversions.columnFamily(d));
      }
      admin.createTable(builder.build());
    } catch (IllegalArgumentException e) {
      throw ThriftErrors.illegalArgument(e);
    } catch (IOException e) {
      throw ThriftErrors.io(e);
    }
  }

  void delete(ByteBuffer table) throws IOError {
    try (Admin admin = connection.getAdmin()) {
      TableName name = tableName(table);
      if (!admin.tableExists(name)) {
        throw ThriftErrors.io("table does not exist");
      }
      admin.deleteTable(name);
    } catch (IOException | IllegalArgumentException e) {
      throw ThriftErrors.io(e);
    }
  }

  /** The region of hbase:meta's row {@code table,row,...}: the last meta row at or before it. */
  TRegionInfo regionOfMetaRow(ByteBuffer metaRow) throws IOError {
    Scan scan = new Scan().withStartRow(bytes(metaRow)).setReversed(true).addFamily(HConstants.CATALOG_FAMILY)
        .setOneRowLimit();
    try (Table meta = connection.getTable(TableName.META_TABLE_NAME); ResultScanner rs = meta.getScanner(scan)) {
      Result r = rs.next();
      RegionInfo info = r == null ? null
          : RegionInfo.parseFromOrNull(r.getValue(HConstants.CATALOG_FAMILY, HConstants.REGIONINFO_QUALIFIER));
      if (info == null) {
        throw ThriftErrors.io("RegionInfo REGIONINFO was null or empty in hbase:meta");
      }
      byte[] server = r.getValue(HConstants.CATALOG_FAMILY, HConstants.SERVER_QUALIFIER);
      byte[] startCode = r.getValue(HConstants.CATALOG_FAMILY, HConstants.STARTCODE_QUALIFIER);
      ServerName sn = server == null ? null : ServerName.valueOf(Bytes.toString(server),
          startCode == null ? ServerName.NON_STARTCODE : Bytes.toLong(startCode));
      return ThriftConversions.regionInfo(new HRegionLocation(info, sn));
    } catch (IOException | IllegalArgumentException e) {
      throw ThriftErrors.io(e);
    }
  }

  String clusterId() {
    return connection.getClusterId();
  }

  /** HBase's one-letter action codes (RWXCA). */
  private static Permission.Action action(int code) {
    for (Permission.Action a : Permission.Action.values()) {
      if (a.code() == code) {
        return a;
      }
    }
    throw new IllegalArgumentException("unknown permission action '" + (char) code + "' (expected R, W, X, C, A)");
  }

  /** Grants or revokes through the cluster's access control, which answers itself if it has none. */
  boolean permission(TAccessControlEntity info, boolean grant) throws IOError {
    try {
      Permission.Action[] actions = info.getActions().chars().mapToObj(TableAdminCalls::action)
          .toArray(Permission.Action[]::new);
      if (info.getScope() == TPermissionScope.NAMESPACE) {
        if (grant) {
          AccessControlClient.grant(connection, info.getNsName(), info.getUsername(), actions);
        } else {
          AccessControlClient.revoke(connection, info.getNsName(), info.getUsername(), actions);
        }
      } else {
        TableName table = TableName.valueOf(info.getTableName());
        if (grant) {
          AccessControlClient.grant(connection, table, info.getUsername(), null, null, actions);
        } else {
          AccessControlClient.revoke(connection, table, info.getUsername(), null, null, actions);
        }
      }
      return true;
    } catch (Throwable e) {
      throw ThriftErrors.io(e);
    }
  }
}
