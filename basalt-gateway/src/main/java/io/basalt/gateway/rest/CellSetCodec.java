package io.basalt.gateway.rest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedInputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedOutputStream;
import org.w3c.dom.Element;

/**
 * CellSet in HBase REST's three encodings: JSON ({@code {"Row":[{"key":b64,"Cell":[{"column":b64,
 * "timestamp":n,"$":b64}]}]}}), XML ({@code <CellSet><Row key=b64><Cell column=b64 timestamp=n>b64</Cell>}) and
 * protobuf (CellSetMessage.proto: CellSet.rows=1, Row.key=1, Row.values=2, Cell.row=1, column=2, timestamp=3,
 * data=4). Keys, columns and values are base64 in JSON and XML, as HBase's models write them. A request may
 * leave out a row's key or a cell's column (null here): the URL's row and column stand in, as in HBase.
 */
final class CellSetCodec {
  private static final Base64.Encoder B64 = Base64.getEncoder();

  private CellSetCodec() {}

  static byte[] encode(CellSet set, Media media) {
    return switch (media) {
      case JSON -> Json.bytes(json(set));
      case XML -> xml(set).getBytes(StandardCharsets.UTF_8);
      case PROTOBUF -> protobuf(set);
      default -> throw RestException.notAcceptable("a CellSet has no " + media.type + " form");
    };
  }

  static CellSet decode(byte[] body, Media media) {
    return switch (media) {
      case JSON -> fromJson(Json.parseObject(body));
      case XML -> fromXml(Xml.parse(body, "CellSet"));
      case PROTOBUF -> fromProtobuf(body);
      default -> throw RestException.unsupportedMedia(media.type);
    };
  }

  static JsonObject json(CellSet set) {
    JsonArray rows = new JsonArray();
    for (CellSet.Row row : set.rows()) {
      JsonObject r = new JsonObject();
      r.addProperty("key", B64.encodeToString(row.key()));
      JsonArray cells = new JsonArray();
      for (CellSet.Cell cell : row.cells()) {
        JsonObject c = new JsonObject();
        c.addProperty("column", B64.encodeToString(cell.column()));
        c.addProperty("timestamp", cell.timestamp());
        c.addProperty("$", B64.encodeToString(cell.value()));
        cells.add(c);
      }
      r.add("Cell", cells);
      rows.add(r);
    }
    JsonObject root = new JsonObject();
    root.add("Row", rows);
    return root;
  }

  static String xml(CellSet set) {
    StringBuilder out = new StringBuilder(Xml.DECLARATION).append("<CellSet>");
    for (CellSet.Row row : set.rows()) {
      out.append("<Row key=\"").append(B64.encodeToString(row.key())).append("\">");
      for (CellSet.Cell cell : row.cells()) {
        out.append("<Cell column=\"").append(B64.encodeToString(cell.column())).append("\" timestamp=\"")
            .append(cell.timestamp()).append("\">").append(B64.encodeToString(cell.value())).append("</Cell>");
      }
      out.append("</Row>");
    }
    return out.append("</CellSet>").toString();
  }

