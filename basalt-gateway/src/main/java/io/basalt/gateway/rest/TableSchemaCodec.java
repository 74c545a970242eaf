package io.basalt.gateway.rest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptor;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedInputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedOutputStream;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * TableSchema as HBase's TableSchemaModel writes it: the table's name and descriptor values as attributes, one
 * ColumnSchema per family with its name and values ({@code VERSIONS}, {@code TTL}, {@code BLOOMFILTER}...).
 * JSON: {@code {"name":"t","ColumnSchema":[{"name":"cf","VERSIONS":"3"}],"IS_META":"false"}}; XML:
 * {@code <TableSchema name="t"><ColumnSchema name="cf" VERSIONS="3"/></TableSchema>}; protobuf:
 * TableSchemaMessage.proto (name=1, attrs=2, columns=3, inMemory=4, readOnly=5; ColumnSchema name=1, attrs=2,
 * ttl=3, maxVersions=4, compression=5; Attribute name=1, value=2).
 */
final class TableSchemaCodec {
  /** Read-only facts HBase writes about a table; a client echoing them back must not set them. */
  private static final Set<String> DERIVED = Set.of("IS_META", "IS_ROOT", "name", "@name");

  private TableSchemaCodec() {}

  static byte[] encode(TableDescriptor descriptor, Media media) {
    Map<String, String> tableAttrs = new LinkedHashMap<>();
    descriptor.getValues().forEach((k, v) -> tableAttrs.put(Bytes.toString(k.get()), Bytes.toString(v.get())));
    tableAttrs.put("IS_META", Boolean.toString(descriptor.isMetaTable()));
    List<Map<String, String>> families = new ArrayList<>();
    for (ColumnFamilyDescriptor family : descriptor.getColumnFamilies()) {
      Map<String, String> attrs = new LinkedHashMap<>();
      family.getValues().forEach((k, v) -> attrs.put(Bytes.toString(k.get()), Bytes.toString(v.get())));
      attrs.putIfAbsent("VERSIONS", Integer.toString(family.getMaxVersions()));
      attrs.putIfAbsent("TTL", Integer.toString(family.getTimeToLive()));
      attrs.putIfAbsent("BLOOMFILTER", family.getBloomFilterType().name());
      attrs.putIfAbsent("COMPRESSION", family.getCompressionType().name());
      attrs.putIfAbsent("IN_MEMORY", Boolean.toString(family.isInMemory()));
      attrs.putIfAbsent("BLOCKSIZE", Integer.toString(family.getBlocksize()));
      Map<String, String> named = new LinkedHashMap<>();
      named.put("name", family.getNameAsString());
      named.putAll(attrs);
      families.add(named);
    }
    String name = descriptor.getTableName().getNameAsString();
    return switch (media) {
      case JSON -> {
        JsonObject root = new JsonObject();
        root.addProperty("name", name);
        JsonArray columns = new JsonArray();
        for (Map<String, String> family : families) {
          JsonObject c = new JsonObject();
          family.forEach(c::addProperty);
          columns.add(c);
        }
        root.add("ColumnSchema", columns);
        tableAttrs.forEach(root::addProperty);
        yield Json.bytes(root);
      }
      case XML -> {
        StringBuilder xml = new StringBuilder(Xml.DECLARATION).append("<TableSchema name=\"").append(Xml.escape(name))
            .append('"');
        tableAttrs.forEach((k, v) -> xml.append(' ').append(k).append("=\"").append(Xml.escape(v)).append('"'));
        xml.append('>');
        for (Map<String, String> family : families) {
          xml.append("<ColumnSchema");
          family.forEach((k, v) -> xml.append(' ').append(k).append("=\"").append(Xml.escape(v)).append('"'));
          xml.append("/>");
        }
        yield xml.append("</TableSchema>").toString().getBytes(StandardCharsets.UTF_8);
      }
      case PROTOBUF -> protobuf(name, tableAttrs, families);
      default -> throw RestException.notAcceptable("a table schema has no " + media.type + " form");
    };
  }

