package io.basalt.gateway.rest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.HRegionLocation;
import org.apache.hadoop.hbase.TableExistsException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.TableNotFoundException;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.RegionLocator;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedOutputStream;

/**
 * The table list ({@code /}), {@code /TABLE/schema} (GET; PUT/POST create, or add/alter the families given;
 * DELETE drops the table) and {@code /TABLE/regions}, as HBase's TableListModel, TableSchemaModel and
 * TableInfoModel write them.
 */
final class SchemaResource {
  private final Connection connection;

  SchemaResource(Connection connection) {
    this.connection = connection;
  }

  RestReply list(RestRequest req) throws IOException {
    List<TableName> names;
    try (Admin admin = connection.getAdmin()) {
      names = List.of(admin.listTableNames());
    }
    return tableList(names.stream().map(TableName::getNameAsString).toList(), req.accepted(Media.XML));
  }

  /** TableList: {@code {"table":[{"name":..}]}}, {@code <TableList><table name=../>}, protobuf names=1. */
  static RestReply tableList(List<String> names, Media media) {
    return switch (media) {
      case JSON -> {
        JsonArray tables = new JsonArray();
        for (String name : names) {
          JsonObject t = new JsonObject();
          t.addProperty("name", name);
          tables.add(t);
        }
        JsonObject root = new JsonObject();
        root.add("table", tables);
        yield RestReply.ok(media, Json.bytes(root));
      }
      case XML -> {
        StringBuilder xml = new StringBuilder(Xml.DECLARATION).append("<TableList>");
        names.forEach(n -> xml.append("<table name=\"").append(Xml.escape(n)).append("\"/>"));
        yield RestReply.ok(media, xml.append("</TableList>").toString().getBytes(StandardCharsets.UTF_8));
      }
      case PROTOBUF ->
          RestReply.ok(media, Protobuf.strings(1, names));
      case TEXT -> {
        StringBuilder text = new StringBuilder();
        names.forEach(n -> text.append(n).append('\n'));
        yield RestReply.ok(media, text.toString().getBytes(StandardCharsets.UTF_8));
      }
      default -> throw RestException.notAcceptable("a table list has no " + media.type + " form");
    };
  }

  RestReply get(RestRequest req, TableName name) throws IOException {
    TableDescriptor descriptor;
    try (Admin admin = connection.getAdmin()) {
      descriptor = admin.getDescriptor(name);
    }
    Media media = req.accepted(Media.XML);
    return RestReply.ok(media, TableSchemaCodec.encode(descriptor, media));
  }

  /**
   * PUT replaces the table's schema (families it does not name are dropped) and POST adds or alters only the
   * families it names, as HBase's SchemaResource: 201 when the table was created or replaced, 200 for a POST
   * to an existing table, 304 when another client created the table first.
   */
  RestReply update(RestRequest req, TableName name, boolean replace) throws IOException {
    TableDescriptor wanted = TableSchemaCodec.decode(req.body(), req.content(), name);
    if (wanted.getColumnFamilyCount() == 0) {
      throw RestException.badRequest("a table schema needs at least one ColumnSchema");
    }
    try (Admin admin = connection.getAdmin()) {
      if (!admin.tableExists(name)) {
        try {
          admin.createTable(wanted);
        } catch (TableExistsException raced) {
          return RestReply.empty(304); // HTTP: a 304 carries no body
        }
        return RestReply.empty(201);
      }
      if (replace) {
        admin.modifyTable(wanted);
        return RestReply.empty(201);
      }
      TableDescriptor current = admin.getDescriptor(name);
      for (ColumnFamilyDescriptor family : wanted.getColumnFamilies()) {
        if (current.hasColumnFamily(family.getName())) {
          admin.modifyColumnFamily(name, family);
        } else {
          admin.addColumnFamily(name, family);
        }
      }
    }
    return RestReply.empty(200);
  }