  static byte[] protobuf(CellSet set) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(bytes);
      for (CellSet.Row row : set.rows()) {
        ByteArrayOutputStream rowBytes = new ByteArrayOutputStream();
        CodedOutputStream rowOut = CodedOutputStream.newInstance(rowBytes);
        rowOut.writeByteArray(1, row.key());
        for (CellSet.Cell cell : row.cells()) {
          ByteArrayOutputStream cellBytes = new ByteArrayOutputStream();
          CodedOutputStream cellOut = CodedOutputStream.newInstance(cellBytes);
          cellOut.writeByteArray(2, cell.column());
          cellOut.writeInt64(3, cell.timestamp());
          cellOut.writeByteArray(4, cell.value());
          cellOut.flush();
          rowOut.writeByteArray(2, cellBytes.toByteArray());
        }
        rowOut.flush();
        out.writeByteArray(1, rowBytes.toByteArray());
      }
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("writing to memory", e);
    }
  }

  private static CellSet fromJson(JsonObject root) {
    List<CellSet.Row> rows = new ArrayList<>();
    for (JsonElement r : Json.array(root, "Row")) {
      JsonObject row = Json.object(r, "Row");
      List<CellSet.Cell> cells = new ArrayList<>();
      for (JsonElement c : Json.array(row, "Cell")) {
        JsonObject cell = Json.object(c, "Cell");
        long ts = cell.has("timestamp") ? Json.longValue(cell, "timestamp") : HConstants.LATEST_TIMESTAMP;
        cells.add(new CellSet.Cell(Json.base64(cell, "column", false), ts, Json.base64(cell, "$", true)));
      }
      rows.add(new CellSet.Row(Json.base64(row, "key", false), cells));
    }
    return new CellSet(rows);
  }

  private static CellSet fromXml(Element root) {
    List<CellSet.Row> rows = new ArrayList<>();
    for (Element row : Xml.children(root, "Row")) {
      List<CellSet.Cell> cells = new ArrayList<>();
      for (Element cell : Xml.children(row, "Cell")) {
        String ts = Xml.attr(cell, "timestamp");
        String column = Xml.attr(cell, "column");
        cells.add(new CellSet.Cell(column == null ? null : base64(column, "Cell column"),
            ts == null ? HConstants.LATEST_TIMESTAMP : parseLong(ts, "Cell timestamp"),
            base64(cell.getTextContent().trim(), "Cell value")));
      }
      String key = Xml.attr(row, "key");
      rows.add(new CellSet.Row(key == null ? null : base64(key, "Row key"), cells));
    }
    return new CellSet(rows);
  }

  private static CellSet fromProtobuf(byte[] body) {
    try {
      List<CellSet.Row> rows = new ArrayList<>();
      CodedInputStream in = CodedInputStream.newInstance(body);
      for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
        if (tag == (1 << 3 | 2)) {
          rows.add(rowFromProtobuf(in.readByteArray()));
        } else if (!in.skipField(tag)) {
          break;
        }
      }
      return new CellSet(rows);
    } catch (IOException e) {
      throw RestException.badRequest("malformed CellSet protobuf: " + e.getMessage());
    }
  }

  private static CellSet.Row rowFromProtobuf(byte[] message) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(message);
    byte[] key = null;
    List<CellSet.Cell> cells = new ArrayList<>();
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      switch (tag) {
        case 1 << 3 | 2 -> key = in.readByteArray();
        case 2 << 3 | 2 -> cells.add(cellFromProtobuf(in.readByteArray()));
        default -> in.skipField(tag);
      }
    }
    if (key == null) {
      throw RestException.badRequest("a CellSet.Row without its required key");
    }
    return new CellSet.Row(key, cells);
  }

  private static CellSet.Cell cellFromProtobuf(byte[] message) throws IOException {
    CodedInputStream in = CodedInputStream.newInstance(message);
    byte[] column = null;
    byte[] value = new byte[0];
    long ts = HConstants.LATEST_TIMESTAMP;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      switch (tag) {
        case 2 << 3 | 2 -> column = in.readByteArray();
        case 3 << 3 -> ts = in.readInt64();
        case 4 << 3 | 2 -> value = in.readByteArray();
        default -> in.skipField(tag);
      }
    }
    if (column == null) {
      throw RestException.badRequest("a Cell without its column");
    }
    return new CellSet.Cell(column, ts, value);
  }

  static byte[] base64(String text, String what) {
    if (text == null) {
      throw RestException.badRequest(what + " is missing");
    }
    try {
      return Base64.getDecoder().decode(text);
    } catch (IllegalArgumentException e) {
      throw RestException.badRequest(what + " is not base64: " + e.getMessage());
    }
  }

  static long parseLong(String text, String what) {
    try {
      return Long.parseLong(text.trim());
    } catch (NumberFormatException e) {
      throw RestException.badRequest(what + " is not a number: " + text);
    }
  }
}
