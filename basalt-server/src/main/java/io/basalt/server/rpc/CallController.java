package io.basalt.server.rpc;

import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellScanner;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hbase.thirdparty.com.google.protobuf.RpcCallback;
import org.apache.hbase.thirdparty.com.google.protobuf.RpcController;

/**
 * Carries what a call has besides its protobuf messages: the request's cell block, the cells of the
 * response (sent as a cell block when the connection negotiated a codec), and who is calling.
 */
public final class CallController implements RpcController {
  private final List<Cell> requestCells;
  private final boolean cellBlocks;
  private final Caller caller;
  private final ArrayList<Cell> responseCells = new ArrayList<>();
  private final long deadlineNanos;

  public CallController(List<Cell> requestCells, boolean cellBlocks, Caller caller, int timeoutMillis) {
    this.requestCells = requestCells;
    this.cellBlocks = cellBlocks;
    this.caller = caller;
    this.deadlineNanos = timeoutMillis > 0 ? System.nanoTime() + timeoutMillis * 1_000_000L : Long.MAX_VALUE;
  }

  /** The request's cells, to pass to the client's converters ({@code ProtobufUtil.toPut(proto, scanner)}). */
  public CellScanner requestCellScanner() {
    return CellUtil.createCellScanner(requestCells);
  }

  /** True when results may travel as a cell block; otherwise they must be put in the protobuf messages. */
  public boolean cellBlocks() {
    return cellBlocks;
  }

  /** The name authorisation uses ({@link Caller#user()}). */
  public String user() {
    return caller.user();
  }

  /** What the transport proved about the caller (cluster membership, TLS identity). */
  public Caller caller() {
    return caller;
  }

  public void addResponseCells(Cell[] cells) {
    for (Cell c : cells) {
      responseCells.add(c);
    }
  }

  public void addResponseCell(Cell cell) {
    responseCells.add(cell);
  }

  /** Makes room for this many more response cells at once (a scan knows its count before adding them). */
  public void reserveResponseCells(int more) {
    responseCells.ensureCapacity(responseCells.size() + more);
  }

  public List<Cell> responseCells() {
    return responseCells;
  }

  /** Nanoseconds left before the client gives up on this call (Long.MAX_VALUE if it set no timeout). */
  public long remainingNanos() {
    return deadlineNanos == Long.MAX_VALUE ? Long.MAX_VALUE : deadlineNanos - System.nanoTime();
  }

  @Override
  public void reset() {
    responseCells.clear();
  }

  @Override
  public boolean failed() {
    return false;
  }

  @Override
  public String errorText() {
    return null;
  }

  @Override
  public void startCancel() {}

  @Override
  public void setFailed(String reason) {
    throw new UnsupportedOperationException(reason);
  }

  @Override
  public boolean isCanceled() {
    return false;
  }

  @Override
  public void notifyOnCancel(RpcCallback<Object> callback) {}
}
