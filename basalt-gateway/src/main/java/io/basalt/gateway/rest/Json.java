package io.basalt.gateway.rest;

import java.nio.charset.StandardCharsets;
import org.apache.hbase.thirdparty.com.google.gson.Gson;
import org.apache.hbase.thirdparty.com.google.gson.GsonBuilder;
import org.apache.hbase.thirdparty.com.google.gson.JsonArray;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;
import org.apache.hbase.thirdparty.com.google.gson.JsonParser;

/**
 * Request JSON read strictly into clear 400s, and response JSON written, with the Gson the HBase client already
 * ships (shaded in hbase-thirdparty): no JSON library of our own.
 */
final class Json {
  private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();

  private Json() {}

  static byte[] bytes(JsonElement element) {
    return GSON.toJson(element).getBytes(StandardCharsets.UTF_8);
  }

  static JsonObject parseObject(byte[] body) {
    JsonElement root;
    try {
      root = JsonParser.parseString(new String(body, StandardCharsets.UTF_8));
    } catch (RuntimeException e) {
      throw RestException.badRequest("malformed JSON: " + e.getMessage());
    }
    if (!root.isJsonObject()) {
      throw RestException.badRequest("expected a JSON object, got: " + abbreviate(root.toString()));
    }
    return root.getAsJsonObject();
  }

  static JsonObject parseObject(String text) {
    return parseObject(text.getBytes(StandardCharsets.UTF_8));
  }

  /** The array under {@code name}; a single object stands for an array of one (Jackson's HBase models allow it). */
  static JsonArray array(JsonObject o, String name) {
    JsonElement e = o.get(name);
    if (e == null || e.isJsonNull()) {
      return new JsonArray();
    }
    if (e.isJsonArray()) {
      return e.getAsJsonArray();
    }
    JsonArray one = new JsonArray();
    one.add(e);
    return one;
  }

  static JsonObject object(JsonElement e, String what) {
    if (!e.isJsonObject()) {
      throw RestException.badRequest(what + " must be a JSON object, not " + abbreviate(e.toString()));
    }
    return e.getAsJsonObject();
  }

  /** A string member, or null when absent and not required. */
  static String string(JsonObject o, String name, boolean required) {
    JsonElement e = o.get(name);
    if (e == null || e.isJsonNull()) {
      if (required) {
        throw RestException.badRequest("\"" + name + "\" is missing");
      }
      return null;
    }
    if (!e.isJsonPrimitive()) {
      throw RestException.badRequest("\"" + name + "\" must be a string");
    }
    return e.getAsString();
  }

  static byte[] base64(JsonObject o, String name, boolean required) {
    String text = string(o, name, required);
    return text == null ? null : CellSetCodec.base64(text, "\"" + name + "\"");
  }

  static long longValue(JsonObject o, String name) {
    String text = string(o, name, true);
    return CellSetCodec.parseLong(text, "\"" + name + "\"");
  }

  static String abbreviate(String s) {
    return s.length() <= 80 ? s : s.substring(0, 80) + "...";
  }
}
