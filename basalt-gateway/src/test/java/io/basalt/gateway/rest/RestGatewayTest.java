package io.basalt.gateway.rest;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedInputStream;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * HBase's documented REST requests, made with the JDK's HTTP client against Basalt standalone + the REST
 * gateway, each answer decoded and checked, in JSON, XML and protobuf where the resource has them.
 */
@Timeout(120)
class RestGatewayTest {
  private static final String JSON = "application/json";
  private static final String XML = "text/xml";
  private static final String PB = "application/x-protobuf";
  private static final String BIN = "application/octet-stream";
  private static RestFixture rest;

  @BeforeAll
  static void start() throws Exception {
    rest = new RestFixture();
  }

  @AfterAll
  static void stop() throws Exception {
    if (rest != null) {
      rest.close();
    }
  }

  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  private static String unb64(JsonElement e) {
    return new String(Base64.getDecoder().decode(e.getAsString()), StandardCharsets.UTF_8);
  }

  private static String unb64(String s) {
    return new String(Base64.getDecoder().decode(s), StandardCharsets.UTF_8);
  }

  private static JsonObject json(HttpResponse<byte[]> response) {
    assertThat(response.headers().firstValue("Content-Type")).hasValue(JSON);
    return JsonParser.parseString(new String(response.body(), StandardCharsets.UTF_8)).getAsJsonObject();
  }

