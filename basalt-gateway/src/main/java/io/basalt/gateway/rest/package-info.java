/**
 * HBase's REST API (the "Stargate" server of {@code hbase rest start}) as an HBase client application:
 * {@link io.basalt.gateway.rest.RestGateway} serves HTTP with the JDK's server, {@code RestRouter} maps paths onto
 * the resources ({@code RowResource}, {@code ScannerResource}, {@code SchemaResource}, {@code NamespaceResource},
 * {@code ClusterResource}) and failures onto HBase's status codes. The models travel as HBase writes them: JSON
 * and XML with base64 keys and values ({@code CellSetCodec}, {@code TableSchemaCodec}, {@code ScannerSpec},
 * {@code FilterJson}) and protobuf hand-encoded after HBase's .proto messages with the runtime the HBase client
 * ships.
 */
package io.basalt.gateway.rest;
