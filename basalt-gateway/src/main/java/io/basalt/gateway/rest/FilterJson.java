package io.basalt.gateway.rest;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.hbase.CompareOperator;
import org.apache.hadoop.hbase.filter.BinaryComparator;
import org.apache.hadoop.hbase.filter.BinaryPrefixComparator;
import org.apache.hadoop.hbase.filter.BitComparator;
import org.apache.hadoop.hbase.filter.ByteArrayComparable;
import org.apache.hadoop.hbase.filter.ColumnCountGetFilter;
import org.apache.hadoop.hbase.filter.ColumnPaginationFilter;
import org.apache.hadoop.hbase.filter.ColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.ColumnRangeFilter;
import org.apache.hadoop.hbase.filter.DependentColumnFilter;
import org.apache.hadoop.hbase.filter.FamilyFilter;
import org.apache.hadoop.hbase.filter.Filter;
import org.apache.hadoop.hbase.filter.FilterList;
import org.apache.hadoop.hbase.filter.FirstKeyOnlyFilter;
import org.apache.hadoop.hbase.filter.InclusiveStopFilter;
import org.apache.hadoop.hbase.filter.KeyOnlyFilter;
import org.apache.hadoop.hbase.filter.MultipleColumnPrefixFilter;
import org.apache.hadoop.hbase.filter.NullComparator;
import org.apache.hadoop.hbase.filter.PageFilter;
import org.apache.hadoop.hbase.filter.PrefixFilter;
import org.apache.hadoop.hbase.filter.QualifierFilter;
import org.apache.hadoop.hbase.filter.RandomRowFilter;
import org.apache.hadoop.hbase.filter.RegexStringComparator;
import org.apache.hadoop.hbase.filter.RowFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueExcludeFilter;
import org.apache.hadoop.hbase.filter.SingleColumnValueFilter;
import org.apache.hadoop.hbase.filter.SkipFilter;
import org.apache.hadoop.hbase.filter.SubstringComparator;
import org.apache.hadoop.hbase.filter.TimestampsFilter;
import org.apache.hadoop.hbase.filter.ValueFilter;
import org.apache.hadoop.hbase.filter.WhileMatchFilter;
import org.apache.hbase.thirdparty.com.google.gson.JsonElement;
import org.apache.hbase.thirdparty.com.google.gson.JsonObject;

/**
 * A scanner's filter in the JSON HBase's ScannerModel.FilterModel writes, e.g.
 * {@code {"type":"PrefixFilter","value":"cm93"}} or {@code {"type":"RowFilter","op":"EQUAL","comparator":
 * {"type":"BinaryComparator","value":"cm93MQ=="}}}: byte values in base64, except the string comparators'
 * (RegexStringComparator, SubstringComparator) and PageFilter's size, which are plain text as HBase writes them.
 */
final class FilterJson {
  private FilterJson() {}

  static Filter parse(String json) {
    return filter(Json.parseObject(json));
  }

  private static Filter filter(JsonObject f) {
    String type = Json.string(f, "type", true);
    return switch (type) {
      case "PrefixFilter" -> new PrefixFilter(Json.base64(f, "value", true));
      case "ColumnPrefixFilter" -> new ColumnPrefixFilter(Json.base64(f, "value", true));
      case "InclusiveStopFilter" -> new InclusiveStopFilter(Json.base64(f, "value", true));
      case "MultipleColumnPrefixFilter" -> new MultipleColumnPrefixFilter(base64List(f, "prefixes"));
      case "FirstKeyOnlyFilter" -> new FirstKeyOnlyFilter();
      case "KeyOnlyFilter" -> new KeyOnlyFilter();
      case "PageFilter" -> new PageFilter(number(f, "value"));
      case "ColumnCountGetFilter" -> new ColumnCountGetFilter((int) number(f, "limit"));
      case "ColumnPaginationFilter" -> new ColumnPaginationFilter((int) number(f, "limit"), (int) number(f, "offset"));
      case "ColumnRangeFilter" -> new ColumnRangeFilter(Json.base64(f, "minColumn", false),
          bool(f, "minColumnInclusive", true), Json.base64(f, "maxColumn", false),
          bool(f, "maxColumnInclusive", false));
      case "RandomRowFilter" -> new RandomRowFilter((float) number(f, "chance"));
      case "TimestampsFilter" -> new TimestampsFilter(longList(f, "timestamps"));
      case "RowFilter" -> new RowFilter(op(f), comparator(f));
      case "FamilyFilter" -> new FamilyFilter(op(f), comparator(f));
      case "QualifierFilter" -> new QualifierFilter(op(f), comparator(f));
      case "ValueFilter" -> new ValueFilter(op(f), comparator(f));
      case "SingleColumnValueFilter", "SingleColumnValueExcludeFilter" -> singleColumnValue(f, type);
      case "DependentColumnFilter" -> new DependentColumnFilter(Json.base64(f, "family", true),
          Json.base64(f, "qualifier", false), bool(f, "dropDependentColumn", false), op(f), comparator(f));
      case "SkipFilter" -> new SkipFilter(only(f));
      case "WhileMatchFilter" -> new WhileMatchFilter(only(f));
      case "FilterList" -> filterList(f);
      default -> throw RestException.badRequest("unsupported filter type \"" + type + "\"");
    };
  }