  private static Element xml(HttpResponse<byte[]> response) throws Exception {
    assertThat(response.headers().firstValue("Content-Type")).hasValue(XML);
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new ByteArrayInputStream(response.body()))
        .getDocumentElement();
  }

  private static String text(HttpResponse<byte[]> response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }

  private static void createTable(String table, String... families) throws Exception {
    StringBuilder schema = new StringBuilder("{\"name\":\"" + table + "\",\"ColumnSchema\":[");
    for (int i = 0; i < families.length; i++) {
      schema.append(i > 0 ? "," : "").append("{\"name\":\"").append(families[i]).append("\",\"VERSIONS\":\"3\"}");
    }
    var created = rest.send("PUT", "/" + table + "/schema", JSON, schema.append("]}").toString());
    assertThat(created.statusCode()).as(text(created)).isEqualTo(201);
  }

  /** One row with cells in JSON CellSet form: column, value pairs. */
  private static String cellSet(String row, String... columnValues) {
    StringBuilder cells = new StringBuilder();
    for (int i = 0; i < columnValues.length; i += 2) {
      cells.append(i > 0 ? "," : "").append("{\"column\":\"").append(b64(columnValues[i])).append("\",\"$\":\"")
          .append(b64(columnValues[i + 1])).append("\"}");
    }
    return "{\"Row\":[{\"key\":\"" + b64(row) + "\",\"Cell\":[" + cells + "]}]}";
  }

  private static void put(String table, String row, String... columnValues) throws Exception {
    var put = rest.send("PUT", "/" + table + "/" + row, JSON, cellSet(row, columnValues));
    assertThat(put.statusCode()).as(text(put)).isEqualTo(200);
  }

  /** Protobuf fields of one message: [field number, bytes or the raw number as a long]. */
  private static List<Object[]> fields(byte[] message) throws Exception {
    List<Object[]> fields = new ArrayList<>();
    CodedInputStream in = CodedInputStream.newInstance(message);
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      int field = tag >>> 3;
      Object value = switch (tag & 7) {
        case 0 -> in.readInt64();
        case 1 -> in.readFixed64();
        case 2 -> in.readByteArray();
        case 5 -> (long) in.readFixed32();
        default -> throw new AssertionError("unexpected wire type in tag " + tag);
      };
      fields.add(new Object[] {field, value});
    }
    return fields;
  }

  @Test
  void versionInEveryRepresentation() throws Exception {
    var plain = rest.get("/version", null);
    assertThat(plain.statusCode()).isEqualTo(200);
    assertThat(text(plain)).startsWith("rest 0.0.3 [JVM: ");
    assertThat(json(rest.get("/version", JSON)).get("REST").getAsString()).isEqualTo("0.0.3");
    assertThat(xml(rest.get("/version", XML)).getAttribute("REST")).isEqualTo("0.0.3");
    List<Object[]> pb = fields(rest.get("/version", PB).body());
    assertThat((int) pb.get(0)[0]).isEqualTo(1);
    assertThat(new String((byte[]) pb.get(0)[1], StandardCharsets.UTF_8)).isEqualTo("0.0.3");

    assertThat(json(rest.get("/version/cluster", JSON)).get("Version").getAsString()).isNotBlank();
    assertThat(xml(rest.get("/version/cluster", XML)).getTagName()).isEqualTo("ClusterVersion");
    JsonObject status = json(rest.get("/status/cluster", JSON));
    assertThat(status.getAsJsonArray("LiveNodes")).hasSize(1);
    assertThat(status.get("regions").getAsInt()).isPositive();
    JsonObject statusRegion = status.getAsJsonArray("LiveNodes").get(0).getAsJsonObject().getAsJsonArray("Region")
        .get(0).getAsJsonObject();
    assertThat(statusRegion.keySet()).contains("memStoreSizeMB", "storefileIndexSizeKB",
        "rootIndexSizeKB", "totalStaticIndexSizeKB", "totalStaticBloomSizeKB", "totalCompactingKVs",
        "currentCompactedKVs");
    assertThat(status.getAsJsonArray("DeadNodes")).isEmpty();
    assertThat(xml(rest.get("/status/cluster", XML)).getElementsByTagName("Node").getLength()).isEqualTo(1);
    List<Object[]> statusPb = fields(rest.get("/status/cluster", PB).body());
    assertThat(statusPb.stream().filter(f -> (int) f[0] == 1)).hasSize(1);
    assertThat(statusPb.stream().filter(f -> (int) f[0] == 3).map(f -> (long) f[1]))
        .containsExactly(status.get("regions").getAsLong());
  }

  @Test
  void namespacesCreateAlterListDelete() throws Exception {
    assertThat(rest.send("POST", "/namespaces/rest_ns", null, (String) null).statusCode()).isEqualTo(201);
    assertThat(rest.send("POST", "/namespaces/rest_ns", null, (String) null).statusCode()).isEqualTo(403);
    JsonArray names = json(rest.get("/namespaces", JSON)).getAsJsonArray("Namespace");
    assertThat(names.toString()).contains("\"rest_ns\"", "\"default\"", "\"hbase\"");
    assertThat(xml(rest.get("/namespaces", XML)).getElementsByTagName("Namespace").getLength()).isEqualTo(names.size());
    assertThat(rest.send("PUT", "/namespaces/rest_ns", JSON, "{\"properties\":{\"owner\":\"ops\"}}").statusCode())
        .isEqualTo(200);
    assertThat(json(rest.get("/namespaces/rest_ns", JSON)).getAsJsonObject("properties").get("owner").getAsString())
        .isEqualTo("ops");
    Element props = xml(rest.get("/namespaces/rest_ns", XML));
    assertThat(props.getElementsByTagName("key").item(0).getTextContent()).isEqualTo("owner");
    // HBase refuses an alter of a namespace that does not exist with 403, as it refuses a second create.
    assertThat(rest.send("PUT", "/namespaces/nowhere", JSON, "{}").statusCode()).isEqualTo(403);

    createTable("rest_ns:inner", "f");
    JsonArray tables = json(rest.get("/namespaces/rest_ns/tables", JSON)).getAsJsonArray("table");
    assertThat(tables.get(0).getAsJsonObject().get("name").getAsString()).isEqualTo("inner");
    assertThat(rest.send("DELETE", "/rest_ns:inner/schema", null, (String) null).statusCode()).isEqualTo(200);
    assertThat(rest.send("DELETE", "/namespaces/rest_ns", null, (String) null).statusCode()).isEqualTo(200);
    assertThat(rest.get("/namespaces/rest_ns", JSON).statusCode()).isEqualTo(404);
    assertThat(rest.send("DELETE", "/namespaces/rest_ns", null, (String) null).statusCode()).isEqualTo(404);
  }

  @Test
  void schemaCreateUpdateRegionsDelete() throws Exception {
    createTable("schema_t", "a");
    JsonObject schema = json(rest.get("/schema_t/schema", JSON));
    assertThat(schema.get("name").getAsString()).isEqualTo("schema_t");
    JsonObject family = schema.getAsJsonArray("ColumnSchema").get(0).getAsJsonObject();
    assertThat(family.get("name").getAsString()).isEqualTo("a");
    assertThat(family.get("VERSIONS").getAsString()).isEqualTo("3");

    // POST with a new family adds it; XML in, XML out.
    var updated = rest.send("POST", "/schema_t/schema", XML,
        "<TableSchema name=\"schema_t\"><ColumnSchema name=\"b\" VERSIONS=\"5\"/></TableSchema>");
    assertThat(updated.statusCode()).as(text(updated)).isEqualTo(200);
    NodeList columns = xml(rest.get("/schema_t/schema", XML)).getElementsByTagName("ColumnSchema");
    assertThat(columns.getLength()).isEqualTo(2);
    assertThat(((Element) columns.item(1)).getAttribute("name")).isEqualTo("b");
    assertThat(((Element) columns.item(1)).getAttribute("VERSIONS")).isEqualTo("5");
    // The form HBase's documentation uses ("@name"); POST adds a third family, PUT replaces the whole schema
    // (201, as HBase's SchemaResource answers a replace), dropping the families it does not name.
    assertThat(rest.send("POST", "/schema_t/schema", JSON,
        "{\"@name\":\"schema_t\",\"ColumnSchema\":[{\"name\":\"c\"}]}").statusCode()).isEqualTo(200);
    assertThat(json(rest.get("/schema_t/schema", JSON)).getAsJsonArray("ColumnSchema")).hasSize(3);
    assertThat(rest.send("PUT", "/schema_t/schema", JSON, "{\"name\":\"schema_t\",\"ColumnSchema\":[{\"name\":\"a\"},"
        + "{\"name\":\"b\"}]}").statusCode()).isEqualTo(201);
    assertThat(json(rest.get("/schema_t/schema", JSON)).getAsJsonArray("ColumnSchema")).hasSize(2);
    assertThat(rest.send("POST", "/schema_t/schema", JSON,
        "{\"name\":\"schema_t\",\"ColumnSchema\":[{\"name\":\"c\"}]}").statusCode()).isEqualTo(200);
    // An existing family named again is altered.
    assertThat(rest.send("POST", "/schema_t/schema", JSON, "{\"name\":\"schema_t\",\"ColumnSchema\":[{\"name\":\"a\","
        + "\"VERSIONS\":\"7\"}]}").statusCode()).isEqualTo(200);
    assertThat(json(rest.get("/schema_t/schema", JSON)).getAsJsonArray("ColumnSchema").get(0).getAsJsonObject()
        .get("VERSIONS").getAsString()).isEqualTo("7");
    List<Object[]> pb = fields(rest.get("/schema_t/schema", PB).body());
    assertThat(new String((byte[]) pb.get(0)[1], StandardCharsets.UTF_8)).isEqualTo("schema_t");
    assertThat(pb.stream().filter(f -> (int) f[0] == 3)).hasSize(3);

    assertThat(rest.get("/schema_t/exists", null).statusCode()).isEqualTo(200);
    assertThat(json(rest.get("/", JSON)).getAsJsonArray("table").toString()).contains("\"schema_t\"");
    assertThat(xml(rest.get("/", XML)).getElementsByTagName("table").getLength()).isPositive();
    JsonObject regions = json(rest.get("/schema_t/regions", JSON));
    assertThat(regions.get("name").getAsString()).isEqualTo("schema_t");
    JsonObject region = regions.getAsJsonArray("Region").get(0).getAsJsonObject();
    assertThat(region.get("startKey").getAsString()).isEmpty();
    assertThat(region.get("location").getAsString()).contains(":");

    assertThat(rest.send("DELETE", "/schema_t/schema", null, (String) null).statusCode()).isEqualTo(200);
    assertThat(rest.get("/schema_t/schema", JSON).statusCode()).isEqualTo(404);
    assertThat(rest.get("/schema_t/regions", JSON).statusCode()).isEqualTo(404);
    assertThat(rest.get("/schema_t/exists", null).statusCode()).isEqualTo(404);
    assertThat(rest.send("DELETE", "/schema_t/schema", null, (String) null).statusCode()).isEqualTo(404);
  }

  @Test
  void cellsAndRowsInAllRepresentations() throws Exception {
    createTable("cells", "cf");
    put("cells", "r1", "cf:a", "one", "cf:b", "two");
    JsonObject row = json(rest.get("/cells/r1", JSON)).getAsJsonArray("Row").get(0).getAsJsonObject();
    assertThat(unb64(row.get("key"))).isEqualTo("r1");
    JsonArray cells = row.getAsJsonArray("Cell");
    assertThat(cells).hasSize(2);
    assertThat(unb64(cells.get(0).getAsJsonObject().get("column"))).isEqualTo("cf:a");
    assertThat(unb64(cells.get(0).getAsJsonObject().get("$"))).isEqualTo("one");
    assertThat(cells.get(0).getAsJsonObject().get("timestamp").getAsLong()).isPositive();

    Element cellSet = xml(rest.get("/cells/r1/cf:b", XML));
    Element cell = (Element) cellSet.getElementsByTagName("Cell").item(0);
    assertThat(cellSet.getElementsByTagName("Cell").getLength()).isEqualTo(1);
    assertThat(unb64(cell.getAttribute("column"))).isEqualTo("cf:b");
    assertThat(unb64(cell.getTextContent())).isEqualTo("two");

    // Protobuf CellSet: rows=1 {key=1, values=2 {column=2, timestamp=3, data=4}}.
    List<Object[]> rows = fields(rest.get("/cells/r1", PB).body());
    List<Object[]> rowFields = fields((byte[]) rows.get(0)[1]);
    assertThat(new String((byte[]) rowFields.get(0)[1], StandardCharsets.UTF_8)).isEqualTo("r1");
    List<Object[]> firstCell = fields((byte[]) rowFields.get(1)[1]);
    assertThat(new String((byte[]) firstCell.get(2)[1], StandardCharsets.UTF_8)).isEqualTo("one");

    // XML and protobuf writes.
    var xmlPut = rest.send("PUT", "/cells/r2", XML, "<CellSet><Row key=\"" + b64("r2") + "\"><Cell column=\""
        + b64("cf:x") + "\">" + b64("from xml") + "</Cell></Row></CellSet>");
    assertThat(xmlPut.statusCode()).as(text(xmlPut)).isEqualTo(200);
    assertThat(rest.send("POST", "/cells/r3", null, PB, protobufCellSet("r3", "cf:y", "from protobuf")).statusCode())
        .isEqualTo(200);
    assertThat(text(rest.get("/cells/r2/cf:x", BIN))).isEqualTo("from xml");
    // No key and no column in the body: the URL's row and column stand in.
    assertThat(rest.send("PUT", "/cells/r5/cf:z", JSON, "{\"Row\":[{\"Cell\":[{\"$\":\"" + b64("url") + "\"}]}]}")
        .statusCode()).isEqualTo(200);
    assertThat(text(rest.get("/cells/r5/cf:z", BIN))).isEqualTo("url");
    assertThat(text(rest.get("/cells/r3/cf:y", BIN))).isEqualTo("from protobuf");

    // A raw value with explicit timestamps, then versions and a timestamp read.
    assertThat(rest.send("PUT", "/cells/r4/cf:v/100", null, BIN, "old".getBytes(StandardCharsets.UTF_8)).statusCode())
        .isEqualTo(200);
    assertThat(rest.send("PUT", "/cells/r4/cf:v/200", null, BIN, "new".getBytes(StandardCharsets.UTF_8)).statusCode())
        .isEqualTo(200);
    var latest = rest.get("/cells/r4/cf:v", BIN);
    assertThat(text(latest)).isEqualTo("new");
    assertThat(latest.headers().firstValue("X-Timestamp")).hasValue("200");
    assertThat(json(rest.get("/cells/r4/cf:v?v=2", JSON)).getAsJsonArray("Row").get(0).getAsJsonObject()
        .getAsJsonArray("Cell")).hasSize(2);
    assertThat(json(rest.get("/cells/r4/cf:v", JSON)).getAsJsonArray("Row").get(0).getAsJsonObject()
        .getAsJsonArray("Cell")).hasSize(1);
    assertThat(text(rest.get("/cells/r4/cf:v/100", BIN))).isEqualTo("old");
    // X-Row and X-Column (raw) name the cell of a raw value in place of the path, as in HBase's RowResource.
    assertThat(rest.sendWithHeaders("PUT", "/cells/ignored", BIN, "by headers".getBytes(StandardCharsets.UTF_8),
        "X-Row", "r6", "X-Column", "cf:h").statusCode()).isEqualTo(200);
    assertThat(text(rest.get("/cells/r6/cf:h", BIN))).isEqualTo("by headers");
    assertThat(rest.send("PUT", "/cells/r7", null, BIN, new byte[] {1}).statusCode()).isEqualTo(400);
    // Cells without a column take the path's columns in order.
    assertThat(rest.send("PUT", "/cells/r8/cf:m,cf:n", JSON, "{\"Row\":[{\"Cell\":[{\"$\":\"" + b64("first")
        + "\"},{\"$\":\"" + b64("second") + "\"}]}]}").statusCode()).isEqualTo(200);
    assertThat(text(rest.get("/cells/r8/cf:n", BIN))).isEqualTo("second");

    // Deletes: one column, then the row.
    assertThat(rest.send("DELETE", "/cells/r1/cf:a", null, (String) null).statusCode()).isEqualTo(200);
    assertThat(rest.get("/cells/r1/cf:a", JSON).statusCode()).isEqualTo(404);
    assertThat(text(rest.get("/cells/r1/cf:b", BIN))).isEqualTo("two");
    assertThat(rest.send("DELETE", "/cells/r1", null, (String) null).statusCode()).isEqualTo(200);
    assertThat(rest.get("/cells/r1", JSON).statusCode()).isEqualTo(404);
    // Deleting versions up to a timestamp keeps the newer one.
    assertThat(rest.send("DELETE", "/cells/r4/cf:v/150", null, (String) null).statusCode()).isEqualTo(200);
    assertThat(json(rest.get("/cells/r4/cf:v?v=3", JSON)).getAsJsonArray("Row").get(0).getAsJsonObject()
        .getAsJsonArray("Cell")).hasSize(1);
  }

  private static byte[] protobufCellSet(String row, String column, String value) throws Exception {
    ByteArrayOutputStream cellBytes = new ByteArrayOutputStream();
    CodedOutputStream cell = CodedOutputStream.newInstance(cellBytes);
    cell.writeByteArray(2, column.getBytes(StandardCharsets.UTF_8));
    cell.writeByteArray(4, value.getBytes(StandardCharsets.UTF_8));
    cell.flush();
    ByteArrayOutputStream rowBytes = new ByteArrayOutputStream();
    CodedOutputStream r = CodedOutputStream.newInstance(rowBytes);
    r.writeByteArray(1, row.getBytes(StandardCharsets.UTF_8));
    r.writeByteArray(2, cellBytes.toByteArray());
    r.flush();
    ByteArrayOutputStream set = new ByteArrayOutputStream();
    CodedOutputStream s = CodedOutputStream.newInstance(set);
    s.writeByteArray(1, rowBytes.toByteArray());
    s.flush();
    return set.toByteArray();
  }

  @Test
  void multiGetGlobbingAndStatelessScans() throws Exception {
    createTable("many", "cf");
    for (String row : List.of("apple", "apricot", "banana", "blueberry", "cherry")) {
      put("many", row, "cf:q", row.toUpperCase());
    }
    JsonArray got = json(rest.get("/many/multiget?row=apple&row=cherry&row=missing", JSON)).getAsJsonArray("Row");
    assertThat(got).hasSize(2);
    assertThat(unb64(got.get(0).getAsJsonObject().get("key"))).isEqualTo("apple");
    assertThat(unb64(got.get(1).getAsJsonObject().get("key"))).isEqualTo("cherry");
    assertThat(rest.get("/many/multiget?row=missing", JSON).statusCode()).isEqualTo(404);
    // column= narrows every row, as HBase's MultiRowResource: a column no row has finds nothing.
    assertThat(json(rest.get("/many/multiget?row=apple&row=banana&column=cf:q", JSON)).getAsJsonArray("Row"))
        .hasSize(2);
    assertThat(rest.get("/many/multiget?row=apple&column=cf:nothing", JSON).statusCode()).isEqualTo(404);

    JsonArray glob = json(rest.get("/many/ap*", JSON)).getAsJsonArray("Row");
    assertThat(glob).hasSize(2);
    assertThat(unb64(glob.get(1).getAsJsonObject().get("key"))).isEqualTo("apricot");
    assertThat(xml(rest.get("/many/b*", XML)).getElementsByTagName("Row").getLength()).isEqualTo(2);

    assertThat(json(rest.get("/many/*", JSON)).getAsJsonArray("Row")).hasSize(5);
    // Protobuf comes streamed as HBase sends it: 2-byte length, CellSet, per hbase.rest.scan.fetchsize rows (the
    // fixture sets 2; 5 rows: 2+2+1).
    java.nio.ByteBuffer stream = java.nio.ByteBuffer.wrap(rest.get("/many/*", PB).body());
    List<Integer> rowsPerChunk = new ArrayList<>();
    while (stream.hasRemaining()) {
      byte[] chunk = new byte[stream.getShort()];
      stream.get(chunk);
      rowsPerChunk.add(fields(chunk).size());
    }
    assertThat(rowsPerChunk).containsExactly(2, 2, 1);
    JsonArray window = json(rest.get("/many/*?startrow=b&endrow=c&limit=1", JSON)).getAsJsonArray("Row");
    assertThat(window).hasSize(1);
    assertThat(unb64(window.get(0).getAsJsonObject().get("key"))).isEqualTo("banana");
    JsonArray filtered = json(rest.get("/many/*?filter=" + java.net.URLEncoder.encode("ValueFilter(=,'substring:RR')",
        StandardCharsets.UTF_8), JSON)).getAsJsonArray("Row");
    assertThat(filtered).hasSize(2);
    assertThat(rest.get("/many/*?filter=NoSuchFilter(1)", JSON).statusCode()).isEqualTo(400);
  }

  @Test
  void statefulScannersWithBatchesAndFilters() throws Exception {
    createTable("scanned", "cf");
    for (int i = 0; i < 5; i++) {
      put("scanned", "row" + i, "cf:a", "a" + i, "cf:b", "b" + i);
    }
    // Stop row included on request: row1..row3 inclusive, start row row1 excluded -> row2, row3.
    var inclusive = rest.send("POST", "/scanned/scanner", XML, "<Scanner startRow=\"" + b64("row1") + "\" endRow=\""
        + b64("row3") + "\" includeStartRow=\"false\" includeStopRow=\"true\"/>");
    assertThat(inclusive.statusCode()).isEqualTo(201);
    NodeList inclusiveRows = xml(rest.get(inclusive.headers().firstValue("Location").orElseThrow(), XML))
        .getElementsByTagName("Row");
    assertThat(inclusiveRows.getLength()).isEqualTo(2);
    assertThat(unb64(((Element) inclusiveRows.item(0)).getAttribute("key"))).isEqualTo("row2");
    assertThat(unb64(((Element) inclusiveRows.item(1)).getAttribute("key"))).isEqualTo("row3");
    // XML scanner, two cells per GET: 10 cells come back in 5 batches, then 204.
    var created = rest.send("POST", "/scanned/scanner", XML, "<Scanner batch=\"2\"/>");
    assertThat(created.statusCode()).as(text(created)).isEqualTo(201);
    String location = created.headers().firstValue("Location").orElseThrow();
    assertThat(location).startsWith(rest.url("/scanned/scanner/"));
    int cells = 0;
    int batches = 0;
    for (int guard = 0; guard < 20; guard++) {
      var batch = rest.get(location, XML);
      if (batch.statusCode() == 204) {
        break;
      }
      assertThat(batch.statusCode()).isEqualTo(200);
      int n = xml(batch).getElementsByTagName("Cell").getLength();
      assertThat(n).isBetween(1, 2);
      cells += n;
      batches++;
    }
    assertThat(cells).isEqualTo(10);
    assertThat(batches).isEqualTo(5);
    assertThat(rest.send("DELETE", location, null, (String) null).statusCode()).isEqualTo(200);
    assertThat(rest.get(location, XML).statusCode()).isEqualTo(404);
    // HBase answers 200 to a DELETE of a scanner that is already gone.
    assertThat(rest.send("DELETE", location, null, (String) null).statusCode()).isEqualTo(200);
    // n caps a GET's rows and c its cells, as in HBase's ScannerInstanceResource; the rest waits for the next GET.
    var capped = rest.send("POST", "/scanned/scanner", XML, "<Scanner batch=\"100\"/>");
    String cappedLocation = capped.headers().firstValue("Location").orElseThrow();
    Element twoRows = xml(rest.get(cappedLocation + "?n=2", XML));
    assertThat(twoRows.getElementsByTagName("Row").getLength()).isEqualTo(2);
    assertThat(twoRows.getElementsByTagName("Cell").getLength()).isEqualTo(4);
    Element oneCell = xml(rest.get(cappedLocation + "?c=1", XML));
    assertThat(oneCell.getElementsByTagName("Cell").getLength()).isEqualTo(1);
    assertThat(unb64(((Element) oneCell.getElementsByTagName("Row").item(0)).getAttribute("key"))).isEqualTo("row2");
    assertThat(xml(rest.get(cappedLocation, XML)).getElementsByTagName("Cell").getLength()).isEqualTo(5);
    assertThat(rest.send("DELETE", cappedLocation, null, (String) null).statusCode()).isEqualTo(200);
    // A stateless scan's batchsize is Scan.setBatch, as in HBase: each 2-cell row comes as two 1-cell Rows.
    JsonArray halves = json(rest.get("/scanned/*?batchsize=1", JSON)).getAsJsonArray("Row");
    assertThat(halves).hasSize(10);
    assertThat(halves.get(0).getAsJsonObject().getAsJsonArray("Cell")).hasSize(1);

    // JSON scanner with a start row, one column and HBase's filter JSON (a FilterList of two filters).
    String filter = "{\"type\":\"FilterList\",\"op\":\"MUST_PASS_ALL\",\"filters\":["
        + "{\"type\":\"PrefixFilter\",\"value\":\"" + b64("row") + "\"},"
        + "{\"type\":\"ValueFilter\",\"op\":\"NOT_EQUAL\",\"comparator\":{\"type\":\"BinaryComparator\",\"value\":\""
        + b64("a3") + "\"}}]}";
    JsonObject spec = new JsonObject();
    spec.addProperty("startRow", b64("row1"));
    JsonArray column = new JsonArray();
    column.add(b64("cf:a"));
    spec.add("column", column);
    spec.addProperty("batch", 100);
    spec.addProperty("filter", filter);
    var jsonScanner = rest.send("POST", "/scanned/scanner", JSON, spec.toString());
    assertThat(jsonScanner.statusCode()).as(text(jsonScanner)).isEqualTo(201);
    String jsonLocation = jsonScanner.headers().firstValue("Location").orElseThrow();
    JsonArray rows = json(rest.get(jsonLocation, JSON)).getAsJsonArray("Row");
    List<String> keys = new ArrayList<>();
    rows.forEach(r -> keys.add(unb64(r.getAsJsonObject().get("key"))));
    assertThat(keys).containsExactly("row1", "row2", "row4");
    assertThat(rest.get(jsonLocation, JSON).statusCode()).isEqualTo(204);

    // Protobuf scanner (endRow=2, batch=4), read one raw cell at a time with its coordinates in headers.
    ByteArrayOutputStream pb = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(pb);
    out.writeByteArray(2, "row1".getBytes(StandardCharsets.UTF_8));
    out.writeInt32(4, 1);
    out.flush();
    var pbScanner = rest.send("POST", "/scanned/scanner", null, PB, pb.toByteArray());
    assertThat(pbScanner.statusCode()).isEqualTo(201);
    String pbLocation = pbScanner.headers().firstValue("Location").orElseThrow();
    var first = rest.get(pbLocation, BIN);
    assertThat(text(first)).isEqualTo("a0");
    assertThat(unb64(first.headers().firstValue("X-Row").orElseThrow())).isEqualTo("row0");
    assertThat(unb64(first.headers().firstValue("X-Column").orElseThrow())).isEqualTo("cf:a");
    List<Object[]> next = fields(rest.get(pbLocation, PB).body());
    assertThat(next).hasSize(1);
    assertThat(rest.get(pbLocation, PB).statusCode()).isEqualTo(204);
  }

  @Test
  void checkAndPutCheckAndDeleteIncrementAppend() throws Exception {
    createTable("checked", "cf");
    put("checked", "r", "cf:state", "old");
    // Put "new" if cf:state is "old" (the last cell is the condition): done, then refused with 304.
    String swap = cellSet("r", "cf:state", "new", "cf:state", "old");
    assertThat(rest.send("PUT", "/checked/r?check=put", JSON, swap).statusCode()).isEqualTo(200);
    assertThat(text(rest.get("/checked/r/cf:state", BIN))).isEqualTo("new");
    assertThat(rest.send("PUT", "/checked/r?check=put", JSON, swap).statusCode()).isEqualTo(304);
    assertThat(text(rest.get("/checked/r/cf:state", BIN))).isEqualTo("new");
    assertThat(rest.send("PUT", "/checked/r?check=put", JSON, cellSet("r", "cf:other", "x", "cf:state", "new"))
        .statusCode()).isEqualTo(400);
    assertThat(rest.send("PUT", "/checked/r?check=bogus", JSON, swap).statusCode()).isEqualTo(400);

    // Delete cf:state if it holds "old" (it does not), then if it holds "new".
    assertThat(rest.send("POST", "/checked/r?check=delete", JSON, cellSet("r", "cf:state", "old")).statusCode())
        .isEqualTo(304);
    assertThat(rest.send("POST", "/checked/r?check=delete", JSON, cellSet("r", "cf:state", "new")).statusCode())
        .isEqualTo(200);
    // Only the newest version goes (Delete.addColumn, as HBase's gateway does): the older one shows again.
    assertThat(text(rest.get("/checked/r/cf:state", BIN))).isEqualTo("old");

    assertThat(rest.send("POST", "/checked/c?check=increment", JSON, cellSet("c", "cf:n", "5")).statusCode())
        .isEqualTo(200);
    var incremented = rest.send("POST", "/checked/c?check=increment&returnResult=true", JSON, "application/json",
        cellSet("c", "cf:n", "2").getBytes(StandardCharsets.UTF_8));
    assertThat(incremented.statusCode()).isEqualTo(200);
    byte[] counter = Base64.getDecoder().decode(json(incremented).getAsJsonArray("Row").get(0).getAsJsonObject()
        .getAsJsonArray("Cell").get(0).getAsJsonObject().get("$").getAsString());
    assertThat(org.apache.hadoop.hbase.util.Bytes.toLong(counter)).isEqualTo(7);
    assertThat(rest.send("POST", "/checked/c?check=increment", JSON, cellSet("c", "cf:n", "seven")).statusCode())
        .isEqualTo(400);
    assertThat(rest.send("POST", "/checked/a?check=append", JSON, cellSet("a", "cf:s", "ab")).statusCode())
        .isEqualTo(200);
    assertThat(rest.send("POST", "/checked/a?check=append", JSON, cellSet("a", "cf:s", "cd")).statusCode())
        .isEqualTo(200);
    assertThat(text(rest.get("/checked/a/cf:s", BIN))).isEqualTo("abcd");
  }

  /** Without TCP_NODELAY every GET with a body waits out the client's delayed ACK: 40 ms or more each. */
  @Test
  void getsDoNotWaitForDelayedAcks() throws Exception {
    createTable("quick", "cf");
    put("quick", "r", "cf:q", "v");
    List<Long> micros = new ArrayList<>();
    for (int i = 0; i < 21; i++) {
      long start = System.nanoTime();
      assertThat(rest.get("/quick/r/cf:q", BIN).statusCode()).isEqualTo(200);
      micros.add((System.nanoTime() - start) / 1000);
    }
    micros.sort(null);
    assertThat(micros.get(10)).as("median GET in microseconds, all: %s", micros).isLessThan(30_000);
  }

  @Test
  void badInputGetsItsStatusAndTheGatewayKeepsServing() throws Exception {
    createTable("errors", "cf");
    var badJson = rest.send("PUT", "/errors/r", JSON, "{\"Row\":[{\"key\":");
    assertThat(badJson.statusCode()).isEqualTo(400);
    assertThat(text(badJson)).startsWith("Bad request");
    assertThat(rest.send("PUT", "/errors/r", JSON, "[1,2]").statusCode()).isEqualTo(400);
    assertThat(rest.send("PUT", "/errors/r", JSON, "{\"Row\":[{\"key\":\"!!notbase64\",\"Cell\":[]}]}").statusCode())
        .isEqualTo(400);
    assertThat(rest.send("PUT", "/errors/r", XML, "<CellSet><Row").statusCode()).isEqualTo(400);
    assertThat(rest.send("PUT", "/errors/r", "text/html", "<p>").statusCode()).isEqualTo(415);
    var unknownFamily = rest.send("PUT", "/errors/r", JSON, cellSet("r", "nope:q", "v"));
    assertThat(unknownFamily.statusCode()).as(text(unknownFamily)).isEqualTo(400);
    assertThat(rest.send("PUT", "/errors/r", JSON, cellSet("r", "cf", "v")).statusCode()).isEqualTo(400);
    assertThat(rest.send("POST", "/errors/scanner", JSON, "{\"filter\":\"{\\\"type\\\":\\\"NoSuchFilter\\\"}\"}")
        .statusCode()).isEqualTo(400);
    assertThat(rest.send("POST", "/errors/scanner", JSON, "{\"filter\":\"not json\"}").statusCode()).isEqualTo(400);
    assertThat(rest.get("/errors/r?v=zero", JSON).statusCode()).isEqualTo(400);
    assertThat(rest.send("PATCH", "/errors/schema", JSON, "{}").statusCode()).isEqualTo(405);

    assertThat(rest.get("/no_such_table/r", JSON).statusCode()).isEqualTo(404);
    assertThat(rest.get("/no_such_table/schema", JSON).statusCode()).isEqualTo(404);
    assertThat(rest.send("PUT", "/no_such_table/r", JSON, cellSet("r", "cf:q", "v")).statusCode()).isEqualTo(404);
    assertThat(rest.send("POST", "/no_such_table/scanner", XML, "<Scanner/>").statusCode()).isEqualTo(404);
    assertThat(rest.get("/errors/scanner/12345", XML).statusCode()).isEqualTo(404);
    assertThat(rest.get("/errors/missing_row", JSON).statusCode()).isEqualTo(404);

    // Still serving, and the refusals are counted by status.
    put("errors", "r", "cf:q", "fine");
    assertThat(text(rest.get("/errors/r/cf:q", BIN))).isEqualTo("fine");
    String metrics = text(rest.get("http://127.0.0.1:" + rest.gateway.metricsPort() + "/metrics", null));
    assertThat(metrics).contains("basalt_rest_requests_seconds_count{method=\"PUT\",resource=\"row\",status=\"400\"}")
        .contains("basalt_rest_scanners_open");
  }
}
