package io.basalt.gateway.rest;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One HTTP request as the resources see it: path segments and query parameters URL-decoded, and the cell
 * coordinate headers HBase's RowResource reads for a raw value ({@link #CELL_HEADERS}).
 */
record RestRequest(String method, List<String> segments, Map<String, List<String>> query, String accept,
    String contentType, byte[] body, Map<String, String> cellHeaders) {
  static final List<String> CELL_HEADERS = List.of("X-Row", "X-Column", "X-Timestamp");

  static RestRequest of(String method, String rawPath, String rawQuery, String accept, String contentType, byte[] body,
      Map<String, String> cellHeaders) {
    List<String> segments = new ArrayList<>();
    for (String s : rawPath.split("/")) {
      if (!s.isEmpty()) {
        segments.add(decode(s, false));
      }
    }
    Map<String, List<String>> query = new LinkedHashMap<>();
    if (rawQuery != null && !rawQuery.isEmpty()) {
      for (String pair : rawQuery.split("&")) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        String name = decode(eq < 0 ? pair : pair.substring(0, eq), true);
        String value = eq < 0 ? "" : decode(pair.substring(eq + 1), true);
        query.computeIfAbsent(name, k -> new ArrayList<>()).add(value);
      }
    }
    Map<String, String> headers = new LinkedHashMap<>();
    if (cellHeaders != null) {
      cellHeaders.forEach((k, v) -> {
        if (v != null) {
          headers.put(k, v);
        }
      });
    }
    return new RestRequest(method, segments, query, accept, contentType, body, headers);
  }

  String timestampHeader() {
    return cellHeaders.get("X-Timestamp");
  }

  /** X-Row or X-Column as sent (raw bytes of the header, not base64), or null. */
  String cellHeader(String name) {
    return cellHeaders.get(name);
  }

  /** Path segments keep a literal '+' (row keys may hold one); query strings are form-encoded. */
  private static String decode(String s, boolean form) {
    try {
      return URLDecoder.decode(form ? s : s.replace("+", "%2B"), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw RestException.badRequest("bad URL encoding in \"" + s + "\"");
    }
  }

  String param(String name) {
    List<String> values = query.get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  List<String> params(String name) {
    return query.getOrDefault(name, List.of());
  }

  long longParam(String name, long absent) {
    String value = param(name);
    return value == null ? absent : CellSetCodec.parseLong(value, name);
  }

  Media accepted(Media fallback) {
    return Media.accepted(accept, fallback);
  }

  Media content() {
    return Media.ofContent(contentType);
  }
}
