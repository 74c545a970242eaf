package io.basalt.gateway.rest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.NamespaceDescriptor;
import org.apache.hadoop.hbase.NamespaceNotFoundException;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedInputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedOutputStream;
import org.w3c.dom.Element;

/**
 * {@code /namespaces} (list), {@code /namespaces/NS} (GET properties; POST creates, 403 if it exists; PUT
 * alters, 404 if it does not; DELETE) and {@code /namespaces/NS/tables}, as HBase's NamespacesModel and
 * NamespacesInstanceModel write them.
 */
final class NamespaceResource {
  private final Connection connection;

  NamespaceResource(Connection connection) {
    this.connection = connection;
  }

  RestReply list(RestRequest req) throws IOException {
    List<String> names;
    try (Admin admin = connection.getAdmin()) {
      names = List.of(admin.listNamespaces());
    }
    Media media = req.accepted(Media.XML);
    return switch (media) {
      case JSON -> {
        JsonObject root = new JsonObject();
        var array = new org.apache.hbase.thirdparty.com.google.gson.JsonArray();
        names.forEach(array::add);
        root.add("Namespace", array);
        yield RestReply.ok(media, Json.bytes(root));
      }
      case XML -> {
        StringBuilder xml = new StringBuilder(Xml.DECLARATION).append("<Namespaces>");
        names.forEach(n -> xml.append("<Namespace>").append(Xml.escape(n)).append("</Namespace>"));
        yield RestReply.ok(media, xml.append("</Namespaces>").toString().getBytes(StandardCharsets.UTF_8));
      }
      case PROTOBUF -> RestReply.ok(media, Protobuf.strings(1, names));
      default -> throw RestException.notAcceptable("a namespace list has no " + media.type + " form");
    };
  }

  RestReply get(RestRequest req, String namespace) throws IOException {
    NamespaceDescriptor descriptor;
    try (Admin admin = connection.getAdmin()) {
      descriptor = admin.getNamespaceDescriptor(namespace);
    }
    Map<String, String> properties = descriptor.getConfiguration();
    Media media = req.accepted(Media.XML);
    return switch (media) {
      case JSON -> {
        JsonObject props = new JsonObject();
        properties.forEach(props::addProperty);
        JsonObject root = new JsonObject();
        root.add("properties", props);
        yield RestReply.ok(media, Json.bytes(root));
      }
      case XML -> {
        StringBuilder xml = new StringBuilder(Xml.DECLARATION).append("<NamespaceProperties><properties>");
        properties.forEach((k, v) -> xml.append("<entry><key>").append(Xml.escape(k)).append("</key><value>")
            .append(Xml.escape(v)).append("</value></entry>"));
        yield RestReply.ok(media,
            xml.append("</properties></NamespaceProperties>").toString().getBytes(StandardCharsets.UTF_8));
      }
      case PROTOBUF -> RestReply.ok(media, propertiesProtobuf(properties));
      default -> throw RestException.notAcceptable("namespace properties have no " + media.type + " form");
    };
  }

  RestReply tables(RestRequest req, String namespace) throws IOException {
    try (Admin admin = connection.getAdmin()) {
      // Qualifiers only ("t", not "ns:t"), as HBase's NamespacesInstanceResource lists them.
      List<String> tables = new ArrayList<>();
      for (TableName table : admin.listTableNamesByNamespace(namespace)) {
        tables.add(table.getQualifierAsString());
      }
      return SchemaResource.tableList(tables, req.accepted(Media.XML));
    }
  }

  /** POST (create) or PUT (alter): the body, when there is one, holds the namespace's properties. */
  RestReply update(RestRequest req, String namespace, boolean create) throws IOException {
    Map<String, String> properties = req.body().length == 0 ? Map.of() : properties(req.body(), req.content());
    NamespaceDescriptor.Builder builder = NamespaceDescriptor.create(namespace);
    properties.forEach(builder::addConfiguration);
    try (Admin admin = connection.getAdmin()) {
      boolean exists = List.of(admin.listNamespaces()).contains(namespace);
      if (create) {
        if (exists) {
          throw new RestException(403, "namespace " + namespace + " already exists; PUT alters it");
        }
        admin.createNamespace(builder.build());
        return RestReply.empty(201);
      }
      if (!exists) {
        // 403, not 404: HBase's NamespacesInstanceResource refuses an alter of a missing namespace so.
        throw new RestException(403, "namespace " + namespace + " does not exist; POST creates it");
      }
      admin.modifyNamespace(builder.build());
      return RestReply.empty(200);
    }
  }

  RestReply delete(String namespace) throws IOException {
    try (Admin admin = connection.getAdmin()) {
      if (!List.of(admin.listNamespaces()).contains(namespace)) {
        throw new NamespaceNotFoundException(namespace);
      }
      admin.deleteNamespace(namespace);
    }
    return RestReply.empty(200);
  }

  private static Map<String, String> properties(byte[] body, Media media) {
    Map<String, String> properties = new LinkedHashMap<>();
    switch (media) {
      case JSON -> {
        JsonElement props = Json.parseObject(body).get("properties");
        if (props != null && !props.isJsonNull()) {
          for (Map.Entry<String, JsonElement> e : Json.object(props, "properties").entrySet()) {
            properties.put(e.getKey(), e.getValue().getAsString());
          }
        }
      }
      case XML -> {
        Element root = Xml.parse(body, "NamespaceProperties");
        for (Element props : Xml.children(root, "properties")) {
          for (Element entry : Xml.children(props, "entry")) {
            List<Element> key = Xml.children(entry, "key");
            List<Element> value = Xml.children(entry, "value");
            if (key.size() != 1 || value.size() != 1) {
              throw RestException.badRequest("a property <entry> needs one <key> and one <value>");
            }
            properties.put(key.get(0).getTextContent(), value.get(0).getTextContent());
          }
        }
      }
      case PROTOBUF -> {
        try {
          CodedInputStream in = CodedInputStream.newInstance(body);
          for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            if (tag != (1 << 3 | 2)) {
              in.skipField(tag);
              continue;
            }
            CodedInputStream p = CodedInputStream.newInstance(in.readByteArray());
            String key = null;
            String value = null;
            for (int t = p.readTag(); t != 0; t = p.readTag()) {
              switch (t) {
                case 1 << 3 | 2 -> key = p.readString();
                case 2 << 3 | 2 -> value = p.readString();
                default -> p.skipField(t);
              }
            }
            if (key == null || value == null) {
              throw RestException.badRequest("a namespace Property needs its key and value");
            }
            properties.put(key, value);
          }
        } catch (IOException e) {
          throw RestException.badRequest("malformed NamespaceProperties protobuf: " + e.getMessage());
        }
      }
      default -> throw RestException.unsupportedMedia(media.type);
    }
    return properties;
  }

  /** NamespacePropertiesMessage.proto: props=1 {key=1, value=2}. */
  private static byte[] propertiesProtobuf(Map<String, String> properties) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    for (Map.Entry<String, String> e : properties.entrySet()) {
      ByteArrayOutputStream prop = new ByteArrayOutputStream();
      CodedOutputStream p = CodedOutputStream.newInstance(prop);
      p.writeString(1, e.getKey());
      p.writeString(2, e.getValue());
      p.flush();
      out.writeByteArray(1, prop.toByteArray());
    }
    out.flush();
    return bytes.toByteArray();
  }
}
