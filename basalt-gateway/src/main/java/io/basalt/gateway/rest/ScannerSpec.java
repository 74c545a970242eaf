package io.basalt.gateway.rest;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedInputStream;
import org.w3c.dom.Element;

/**
 * The Scanner model a client POSTs to {@code /TABLE/scanner}, in HBase's three encodings (ScannerMessage.proto:
 * startRow=1, endRow=2, columns=3, batch=4, startTime=5, endTime=6, maxVersions=7, filter=8, caching=9,
 * labels=10, cacheBlocks=11). {@code batch} is how many cells one GET of the scanner returns at most. JSON and
 * XML also take HBase's {@code includeStartRow} (default true) and {@code includeStopRow} (default false).
 */
record ScannerSpec(byte[] startRow, byte[] endRow, List<byte[]> columns, int batch, long startTime, long endTime,
    int maxVersions, String filter, int caching, boolean cacheBlocks, boolean includeStartRow,
    boolean includeStopRow) {
  /** HBase's ScannerModel defaults: no cap on cells per GET, every version. */
  static final int DEFAULT_BATCH = Integer.MAX_VALUE;
  static final int DEFAULT_VERSIONS = Integer.MAX_VALUE;

  ScannerSpec {
    if (batch < 1) {
      throw RestException.badRequest("batch must be at least 1, not " + batch);
    }
    if (maxVersions < 1) {
      throw RestException.badRequest("maxVersions must be at least 1, not " + maxVersions);
    }
    if (startTime < 0 || startTime >= endTime) {
      throw RestException.badRequest("time range [" + startTime + ", " + endTime + ") is empty");
    }
  }

  static ScannerSpec decode(byte[] body, Media media) {
    return switch (media) {
      case JSON -> fromJson(Json.parseObject(body));
      case XML -> fromXml(Xml.parse(body, "Scanner"));
      case PROTOBUF -> fromProtobuf(body);
      default -> throw RestException.unsupportedMedia(media.type);
    };
  }

  Scan toScan() {
    Scan scan = new Scan();
    if (startRow.length > 0) {
      scan.withStartRow(startRow, includeStartRow);
    }
    if (endRow.length > 0) {
      scan.withStopRow(endRow, includeStopRow);
    }
    for (byte[] column : columns) {
      byte[][] parts = RowSpec.split(column);
      if (parts[1] == null) {
        scan.addFamily(parts[0]);
      } else {
        scan.addColumn(parts[0], parts[1]);
      }
    }
    try {
      scan.setTimeRange(startTime, endTime);
    } catch (IOException e) {
      throw RestException.badRequest(e.getMessage());
    }
    scan.readVersions(maxVersions);
    if (filter != null && !filter.isBlank()) {
      scan.setFilter(FilterJson.parse(filter));
    }
    if (caching > 0) {
      scan.setCaching(caching);
    }
    scan.setCacheBlocks(cacheBlocks);
    return scan;
  }

  private static ScannerSpec fromJson(JsonObject o) {
    List<byte[]> columns = new ArrayList<>();
    for (JsonElement c : Json.array(o, "column")) {
      columns.add(CellSetCodec.base64(c.getAsString(), "\"column\""));
    }
    byte[] start = Json.base64(o, "startRow", false);
    byte[] end = Json.base64(o, "endRow", false);
    String cacheBlocks = Json.string(o, "cacheBlocks", false);
    return new ScannerSpec(start == null ? HConstants.EMPTY_START_ROW : start,
        end == null ? HConstants.EMPTY_END_ROW : end, columns, intOr(o, "batch", DEFAULT_BATCH),
        o.has("startTime") ? Json.longValue(o, "startTime") : 0,
        o.has("endTime") ? Json.longValue(o, "endTime") : HConstants.LATEST_TIMESTAMP,
        intOr(o, "maxVersions", DEFAULT_VERSIONS), Json.string(o, "filter", false), intOr(o, "caching", 0),
        cacheBlocks == null || Boolean.parseBoolean(cacheBlocks),
        !"false".equals(Json.string(o, "includeStartRow", false)),
        "true".equals(Json.string(o, "includeStopRow", false)));
  }

  private static int intOr(JsonObject o, String name, int absent) {
    return o.has(name) ? Math.toIntExact(Math.min(Integer.MAX_VALUE, Json.longValue(o, name))) : absent;
  }

  private static ScannerSpec fromXml(Element e) {
    List<byte[]> columns = new ArrayList<>();
    for (Element c : Xml.children(e, "column")) {
      columns.add(CellSetCodec.base64(c.getTextContent().trim(), "<column>"));
    }
    List<Element> filters = Xml.children(e, "filter");
    String start = Xml.attr(e, "startRow");
    String end = Xml.attr(e, "endRow");
    return new ScannerSpec(start == null ? HConstants.EMPTY_START_ROW : CellSetCodec.base64(start, "startRow"),
        end == null ? HConstants.EMPTY_END_ROW : CellSetCodec.base64(end, "endRow"), columns,
        (int) attrLong(e, "batch", DEFAULT_BATCH), attrLong(e, "startTime", 0),
        attrLong(e, "endTime", HConstants.LATEST_TIMESTAMP), (int) attrLong(e, "maxVersions", DEFAULT_VERSIONS),
        filters.isEmpty() ? null : filters.get(0).getTextContent(), (int) attrLong(e, "caching", 0),
        !"false".equals(Xml.attr(e, "cacheBlocks")), !"false".equals(Xml.attr(e, "includeStartRow")),
        "true".equals(Xml.attr(e, "includeStopRow")));
  }

  private static long attrLong(Element e, String name, long absent) {
    String text = Xml.attr(e, name);
    return text == null ? absent : CellSetCodec.parseLong(text, name);
  }

  private static ScannerSpec fromProtobuf(byte[] body) {
    byte[] start = HConstants.EMPTY_START_ROW;
    byte[] end = HConstants.EMPTY_END_ROW;
    List<byte[]> columns = new ArrayList<>();
    int batch = DEFAULT_BATCH;
    long startTime = 0;
    long endTime = HConstants.LATEST_TIMESTAMP;
    int maxVersions = DEFAULT_VERSIONS;
    String filter = null;
    int caching = 0;
    boolean cacheBlocks = true;
    try {
      CodedInputStream in = CodedInputStream.newInstance(body);
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        switch (tag) {
          case 1 << 3 | 2 -> start = in.readByteArray();
          case 2 << 3 | 2 -> end = in.readByteArray();
          case 3 << 3 | 2 -> columns.add(in.readByteArray());
          case 4 << 3 -> batch = in.readInt32();
          case 5 << 3 -> startTime = in.readInt64();
          case 6 << 3 -> endTime = in.readInt64();
          case 7 << 3 -> maxVersions = in.readInt32();
          case 8 << 3 | 2 -> filter = in.readString();
          case 9 << 3 -> caching = in.readInt32();
          case 11 << 3 -> cacheBlocks = in.readBool();
          default -> in.skipField(tag);
        }
      }
    } catch (IOException e) {
      throw RestException.badRequest("malformed Scanner protobuf: " + e.getMessage());
    }
    return new ScannerSpec(start, end, columns, batch, startTime, endTime, maxVersions, filter, caching, cacheBlocks,
        true, false);
  }
}
