/**
 * HBase's Thrift 1 gateway ({@code Hbase.thrift}, what happybase speaks) as an HBase client application:
 * {@link io.basalt.gateway.thrift.ThriftGateway} serves, {@link io.basalt.gateway.thrift.ThriftHandler} maps each
 * call onto the HBase client API with the semantics of HBase's own gateway. The Thrift classes in
 * {@code generated} come from {@code src/main/thrift/Hbase.thrift} (see generate-thrift.sh).
 */
package io.basalt.gateway.thrift;
