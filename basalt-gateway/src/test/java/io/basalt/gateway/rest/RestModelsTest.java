package io.basalt.gateway.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.apache.hadoop.hbase.HConstants;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.TableDescriptor;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.util.Bytes;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedInputStream;
import org.junit.jupiter.api.Test;

/** The request models without a cluster: path specs, filter JSON, CellSet encodings, refusals. */
class RestModelsTest {
  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void rowSpecsReadColumnsTimestampsVersionsAndPrefixes() {
    RowSpec spec = RowSpec.parse(List.of("r1", "cf:a,cf2", "100,200"), "3");
    assertThat(Bytes.toString(spec.row())).isEqualTo("r1");
    assertThat(spec.columns()).extracting(Bytes::toString).containsExactly("cf:a", "cf2");
    assertThat(spec.startTime()).isEqualTo(100);
    assertThat(spec.endTime()).isEqualTo(200);
    assertThat(spec.exactTime()).isFalse();
    assertThat(spec.maxVersions()).isEqualTo(3);
    RowSpec exact = RowSpec.parse(List.of("r", "cf:q", "42"), null);
    assertThat(exact.exactTime()).isTrue();
    assertThat(exact.endTime()).isEqualTo(42);
    RowSpec prefix = RowSpec.parse(List.of("ab*"), null);
    assertThat(prefix.prefix()).isTrue();
    assertThat(Bytes.toString(prefix.row())).isEqualTo("ab");
    assertThat(RowSpec.parse(List.of("r"), null).endTime()).isEqualTo(HConstants.LATEST_TIMESTAMP);

    for (List<String> bad : List.of(List.of("r", ":q"), List.of("r", "cf", "x"), List.of("r", "cf", "5,5"),
        List.of("r", "cf", "1,2,3"), List.of("r", "cf", "-1"), List.of("r", "cf", "1", "extra"))) {
      assertThatThrownBy(() -> RowSpec.parse(bad, null)).as(bad.toString()).isInstanceOf(RestException.class)
          .extracting(e -> ((RestException) e).status).isEqualTo(400);
    }
    assertThatThrownBy(() -> RowSpec.parse(List.of("r"), "0")).isInstanceOf(RestException.class);
  }

  @Test
  void filterJsonAsHBaseWritesIt() throws Exception {
    Filter prefix = FilterJson.parse("{\"type\":\"PrefixFilter\",\"value\":\"" + b64("row") + "\"}");
    assertThat(((PrefixFilter) prefix).getPrefix()).isEqualTo(Bytes.toBytes("row"));
    Filter list = FilterJson.parse("{\"type\":\"FilterList\",\"op\":\"MUST_PASS_ONE\",\"filters\":["
        + "{\"type\":\"PageFilter\",\"value\":\"10\"},"
        + "{\"type\":\"SingleColumnValueFilter\",\"op\":\"EQUAL\",\"family\":\"" + b64("cf") + "\",\"qualifier\":\""
        + b64("q") + "\",\"latestVersion\":true,\"ifMissing\":true,"
        + "\"comparator\":{\"type\":\"RegexStringComparator\",\"value\":\"^a.*\"}}]}");
    FilterList filters = (FilterList) list;
    assertThat(filters.getOperator()).isEqualTo(FilterList.Operator.MUST_PASS_ONE);
    assertThat(((PageFilter) filters.getFilters().get(0)).getPageSize()).isEqualTo(10);
    SingleColumnValueFilter scv = (SingleColumnValueFilter) filters.getFilters().get(1);
    assertThat(scv.getFilterIfMissing()).isTrue();
    assertThat(scv.getComparator()).isInstanceOf(RegexStringComparator.class);
    Filter row = FilterJson.parse("{\"type\":\"RowFilter\",\"op\":\"GREATER\",\"comparator\":"
        + "{\"type\":\"BinaryComparator\",\"value\":\"" + b64("m") + "\"}}");
    assertThat(((org.apache.hadoop.hbase.filter.RowFilter) row).getComparator()).isInstanceOf(BinaryComparator.class);

    for (String bad : List.of("{\"type\":\"NoSuchFilter\"}", "{\"value\":\"x\"}", "not json", "[]",
        "{\"type\":\"RowFilter\",\"op\":\"SIDEWAYS\",\"comparator\":{\"type\":\"BinaryComparator\",\"value\":\"\"}}",
        "{\"type\":\"RowFilter\",\"op\":\"EQUAL\"}", "{\"type\":\"PrefixFilter\",\"value\":\"%%%\"}",
        "{\"type\":\"SkipFilter\",\"filters\":[]}",
        "{\"type\":\"ValueFilter\",\"op\":\"EQUAL\","
            + "\"comparator\":{\"type\":\"RegexStringComparator\",\"value\":\"(\"}}")) {
      assertThatThrownBy(() -> FilterJson.parse(bad)).as(bad).isInstanceOf(RestException.class)
          .extracting(e -> ((RestException) e).status).isEqualTo(400);
    }
  }

