package io.basalt.it;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import org.apache.hadoop.hbase.client.Put;

/**
 * Child-JVM main for {@link TsvOracleTest}: parses each line of a file with HBase 2.6.4's own
 * {@code ImportTsv.TsvParser} (hbase-mapreduce, on the tools classpath only, hence reflection) and builds the
 * Put as {@code TsvImporterMapper.map} does, printing per line either {@code BAD <reason>} or its cells as
 * {@code row/family:qualifier@ts=value} in hex.
 *
 * <p>Arguments: COLUMNS SEPARATOR TIMESTAMP SKIP_EMPTY_COLUMNS INPUT OUTPUT. Lines are cut at LF only.
 */
public final class HBaseTsvOracle {
  private HBaseTsvOracle() {}

  public static void main(String[] args) throws Exception {
    String columns = args[0];
    String separator = args[1];
    long importTs = Long.parseLong(args[2]);
    boolean skipEmpty = Boolean.parseBoolean(args[3]);
    byte[] input = Files.readAllBytes(Path.of(args[4]));
    Class<?> parserClass = Class.forName("org.apache.hadoop.hbase.mapreduce.ImportTsv$TsvParser");
    Object parser = parserClass.getConstructor(String.class, String.class).newInstance(columns, separator);
    Method parse = parserClass.getMethod("parse", byte[].class, int.class);
    int rowKeyIndex = (Integer) parserClass.getMethod("getRowKeyColumnIndex").invoke(parser);
    int tsIndex = (Integer) parserClass.getMethod("getTimestampKeyColumnIndex").invoke(parser);
    Method family = parserClass.getMethod("getFamily", int.class);
    Method qualifier = parserClass.getMethod("getQualifier", int.class);
    List<String> out = new ArrayList<>();
    int start = 0;
    for (int i = 0; i <= input.length; i++) {
      if (i < input.length && input[i] != '\n') {
        continue;
      }
      if (i == input.length && start == input.length) {
        break; // no line after the last line end
      }
      byte[] line = java.util.Arrays.copyOfRange(input, start, i);
      start = i + 1;
      out.add(mapLine(parser, parse, line, rowKeyIndex, tsIndex, family, qualifier, importTs, skipEmpty));
    }
    Files.write(Path.of(args[5]), out, StandardCharsets.UTF_8);
  }

  /** TsvImporterMapper.map, for one line: the Put's cells, or the bad line's reason. */
  private static String mapLine(Object parser, Method parse, byte[] line, int rowKeyIndex, int tsIndex, Method family,
      Method qualifier, long importTs, boolean skipEmpty) throws Exception {
    try {
      Object parsed = invoke(parse, parser, line, line.length);
      Class<?> pc = parsed.getClass();
      int rowOffset = (Integer) invoke(method(pc, "getRowKeyOffset"), parsed);
      int rowLength = (Integer) invoke(method(pc, "getRowKeyLength"), parsed);
      long ts = (Long) invoke(method(pc, "getTimestamp", long.class), parsed, importTs);
      int count = (Integer) invoke(method(pc, "getColumnCount"), parsed);
      Method offset = method(pc, "getColumnOffset", int.class);
      Method length = method(pc, "getColumnLength", int.class);
      byte[] row = java.util.Arrays.copyOfRange(line, rowOffset, rowOffset + rowLength);
      new Put(row); // refuses an empty row key (IllegalArgumentException: a bad line in the mapper)
      StringBuilder cells = new StringBuilder("CELLS");
      for (int i = 0; i < count; i++) {
        int len = (Integer) invoke(length, parsed, i);
        if (i == rowKeyIndex || i == tsIndex || skipEmpty && len == 0) {
          continue;
        }
        int off = (Integer) invoke(offset, parsed, i);
        cells.append(' ').append(hex(row)).append('/').append(hex((byte[]) family.invoke(parser, i))).append(':')
            .append(hex((byte[]) qualifier.invoke(parser, i))).append('@').append(ts).append('=')
            .append(hex(java.util.Arrays.copyOfRange(line, off, off + len)));
      }
      return cells.toString();
    } catch (IllegalArgumentException e) {
      return "BAD " + e.getMessage();
    } catch (Exception e) {
      if (e.getClass().getSimpleName().equals("BadTsvLineException")) {
        return "BAD " + e.getMessage();
      }
      throw e;
    }
  }

  private static Method method(Class<?> c, String name, Class<?>... types) throws NoSuchMethodException {
    Method m = c.getMethod(name, types);
    m.setAccessible(true); // ParsedLine is a package-private class
    return m;
  }

  private static Object invoke(Method m, Object target, Object... args) throws Exception {
    try {
      return m.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw (Exception) e.getCause();
    }
  }

  static String hex(byte[] b) {
    return b.length == 0 ? "-" : HexFormat.of().formatHex(b);
  }
}
