package io.basalt.bench.elasticity;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** Writes a CSV file: a header and rows of numbers or simple strings (quoted when they hold a comma). */
final class Csv {
  private Csv() {}

  static void write(Path file, List<String> header, List<List<Object>> rows) throws IOException {
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8))) {
      w.println(String.join(",", header));
      for (List<Object> row : rows) {
        w.println(row.stream().map(Csv::cell).collect(Collectors.joining(",")));
      }
    }
  }

  private static String cell(Object o) {
    if (o instanceof Double d) {
      return d.isNaN() ? "" : String.format(Locale.ROOT, "%.3f", d);
    }
    String s = String.valueOf(o);
    return s.contains(",") || s.contains("\"") ? "\"" + s.replace("\"", "\"\"") + "\"" : s;
  }
}
