package io.basalt.gateway.rest;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** A response: status, body in a representation, and the extra headers HBase sends (Location, X-Timestamp...). */
record RestReply(int status, String contentType, byte[] body, Map<String, String> headers) {
  static RestReply of(int status, Media media, byte[] body) {
    return new RestReply(status, media.type, body, new LinkedHashMap<>());
  }

  static RestReply ok(Media media, byte[] body) {
    return of(200, media, body);
  }

  static RestReply empty(int status) {
    return new RestReply(status, null, new byte[0], new LinkedHashMap<>());
  }

  /** HBase's error bodies are plain text: the reason, then the detail. */
  static RestReply error(int status, String message) {
    String reason = switch (status) {
      case 400 -> "Bad request";
      case 403 -> "Forbidden";
      case 404 -> "Not found";
      case 405 -> "Method not allowed";
      case 406 -> "Not acceptable";
      case 415 -> "Unsupported media type";
      case 503 -> "Unavailable";
      default -> "Internal server error";
    };
    byte[] body = (reason + "\r\n" + (message == null ? "" : message + "\r\n")).getBytes(StandardCharsets.UTF_8);
    return new RestReply(status, Media.TEXT.type, body, new LinkedHashMap<>());
  }

  RestReply with(String header, String value) {
    headers.put(header, value);
    return this;
  }
}