  private static Filter singleColumnValue(JsonObject f, String type) {
    byte[] family = Json.base64(f, "family", true);
    byte[] qualifier = Json.base64(f, "qualifier", false);
    SingleColumnValueFilter filter = type.equals("SingleColumnValueFilter")
        ? new SingleColumnValueFilter(family, qualifier, op(f), comparator(f))
        : new SingleColumnValueExcludeFilter(family, qualifier, op(f), comparator(f));
    filter.setFilterIfMissing(bool(f, "ifMissing", false));
    filter.setLatestVersionOnly(bool(f, "latestVersion", true));
    return filter;
  }

  private static Filter filterList(JsonObject f) {
    String op = Json.string(f, "op", false);
    FilterList.Operator operator;
    try {
      operator = op == null ? FilterList.Operator.MUST_PASS_ALL : FilterList.Operator.valueOf(op);
    } catch (IllegalArgumentException e) {
      throw RestException.badRequest("FilterList op must be MUST_PASS_ALL or MUST_PASS_ONE, not " + op);
    }
    List<Filter> filters = new ArrayList<>();
    for (JsonElement e : Json.array(f, "filters")) {
      filters.add(filter(Json.object(e, "a FilterList member")));
    }
    return new FilterList(operator, filters);
  }

  private static Filter only(JsonObject f) {
    var filters = Json.array(f, "filters");
    if (filters.size() != 1) {
      throw RestException.badRequest(Json.string(f, "type", true) + " wraps exactly one filter in \"filters\"");
    }
    return filter(Json.object(filters.get(0), "the wrapped filter"));
  }

  private static CompareOperator op(JsonObject f) {
    String op = Json.string(f, "op", true);
    try {
      return CompareOperator.valueOf(op.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw RestException.badRequest("unknown compare op \"" + op + "\"");
    }
  }

  private static ByteArrayComparable comparator(JsonObject f) {
    JsonElement c = f.get("comparator");
    if (c == null) {
      throw RestException.badRequest(Json.string(f, "type", true) + " needs a \"comparator\"");
    }
    JsonObject comparator = Json.object(c, "comparator");
    String type = Json.string(comparator, "type", true);
    return switch (type) {
      case "BinaryComparator" -> new BinaryComparator(Json.base64(comparator, "value", true));
      case "BinaryPrefixComparator" -> new BinaryPrefixComparator(Json.base64(comparator, "value", true));
      case "BitComparator" -> new BitComparator(Json.base64(comparator, "value", true), bitOp(comparator));
      case "NullComparator" -> new NullComparator();
      case "RegexStringComparator" -> {
        try {
          yield new RegexStringComparator(Json.string(comparator, "value", true));
        } catch (RuntimeException e) {
          throw RestException.badRequest("bad regular expression: " + e.getMessage());
        }
      }
      case "SubstringComparator" -> new SubstringComparator(Json.string(comparator, "value", true));
      default -> throw RestException.badRequest("unsupported comparator type \"" + type + "\"");
    };
  }

  private static BitComparator.BitwiseOp bitOp(JsonObject comparator) {
    String op = Json.string(comparator, "op", true);
    try {
      return BitComparator.BitwiseOp.valueOf(op);
    } catch (IllegalArgumentException e) {
      throw RestException.badRequest("BitComparator op must be AND, OR or XOR, not " + op);
    }
  }

  private static long number(JsonObject f, String name) {
    return Json.longValue(f, name);
  }

  private static boolean bool(JsonObject f, String name, boolean absent) {
    String text = Json.string(f, name, false);
    if (text == null) {
      return absent;
    }
    if (!text.equals("true") && !text.equals("false")) {
      throw RestException.badRequest("\"" + name + "\" must be true or false");
    }
    return text.equals("true");
  }

  private static byte[][] base64List(JsonObject f, String name) {
    var array = Json.array(f, name);
    byte[][] values = new byte[array.size()][];
    for (int i = 0; i < values.length; i++) {
      values[i] = CellSetCodec.base64(array.get(i).getAsString(), "\"" + name + "\"");
    }
    return values;
  }

  private static List<Long> longList(JsonObject f, String name) {
    List<Long> values = new ArrayList<>();
    for (JsonElement e : Json.array(f, name)) {
      values.add(CellSetCodec.parseLong(e.getAsString(), "\"" + name + "\""));
    }
    return values;
  }
}
