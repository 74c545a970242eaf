package io.basalt.gateway.rest;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import org.apache.hbase.thirdparty.com.google.protobuf.CodedOutputStream;

/** Small protobuf writers for HBase REST's flat messages, with the protobuf runtime the HBase client ships. */
final class Protobuf {
  private Protobuf() {}

  /** A message of string fields numbered 1, 2, 3... in order (VersionMessage.proto). */
  static byte[] strings(java.util.Collection<String> values) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(bytes);
      int field = 1;
      for (String value : values) {
        out.writeString(field++, value);
      }
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("writing to memory", e);
    }
  }

  /** A message whose only content is one repeated string field. */
  static byte[] strings(int field, List<String> values) {
    try {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      CodedOutputStream out = CodedOutputStream.newInstance(bytes);
      for (String value : values) {
        out.writeString(field, value);
      }
      out.flush();
      return bytes.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("writing to memory", e);
    }
  }
}