  RestReply delete(TableName name) throws IOException {
    try (Admin admin = connection.getAdmin()) {
      if (!admin.tableExists(name)) {
        throw new TableNotFoundException(name);
      }
      if (admin.isTableEnabled(name)) {
        admin.disableTable(name);
      }
      admin.deleteTable(name);
    }
    return RestReply.empty(200);
  }

  /** {@code /TABLE/exists}: 200 when the table exists, 404 when not (HBase's ExistsResource). */
  RestReply exists(TableName name) throws IOException {
    try (Admin admin = connection.getAdmin()) {
      if (!admin.tableExists(name)) {
        throw new TableNotFoundException(name);
      }
    }
    return RestReply.empty(200);
  }

  /** TableInfo: the table's regions with their keys (base64) and the server holding each. */
  RestReply regions(RestRequest req, TableName name) throws IOException {
    List<HRegionLocation> locations;
    try (Admin admin = connection.getAdmin()) {
      if (!admin.tableExists(name)) {
        throw new TableNotFoundException(name);
      }
    }
    try (RegionLocator locator = connection.getRegionLocator(name)) {
      locations = locator.getAllRegionLocations();
    }
    Media media = req.accepted(Media.XML);
    Base64.Encoder b64 = Base64.getEncoder();
    List<Map<String, String>> regions = locations.stream().map(l -> {
      Map<String, String> r = new LinkedHashMap<>();
      r.put("endKey", b64.encodeToString(l.getRegion().getEndKey()));
      r.put("id", Long.toString(l.getRegion().getRegionId()));
      r.put("location", l.getServerName() == null ? "" : l.getServerName().getAddress().toString());
      r.put("name", l.getRegion().getRegionNameAsString());
      r.put("startKey", b64.encodeToString(l.getRegion().getStartKey()));
      return r;
    }).toList();
    return switch (media) {
      case JSON -> {
        JsonArray array = new JsonArray();
        for (Map<String, String> r : regions) {
          JsonObject o = new JsonObject();
          r.forEach((k, v) -> {
            if (k.equals("id")) {
              o.addProperty(k, Long.parseLong(v));
            } else {
              o.addProperty(k, v);
            }
          });
          array.add(o);
        }
        JsonObject root = new JsonObject();
        root.addProperty("name", name.getNameAsString());
        root.add("Region", array);
        yield RestReply.ok(media, Json.bytes(root));
      }
      case XML -> {
        StringBuilder xml = new StringBuilder(Xml.DECLARATION).append("<TableInfo name=\"")
            .append(Xml.escape(name.getNameAsString())).append("\">");
        for (Map<String, String> r : regions) {
          xml.append("<Region");
          r.forEach((k, v) -> xml.append(' ').append(k).append("=\"").append(Xml.escape(v)).append('"'));
          xml.append("/>");
        }
        yield RestReply.ok(media, xml.append("</TableInfo>").toString().getBytes(StandardCharsets.UTF_8));
      }
      case PROTOBUF -> RestReply.ok(media, tableInfoProtobuf(name, locations));
      default -> throw RestException.notAcceptable("region lists have no " + media.type + " form");
    };
  }

  /** TableInfoMessage.proto: name=1, regions=2 {name=1, startKey=2, endKey=3, id=4, location=5}. */
  private static byte[] tableInfoProtobuf(TableName name, List<HRegionLocation> locations) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    out.writeString(1, name.getNameAsString());
    for (HRegionLocation l : locations) {
      ByteArrayOutputStream region = new ByteArrayOutputStream();
      CodedOutputStream r = CodedOutputStream.newInstance(region);
      r.writeString(1, l.getRegion().getRegionNameAsString());
      r.writeByteArray(2, l.getRegion().getStartKey());
      r.writeByteArray(3, l.getRegion().getEndKey());
      r.writeInt64(4, l.getRegion().getRegionId());
      if (l.getServerName() != null) {
        r.writeString(5, l.getServerName().getAddress().toString());
      }
      r.flush();
      out.writeByteArray(2, region.toByteArray());
    }
    out.flush();
    return bytes.toByteArray();
  }
}
