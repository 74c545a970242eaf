package io.basalt.server.bulk;

/**
 * The bulk load call as it travels: HBase's ClientService {@code ExecService} (a coprocessor endpoint call on
 * one region, so the unmodified HBase client locates the region, retries and relocates it, with its TLS and
 * authentication) naming this service and method. The request is a message with one bytes field (1: a
 * {@link LoadBatch}); the response one uint32 field (1: how many of the batch's leading rows the region
 * took: those inside its key range, after a split maybe fewer than sent).
 */
public final class BulkLoadCall {
  public static final String PACKAGE = "basalt";
  public static final String SERVICE_NAME = "BulkLoad";
  /** The name the client sends: the service's full protobuf name. */
  public static final String SERVICE = PACKAGE + "." + SERVICE_NAME;
  public static final String METHOD = "Load";

  private BulkLoadCall() {}
}