  static TableDescriptor decode(byte[] body, Media media, TableName table) {
    Map<String, String> tableAttrs = new LinkedHashMap<>();
    List<Map<String, String>> families = new ArrayList<>();
    switch (media) {
      case JSON -> {
        JsonObject root = Json.parseObject(body);
        for (Map.Entry<String, JsonElement> e : root.entrySet()) {
          if (!e.getKey().equals("ColumnSchema") && e.getValue().isJsonPrimitive()) {
            tableAttrs.put(e.getKey(), e.getValue().getAsString());
          }
        }
        for (JsonElement c : Json.array(root, "ColumnSchema")) {
          Map<String, String> family = new LinkedHashMap<>();
          for (Map.Entry<String, JsonElement> e : Json.object(c, "ColumnSchema").entrySet()) {
            if (!e.getValue().isJsonPrimitive()) {
              throw RestException.badRequest("ColumnSchema attribute \"" + e.getKey() + "\" must be a plain value");
            }
            family.put(e.getKey().startsWith("@") ? e.getKey().substring(1) : e.getKey(), e.getValue().getAsString());
          }
          families.add(family);
        }
      }
      case XML -> {
        Element root = Xml.parse(body, "TableSchema");
        attributes(root, tableAttrs);
        for (Element c : Xml.children(root, "ColumnSchema")) {
          Map<String, String> family = new LinkedHashMap<>();
          attributes(c, family);
          families.add(family);
        }
      }
      case PROTOBUF -> fromProtobuf(body, tableAttrs, families);
      default -> throw RestException.unsupportedMedia(media.type);
    }
    String named = tableAttrs.getOrDefault("name", tableAttrs.get("@name"));
    if (named != null && !named.equals(table.getNameAsString())) {
      throw RestException.badRequest("the schema names table " + named + " but the path names " + table);
    }
    TableDescriptorBuilder builder = TableDescriptorBuilder.newBuilder(table);
    tableAttrs.forEach((k, v) -> {
      if (!DERIVED.contains(k)) {
        builder.setValue(k, v);
      }
    });
    for (Map<String, String> family : families) {
      String name = family.get("name");
      if (name == null || name.isEmpty()) {
        throw RestException.badRequest("a ColumnSchema without a name");
      }
      ColumnFamilyDescriptorBuilder cf = ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes(name));
      family.forEach((k, v) -> {
        if (!k.equals("name")) {
          cf.setValue(k, v);
        }
      });
      try {
        builder.setColumnFamily(cf.build());
      } catch (IllegalArgumentException e) {
        throw RestException.badRequest("ColumnSchema " + name + ": " + e.getMessage());
      }
    }
    try {
      return builder.build();
    } catch (IllegalArgumentException e) {
      throw RestException.badRequest(e.getMessage());
    }
  }

  private static void attributes(Element e, Map<String, String> into) {
    var attrs = e.getAttributes();
    for (int i = 0; i < attrs.getLength(); i++) {
      Node a = attrs.item(i);
      into.put(a.getNodeName(), a.getNodeValue());
    }
  }

  private static byte[] protobuf(String name, Map<String, String> tableAttrs, List<Map<String, String>> families) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(bytes);
      out.writeString(1, name);
      for (Map.Entry<String, String> a : tableAttrs.entrySet()) {
        out.writeByteArray(2, attribute(a.getKey(), a.getValue()));
      }
      for (Map<String, String> family : families) {
        ByteArrayOutputStream column = new ByteArrayOutputStream();
        CodedOutputStream c = CodedOutputStream.newInstance(column);
        c.writeString(1, family.get("name"));
        for (Map.Entry<String, String> a : family.entrySet()) {
          if (!a.getKey().equals("name")) {
            c.writeByteArray(2, attribute(a.getKey(), a.getValue()));
          }
        }
        // The typed copies HBase's TableSchemaModel adds next to the attributes (readers take either).
        writeTypedInt(c, 3, family.get("TTL"));
        writeTypedInt(c, 4, family.get("VERSIONS"));
        if (family.containsKey("COMPRESSION")) {
          c.writeString(5, family.get("COMPRESSION"));
        }
        c.flush();
        out.writeByteArray(3, column.toByteArray());
      }
      if (tableAttrs.containsKey("READONLY")) {
        out.writeBool(5, Boolean.parseBoolean(tableAttrs.get("READONLY")));
      }
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("writing to memory", e);
    }
  }

  /** A TTL or VERSIONS value as the int32 field, when it is a number (larger values saturate). */
  private static void writeTypedInt(CodedOutputStream out, int field, String value) throws IOException {
    if (value == null) {
      return;
    }
    try {
      long n = Long.parseLong(value.trim());
      out.writeInt32(field, (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, n)));
    } catch (NumberFormatException notANumber) {
      // The attribute (field 2) still carries the value as written.
    }
  }

  private static byte[] attribute(String name, String value) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    out.writeString(1, name);
    out.writeString(2, value);
    out.flush();
    return bytes.toByteArray();
  }

  private static void fromProtobuf(byte[] body, Map<String, String> tableAttrs, List<Map<String, String>> families) {
    try {
      CodedInputStream in = CodedInputStream.newInstance(body);
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        switch (tag) {
          case 1 << 3 | 2 -> tableAttrs.put("name", in.readString());
          case 2 << 3 | 2 -> readAttribute(in.readByteArray(), tableAttrs);
          case 3 << 3 | 2 -> {
            Map<String, String> family = new LinkedHashMap<>();
            CodedInputStream c = CodedInputStream.newInstance(in.readByteArray());
            for (int t = c.readTag(); t != 0; t = c.readTag()) {
              switch (t) {
                case 1 << 3 | 2 -> family.put("name", c.readString());
                case 2 << 3 | 2 -> readAttribute(c.readByteArray(), family);
                case 3 << 3 -> family.put("TTL", Integer.toString(c.readInt32()));
                case 4 << 3 -> family.put("VERSIONS", Integer.toString(c.readInt32()));
                case 5 << 3 | 2 -> family.put("COMPRESSION", c.readString());
                default -> c.skipField(t);
              }
            }
            families.add(family);
          }
          case 4 << 3 -> tableAttrs.put("IN_MEMORY", Boolean.toString(in.readBool()));
          case 5 << 3 -> tableAttrs.put("READONLY", Boolean.toString(in.readBool()));
          default -> in.skipField(tag);
        }
      }
    } catch (IOException e) {
      throw RestException.badRequest("malformed TableSchema protobuf: " + e.getMessage());
    }
  }

  private static void readAttribute(byte[] message, Map<String, String> into) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(message);
    String name = null;
    String value = null;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      switch (tag) {
        case 1 << 3 | 2 -> name = in.readString();
        case 2 << 3 | 2 -> value = in.readString();
        default -> in.skipField(tag);
      }
    }
    if (name == null || value == null) {
      throw RestException.badRequest("a schema Attribute needs its name and value");
    }
    into.put(name, value);
  }
}
