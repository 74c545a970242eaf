package io.basalt.server.bulk;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@code basalt import} is told, with HBase ImportTsv's keys and meanings: {@code importtsv.columns}
 * (HBASE_ROW_KEY, optional HBASE_TS_KEY, then {@code family} or {@code family:qualifier} per input column),
 * {@code importtsv.separator} (one byte, default tab), {@code importtsv.timestamp} (default: now, once for the
 * whole import), {@code importtsv.skip.bad.lines} (default true), {@code importtsv.log.bad.lines},
 * {@code importtsv.skip.empty.columns}, {@code importtsv.dry.run}. Keys ImportTsv has for things Basalt does not
 * do (HFile output, custom mappers, cell TTL and visibility columns, operation attributes) are refused by name
 * rather than ignored. Errors are IllegalArgumentException with ImportTsv's wording where it has one.
 */
public record ImportOptions(List<byte[]> families, byte[][] columnFamilies, byte[][] columnQualifiers,
    int rowKeyIndex, int timestampIndex, byte separator, long timestamp, boolean skipBadLines,
    boolean logBadLines, boolean skipEmptyColumns, boolean dryRun) {

  public static final String COLUMNS = "importtsv.columns";
  public static final String SEPARATOR = "importtsv.separator";
  public static final String TIMESTAMP = "importtsv.timestamp";
  public static final String SKIP_BAD_LINES = "importtsv.skip.bad.lines";
  public static final String LOG_BAD_LINES = "importtsv.log.bad.lines";
  public static final String SKIP_EMPTY_COLUMNS = "importtsv.skip.empty.columns";
  public static final String DRY_RUN = "importtsv.dry.run";
  public static final String ROW_KEY = "HBASE_ROW_KEY";
  public static final String TS_KEY = "HBASE_TS_KEY";
  private static final Set<String> KNOWN = Set.of(COLUMNS, SEPARATOR, TIMESTAMP, SKIP_BAD_LINES, LOG_BAD_LINES,
      SKIP_EMPTY_COLUMNS, DRY_RUN);
  /** ImportTsv's special columns Basalt cannot honour: per-cell TTL and visibility labels, operation attributes. */
  private static final Set<String> REFUSED_COLUMNS = Set.of("HBASE_CELL_TTL", "HBASE_CELL_VISIBILITY",
      "HBASE_ATTRIBUTES_KEY");

  /** Reads the {@code importtsv.*} entries of {@code settings}; {@code now} is the default timestamp. */
  public static ImportOptions from(Map<String, String> settings, long now) {
    for (String key : settings.keySet()) {
      if (key.startsWith("importtsv.") && !KNOWN.contains(key)) {
        throw new IllegalArgumentException(key + " is not supported by basalt import"
            + (key.equals("importtsv.bulk.output") ? " (it loads straight into the regions; there are no HFiles)" : "")
            + "; it takes " + String.join(", ", new java.util.TreeSet<>(KNOWN)));
      }
    }
    String spec = settings.get(COLUMNS);
    if (spec == null) {
      throw new IllegalArgumentException("No columns specified. Please specify with -D" + COLUMNS + "=...");
    }
    // As ImportTsv: split on commas, each name trimmed.
    String[] names = spec.split(",", -1);
    byte[][] families = new byte[names.length][];
    byte[][] qualifiers = new byte[names.length][];
    int rowKey = -1;
    int ts = -1;
    Set<String> familyNames = new LinkedHashSet<>();
    for (int i = 0; i < names.length; i++) {
      String name = names[i].trim();
      if (name.equals(ROW_KEY)) {
        rowKey = i; // the last one, as ImportTsv's parser
      } else if (name.equals(TS_KEY)) {
        ts = i;
      } else if (REFUSED_COLUMNS.contains(name)) {
        throw new IllegalArgumentException(name + " is not supported by basalt import ("
            + (name.equals("HBASE_CELL_TTL") ? "per-cell TTL is not supported by Basalt"
                : name.equals("HBASE_CELL_VISIBILITY") ? "Basalt has no visibility labels"
                : "operation attributes have no meaning for it") + ")");
      } else {
        String[] parts = name.split(":", 2);
        families[i] = parts[0].getBytes(StandardCharsets.UTF_8);
        qualifiers[i] = parts.length == 1 ? new byte[0] : parts[1].getBytes(StandardCharsets.UTF_8);
        familyNames.add(parts[0]);
      }
    }
    // ImportTsv checks the special names on Hadoop's untrimmed, empty-dropping split, then parses trimmed names:
    // " HBASE_ROW_KEY" is no row key column to the check.
    List<String> raw = new ArrayList<>();
    java.util.StringTokenizer tokens = new java.util.StringTokenizer(spec, ",");
    while (tokens.hasMoreTokens()) {
      raw.add(tokens.nextToken());
    }
    long rowKeys = raw.stream().filter(ROW_KEY::equals).count();
    long tsKeys = raw.stream().filter(TS_KEY::equals).count();
    if (rowKeys != 1) {
      throw new IllegalArgumentException("Must specify exactly one column as " + ROW_KEY);
    }
    if (tsKeys > 1) {
      throw new IllegalArgumentException("Must specify at most one column as " + TS_KEY);
    }
    if (raw.size() - rowKeys - tsKeys < 1) {
      throw new IllegalArgumentException(
          "One or more columns in addition to the row key and timestamp(optional) are required");
    }
    byte[] sep = settings.getOrDefault(SEPARATOR, "\t").getBytes(StandardCharsets.UTF_8);
    if (sep.length != 1) {
      throw new IllegalArgumentException("TsvParser only supports single-byte separators");
    }
    long timestamp = longSetting(settings, TIMESTAMP, now);
    if (timestamp < 0) {
      throw new IllegalArgumentException("Timestamp cannot be negative. ts=" + timestamp);
    }
    if (timestamp == Long.MAX_VALUE) {
      throw new IllegalArgumentException(TIMESTAMP + "=" + timestamp + " is HBase's LATEST_TIMESTAMP (\"now\" at each "
          + "write): a rerun would add versions instead of rewriting the same cells; give a time in milliseconds");
    }
    List<byte[]> distinct = new ArrayList<>();
    familyNames.forEach(f -> distinct.add(f.getBytes(StandardCharsets.UTF_8)));
    return new ImportOptions(distinct, families, qualifiers, rowKey, ts, sep[0], timestamp,
        boolSetting(settings, SKIP_BAD_LINES, true), boolSetting(settings, LOG_BAD_LINES, false),
        boolSetting(settings, SKIP_EMPTY_COLUMNS, false), boolSetting(settings, DRY_RUN, false));
  }

  /** The distinct families the columns name, as strings (for messages and the family check). */
  public List<String> familyNames() {
    List<String> out = new ArrayList<>();
    families.forEach(f -> out.add(new String(f, StandardCharsets.UTF_8)));
    return out;
  }

  public int columnCount() {
    return columnFamilies.length;
  }

  private static long longSetting(Map<String, String> settings, String key, long fallback) {
    String v = settings.get(key);
    if (v == null) {
      return fallback;
    }
    try {
      return Long.parseLong(v.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a number of milliseconds since the epoch, not '" + v + "'");
    }
  }

  /** As Hadoop's Configuration.getBoolean: true/false in any case, anything else the default. */
  private static boolean boolSetting(Map<String, String> settings, String key, boolean fallback) {
    String v = settings.get(key);
    if (v == null) {
      return fallback;
    }
    String t = v.trim();
    if (t.equalsIgnoreCase("true")) {
      return true;
    }
    if (t.equalsIgnoreCase("false")) {
      return false;
    }
    return fallback;
  }
}