  @Test
  void cellSetsRoundTripInEveryEncoding() {
    CellSet set = new CellSet(List.of(new CellSet.Row(Bytes.toBytes("k<&>"), List.of(
        new CellSet.Cell(Bytes.toBytes("cf:q"), 7, new byte[] {0, 1, (byte) 0xFF}),
        new CellSet.Cell(Bytes.toBytes("cf:r"), 8, new byte[0])))));
    for (Media media : List.of(Media.JSON, Media.XML, Media.PROTOBUF)) {
      CellSet back = CellSetCodec.decode(CellSetCodec.encode(set, media), media);
      assertThat(back.rows()).as(media.name()).hasSize(1);
      CellSet.Row row = back.rows().get(0);
      assertThat(row.key()).isEqualTo(Bytes.toBytes("k<&>"));
      assertThat(row.cells()).hasSize(2);
      assertThat(row.cells().get(0).column()).isEqualTo(Bytes.toBytes("cf:q"));
      assertThat(row.cells().get(0).timestamp()).isEqualTo(7);
      assertThat(row.cells().get(0).value()).containsExactly(0, 1, 0xFF);
      assertThat(row.cells().get(1).value()).isEmpty();
    }
    assertThatThrownBy(() -> CellSetCodec.decode(new byte[] {(byte) 0x0A, (byte) 0x7F, 1}, Media.PROTOBUF))
        .isInstanceOf(RestException.class);
    assertThatThrownBy(() -> CellSetCodec.encode(set, Media.BINARY)).isInstanceOf(RestException.class)
        .extracting(e -> ((RestException) e).status).isEqualTo(406);
  }

  /** TableSchemaMessage.proto: readOnly=5 on the table, ttl=3, maxVersions=4, compression=5 on each family. */
  @Test
  void tableSchemaProtobufCarriesHBasesTypedFields() throws Exception {
    TableDescriptor table = TableDescriptorBuilder.newBuilder(TableName.valueOf("t")).setReadOnly(true)
        .setColumnFamily(ColumnFamilyDescriptorBuilder.newBuilder(Bytes.toBytes("cf")).setMaxVersions(4)
            .setTimeToLive(600).build()).build();
    CodedInputStream in = CodedInputStream.newInstance(TableSchemaCodec.encode(table, Media.PROTOBUF));
    Boolean readOnly = null;
    byte[] column = null;
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      switch (tag >>> 3) {
        case 3 -> column = in.readByteArray();
        case 5 -> readOnly = in.readBool();
        default -> in.skipField(tag);
      }
    }
    assertThat(readOnly).isTrue();
    assertThat(column).isNotNull();
    Integer ttl = null;
    Integer versions = null;
    String compression = null;
    CodedInputStream c = CodedInputStream.newInstance(column);
    for (int tag = c.readTag(); tag != 0; tag = c.readTag()) {
      switch (tag >>> 3) {
        case 3 -> ttl = c.readInt32();
        case 4 -> versions = c.readInt32();
        case 5 -> compression = c.readString();
        default -> c.skipField(tag);
      }
    }
    assertThat(ttl).isEqualTo(600);
    assertThat(versions).isEqualTo(4);
    assertThat(compression).isEqualTo("NONE");
    TableDescriptor back = TableSchemaCodec.decode(TableSchemaCodec.encode(table, Media.PROTOBUF), Media.PROTOBUF,
        TableName.valueOf("t"));
    assertThat(back.isReadOnly()).isTrue();
    assertThat(back.getColumnFamily(Bytes.toBytes("cf")).getMaxVersions()).isEqualTo(4);
  }

  @Test
  void aReadOnlyGatewayRefusesWritesBeforeTouchingTheCluster() {
    RestRouter router = new RestRouter(null, new RestScanners(1_000_000_000L, System::nanoTime), true);
    RestReply put = router.handle(RestRequest.of("PUT", "/t/r/cf:q", null, null, "application/octet-stream",
        new byte[] {1}, null), "http://h");
    assertThat(put.status()).isEqualTo(403);
    RestReply version = router.handle(RestRequest.of("GET", "/version", null, "application/json", null, new byte[0],
        null), "http://h");
    assertThat(version.status()).isEqualTo(200);
    assertThat(new String(version.body(), StandardCharsets.UTF_8)).contains("\"REST\":\"0.0.3\"");
  }

  @Test
  void pathsAndQueriesAreDecodedAsHBaseClientsEncodeThem() {
    RestRequest req = RestRequest.of("GET", "/t/a%2Fb+c/cf%3Aq", "row=x+y&row=z%26&v=2", null, null, new byte[0],
        null);
    assertThat(req.segments()).containsExactly("t", "a/b+c", "cf:q");
    assertThat(req.params("row")).containsExactly("x y", "z&");
    assertThat(RestRouter.resourceOf(req.segments())).isEqualTo("row");
    assertThat(RestRouter.resourceOf(List.of("t", "pre*"))).isEqualTo("scan");
    assertThat(RestRouter.resourceOf(List.of())).isEqualTo("tables");
    assertThat(Media.accepted("text/html, application/json;q=0.9", Media.XML)).isEqualTo(Media.JSON);
    assertThat(Media.accepted("*/*", Media.XML)).isEqualTo(Media.XML);
    assertThatThrownBy(() -> Media.ofContent("text/html")).isInstanceOf(RestException.class)
        .extracting(e -> ((RestException) e).status).isEqualTo(415);
  }
}
