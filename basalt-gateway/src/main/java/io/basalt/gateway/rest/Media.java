package io.basalt.gateway.rest;

import java.util.Locale;

/** The representations HBase's REST server speaks, named by the media types its clients send. */
enum Media {
  XML("text/xml"), JSON("application/json"), PROTOBUF("application/x-protobuf"), BINARY("application/octet-stream"),
  TEXT("text/plain");

  final String type;

  Media(String type) {
    this.type = type;
  }

  /** The representation an Accept header asks for, in the header's order; {@code fallback} when it names none. */
  static Media accepted(String accept, Media fallback) {
    if (accept == null || accept.isBlank()) {
      return fallback;
    }
    for (String part : accept.split(",")) {
      Media media = named(part);
      if (media != null) {
        return media;
      }
    }
    return fallback;
  }

  /** The representation of a request body; HBase answers 415 for a type it does not read. */
  static Media ofContent(String contentType) {
    Media media = contentType == null ? null : named(contentType);
    if (media == null || media == TEXT) {
      throw RestException.unsupportedMedia(contentType);
    }
    return media;
  }

  private static Media named(String header) {
    String type = header.split(";")[0].trim().toLowerCase(Locale.ROOT);
    return switch (type) {
      case "text/xml", "application/xml" -> XML;
      case "application/json" -> JSON;
      case "application/x-protobuf", "application/protobuf" -> PROTOBUF;
      case "application/octet-stream" -> BINARY;
      case "text/plain" -> TEXT;
      default -> null;
    };
  }
}
