package io.basalt.gateway.rest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.Size;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedOutputStream;

/**
 * {@code /version} (the gateway's own: REST protocol, JVM, OS, server), {@code /version/cluster} (the
 * cluster's HBase version) and {@code /status/cluster} (live and dead servers with their regions), as HBase's
 * VersionModel, StorageClusterVersionModel and StorageClusterStatusModel write them.
 */
final class ClusterResource {
  /** The REST protocol version HBase's REST server reports. */
  static final String REST_VERSION = "0.0.3";
  static final String SERVER = "Basalt REST gateway (JDK HttpServer)";

  private final Connection connection;

  ClusterResource(Connection connection) {
    this.connection = connection;
  }

  static RestReply version(RestRequest req) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("REST", REST_VERSION);
    fields.put("JVM", System.getProperty("java.vm.vendor") + " " + System.getProperty("java.version") + "-"
        + System.getProperty("java.vm.version"));
    fields.put("OS", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
        + System.getProperty("os.arch"));
    fields.put("Server", SERVER);
    fields.put("Jersey", "none");
    Media media = req.accepted(Media.TEXT);
    return switch (media) {
      case JSON -> {
        JsonObject o = new JsonObject();
        fields.forEach(o::addProperty);
        yield RestReply.ok(media, Json.bytes(o));
      }
      case XML -> {
        StringBuilder xml = new StringBuilder(Xml.DECLARATION).append("<Version");
        fields.forEach((k, v) -> xml.append(' ').append(k).append("=\"").append(Xml.escape(v)).append('"'));
        yield RestReply.ok(media, xml.append("/>").toString().getBytes(StandardCharsets.UTF_8));
      }
      case PROTOBUF -> RestReply.ok(media, Protobuf.strings(fields.values()));
      default -> RestReply.ok(Media.TEXT, ("rest " + fields.get("REST") + " [JVM: " + fields.get("JVM") + "] [OS: "
          + fields.get("OS") + "] [Server: " + fields.get("Server") + "] [Jersey: " + fields.get("Jersey") + "]\n")
          .getBytes(StandardCharsets.UTF_8));
    };
  }

  RestReply clusterVersion(RestRequest req) throws IOException {
    String version;
    try (Admin admin = connection.getAdmin()) {
      version = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.HBASE_VERSION)).getHBaseVersion();
    }
    Media media = req.accepted(Media.TEXT);
    return switch (media) {
      case JSON -> {
        JsonObject o = new JsonObject();
        o.addProperty("Version", version);
        yield RestReply.ok(media, Json.bytes(o));
      }
      case XML -> RestReply.ok(media, (Xml.DECLARATION + "<ClusterVersion Version=\"" + Xml.escape(version) + "\"/>")
          .getBytes(StandardCharsets.UTF_8));
      case TEXT -> RestReply.ok(media, (version + "\n").getBytes(StandardCharsets.UTF_8));
      default -> throw RestException.notAcceptable("the cluster version has no " + media.type + " form");
    };
  }

  RestReply status(RestRequest req) throws IOException {
    ClusterMetrics metrics;
    try (Admin admin = connection.getAdmin()) {
      metrics = admin.getClusterMetrics(EnumSet.of(ClusterMetrics.Option.LIVE_SERVERS,
          ClusterMetrics.Option.DEAD_SERVERS));
    }
    Media media = req.accepted(Media.XML);
    Base64.Encoder b64 = Base64.getEncoder();
    long regions = 0;
    long requests = 0;
    List<Map<String, Object>> live = new ArrayList<>();
    List<List<Map<String, Object>>> liveRegions = new ArrayList<>();
    for (Map.Entry<ServerName, ServerMetrics> e : metrics.getLiveServerMetrics().entrySet()) {
      ServerMetrics server = e.getValue();
      Map<String, Object> node = new LinkedHashMap<>();
      node.put("name", e.getKey().getAddress().toString());
      node.put("startCode", e.getKey().getStartcode());
      node.put("requests", server.getRequestCount());
      node.put("heapSizeMB", (long) server.getUsedHeapSize().get(Size.Unit.MEGABYTE));
      node.put("maxHeapSizeMB", (long) server.getMaxHeapSize().get(Size.Unit.MEGABYTE));
      List<Map<String, Object>> nodeRegions = new ArrayList<>();
      for (RegionMetrics region : server.getRegionMetrics().values()) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("name", b64.encodeToString(region.getRegionName()));
        r.put("stores", region.getStoreCount());
        r.put("storefiles", region.getStoreFileCount());
        r.put("storefileSizeMB", (long) region.getStoreFileSize().get(Size.Unit.MEGABYTE));
        r.put("memStoreSizeMB", (long) region.getMemStoreSize().get(Size.Unit.MEGABYTE));
        r.put("storefileIndexSizeKB", (long) region.getStoreFileIndexSize().get(Size.Unit.KILOBYTE));
        r.put("readRequestsCount", region.getReadRequestCount());
        r.put("writeRequestsCount", region.getWriteRequestCount());
        r.put("rootIndexSizeKB", (int) region.getStoreFileRootLevelIndexSize().get(Size.Unit.KILOBYTE));
        r.put("totalStaticIndexSizeKB",
            (int) region.getStoreFileUncompressedDataIndexSize().get(Size.Unit.KILOBYTE));
        r.put("totalStaticBloomSizeKB", (int) region.getBloomFilterSize().get(Size.Unit.KILOBYTE));
        r.put("totalCompactingKVs", region.getCompactingCellCount());
        r.put("currentCompactedKVs", region.getCompactedCellCount());
        nodeRegions.add(r);
      }
      regions += nodeRegions.size();
      requests += server.getRequestCount();
      live.add(node);
      liveRegions.add(nodeRegions);
    }
    double averageLoad = live.isEmpty() ? 0 : (double) regions / live.size();
    // Dead servers by their full name (host,port,startcode), live ones by host:port, as HBase names them.
    List<String> dead = metrics.getDeadServerNames().stream().map(ServerName::toString).toList();
    return switch (media) {
      case JSON -> {
        JsonObject root = new JsonObject();
        root.addProperty("regions", regions);
        root.addProperty("requests", requests);
        root.addProperty("averageLoad", averageLoad);
        JsonArray nodes = new JsonArray();
        for (int i = 0; i < live.size(); i++) {
          JsonObject node = jsonOf(live.get(i));
          JsonArray rs = new JsonArray();
          liveRegions.get(i).forEach(r -> rs.add(jsonOf(r)));
          node.add("Region", rs);
          nodes.add(node);
        }
        root.add("LiveNodes", nodes);
        JsonArray deadNodes = new JsonArray();
        dead.forEach(deadNodes::add);
        root.add("DeadNodes", deadNodes);
        yield RestReply.ok(media, Json.bytes(root));
      }
      case XML -> {
        StringBuilder xml = new StringBuilder(Xml.DECLARATION).append("<ClusterStatus regions=\"").append(regions)
            .append("\" requests=\"").append(requests).append("\" averageLoad=\"").append(averageLoad)
            .append("\"><LiveNodes>");
        for (int i = 0; i < live.size(); i++) {
          xml.append("<Node");
          attributes(xml, live.get(i));
          xml.append('>');
          for (Map<String, Object> r : liveRegions.get(i)) {
            xml.append("<Region");
            attributes(xml, r);
            xml.append("/>");
          }
          xml.append("</Node>");
        }
        xml.append("</LiveNodes><DeadNodes>");
        dead.forEach(d -> xml.append("<Node>").append(Xml.escape(d)).append("</Node>"));
        yield RestReply.ok(media, xml.append("</DeadNodes></ClusterStatus>").toString()
            .getBytes(StandardCharsets.UTF_8));
      }
      case PROTOBUF -> RestReply.ok(media, statusProtobuf(live, liveRegions, dead, regions, requests, averageLoad));
      default -> throw RestException.notAcceptable("the cluster status has no " + media.type + " form");
    };
  }

  /**
   * StorageClusterStatusMessage.proto: liveNodes=1 {name=1, startCode=2, requests=3, heapSizeMB=4,
   * maxHeapSizeMB=5, regions=6 {name=1, stores=2, storefiles=3, storefileSizeMB=4, memStoreSizeMB=5,
   * storefileIndexSizeKB=6, readRequestsCount=7, writeRequestsCount=8, rootIndexSizeKB=9,
   * totalStaticIndexSizeKB=10, totalStaticBloomSizeKB=11, totalCompactingKVs=12, currentCompactedKVs=13}},
   * deadNodes=2, regions=3, requests=4, averageLoad=5.
   */
  private static byte[] statusProtobuf(List<Map<String, Object>> live, List<List<Map<String, Object>>> liveRegions,
      List<String> dead, long regions, long requests, double averageLoad) throws IOException {
    java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    for (int i = 0; i < live.size(); i++) {
      Map<String, Object> n = live.get(i);
      java.io.ByteArrayOutputStream nodeBytes = new java.io.ByteArrayOutputStream();
      CodedOutputStream node = CodedOutputStream.newInstance(nodeBytes);
      node.writeString(1, (String) n.get("name"));
      node.writeInt64(2, (Long) n.get("startCode"));
      node.writeInt64(3, (Long) n.get("requests"));
      node.writeInt32(4, (int) (long) (Long) n.get("heapSizeMB"));
      node.writeInt32(5, (int) (long) (Long) n.get("maxHeapSizeMB"));
      for (Map<String, Object> r : liveRegions.get(i)) {
        java.io.ByteArrayOutputStream regionBytes = new java.io.ByteArrayOutputStream();
        CodedOutputStream region = CodedOutputStream.newInstance(regionBytes);
        region.writeByteArray(1, Base64.getDecoder().decode((String) r.get("name")));
        region.writeInt32(2, (Integer) r.get("stores"));
        region.writeInt32(3, (Integer) r.get("storefiles"));
        region.writeInt32(4, (int) (long) (Long) r.get("storefileSizeMB"));
        region.writeInt32(5, (int) (long) (Long) r.get("memStoreSizeMB"));
        region.writeInt64(6, (Long) r.get("storefileIndexSizeKB"));
        region.writeInt64(7, (Long) r.get("readRequestsCount"));
        region.writeInt64(8, (Long) r.get("writeRequestsCount"));
        region.writeInt32(9, (Integer) r.get("rootIndexSizeKB"));
        region.writeInt32(10, (Integer) r.get("totalStaticIndexSizeKB"));
        region.writeInt32(11, (Integer) r.get("totalStaticBloomSizeKB"));
        region.writeInt64(12, (Long) r.get("totalCompactingKVs"));
        region.writeInt64(13, (Long) r.get("currentCompactedKVs"));
        region.flush();
        node.writeByteArray(6, regionBytes.toByteArray());
      }
      node.flush();
      out.writeByteArray(1, nodeBytes.toByteArray());
    }
    for (String d : dead) {
      out.writeString(2, d);
    }
    out.writeInt32(3, (int) regions);
    out.writeInt64(4, requests);
    out.writeDouble(5, averageLoad);
    out.flush();
    return bytes.toByteArray();
  }

  private static JsonObject jsonOf(Map<String, Object> fields) {
    JsonObject o = new JsonObject();
    fields.forEach((k, v) -> {
      if (v instanceof Number n) {
        o.addProperty(k, n);
      } else {
        o.addProperty(k, String.valueOf(v));
      }
    });
    return o;
  }

  private static void attributes(StringBuilder xml, Map<String, Object> fields) {
    fields.forEach((k, v) -> xml.append(' ').append(k).append("=\"").append(Xml.escape(String.valueOf(v))).append('"'));
  }
}
