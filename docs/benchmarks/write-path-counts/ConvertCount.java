import com.sun.management.ThreadMXBean;
import io.basalt.server.convert.Mutations;
import io.basalt.server.rpc.CellBlocks;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.*;
import org.apache.hadoop.hbase.*;
import org.apache.hadoop.hbase.client.*;
import org.apache.hadoop.hbase.shaded.protobuf.ProtobufUtil;
import org.apache.hadoop.hbase.shaded.protobuf.generated.ClientProtos.MutationProto;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedInputStream;

/** Bytes allocated per put from request bytes to a storage RowMutation: cell-block (buffered) and protobuf (single put) forms. */
public class ConvertCount {
  static final ThreadMXBean MX = (ThreadMXBean) ManagementFactory.getThreadMXBean();
  public static void main(String[] a) throws Exception {
    boolean alias = a.length > 0 && a[0].equals("alias");
    int n = 240;
    TableDescriptor td = TableDescriptorBuilder.newBuilder(TableName.valueOf("t")).setColumnFamily(ColumnFamilyDescriptorBuilder.of("info")).build();
    List<Put> puts = new ArrayList<>();
    for (int i = 0; i < n; i++) puts.add(new Put(String.format("%026d", i).getBytes()).addColumn("info".getBytes(), "0".getBytes(), new byte[1000]));
    List<Cell> all = new ArrayList<>(); List<MutationProto> protos = new ArrayList<>(); List<byte[]> pbFrames = new ArrayList<>();
    for (Put p : puts) { all.addAll(p.getFamilyCellMap().firstEntry().getValue());
      protos.add(ProtobufUtil.toMutationNoData(MutationProto.MutationType.PUT, p));
      pbFrames.add(ProtobufUtil.toMutation(MutationProto.MutationType.PUT, p).toByteArray()); }
    ByteBuffer block = ByteBuffer.allocate(CellBlocks.encodedLength(all)); CellBlocks.encode(all, block);
    byte[] frame = block.array();
    for (int round = 0; round < 200; round++) {
      long b0 = MX.getCurrentThreadAllocatedBytes();
      CellScanner cells = CellUtil.createCellScanner(CellBlocks.decode(frame, 0, frame.length));
      for (MutationProto mp : protos) Mutations.rowMutation(ProtobufUtil.toPut(mp, cells), td);
      long b1 = MX.getCurrentThreadAllocatedBytes();
      for (byte[] f : pbFrames) { CodedInputStream in = CodedInputStream.newInstance(f); if (alias) in.enableAliasing(true);
        MutationProto mp = MutationProto.parseFrom(in); Mutations.rowMutation(ProtobufUtil.toPut(mp, null), td); }
      long b2 = MX.getCurrentThreadAllocatedBytes();
      if (round == 199) System.out.printf("cell block: %.0f B/put; protobuf-carried: %.0f B/put%n", (double) (b1 - b0) / n, (double) (b2 - b1) / n);
    }
  }
}
