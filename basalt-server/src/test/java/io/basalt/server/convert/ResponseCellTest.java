package io.basalt.server.convert;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.server.rpc.CellBlocks;
import io.basalt.storage.cell.CellType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellComparator;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.KeyValue;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.junit.jupiter.api.Test;

/** A response cell must reach the client exactly as the KeyValue copy it replaces did. */
class ResponseCellTest {
  private static final List<io.basalt.storage.cell.Cell> CELLS = List.of(
      new io.basalt.storage.cell.Cell(bytes("row-1"), bytes("f"), bytes("q1"), 42, CellType.PUT, bytes("value one")),
      new io.basalt.storage.cell.Cell(bytes("row-1"), bytes("f"), new byte[0], 7, CellType.PUT, new byte[0]),
      new io.basalt.storage.cell.Cell(new byte[] {0, 1, 0}, bytes("fam"), bytes("q"), Long.MAX_VALUE - 1,
          CellType.DELETE_COLUMN, null));

  @Test
  void encodesAsTheKeyValueCopy() {
    List<Cell> views = List.of(Cells.forResponse(CELLS));
    List<Cell> copies = Cells.toHBase(CELLS);
    assertThat(CellBlocks.encodedLength(views)).isEqualTo(CellBlocks.encodedLength(copies));
    ByteBuffer a = ByteBuffer.allocate(CellBlocks.encodedLength(views));
    ByteBuffer b = ByteBuffer.allocate(CellBlocks.encodedLength(copies));
    CellBlocks.encode(views, a);
    CellBlocks.encode(copies, b);
    assertThat(a.array()).isEqualTo(b.array());

    for (int i = 0; i < CELLS.size(); i++) {
      Cell v = views.get(i);
      KeyValue kv = (KeyValue) copies.get(i);
      assertThat(CellComparator.getInstance().compare(v, kv)).isZero();
      assertThat(CellUtil.matchingValue(v, kv)).isTrue();
      assertThat(v.getType()).isEqualTo(kv.getType());
      assertThat(v.getSerializedSize()).isEqualTo(kv.getSerializedSize());
      assertThat(v.heapSize()).isPositive();
    }
  }

  @Test
  void convertsToTheSameProtobufResult() {
    Result views = Result.create(Cells.forResponse(CELLS), null, true, true);
    Result copies = Result.create(Cells.toHBase(CELLS), null, true, true);
    assertThat(ProtobufUtil.toResult(views)).isEqualTo(ProtobufUtil.toResult(copies));
    assertThat(ProtobufUtil.toResultNoData(views)).isEqualTo(ProtobufUtil.toResultNoData(copies));
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
