package io.basalt.server.config;

import java.io.PrintStream;

/** What {@code basalt config --list} prints: every key with its type, default, current value and meaning. */
public final class ConfigListing {
  private ConfigListing() {}

  public static void print(BasaltConfig current, PrintStream out) {
    String area = null;
    for (ConfigKey<?> key : KnownKeys.all()) {
      String a = KnownKeys.areaOf(key);
      if (!a.equals(area)) {
        out.println((area == null ? "" : "\n") + "# " + a);
        area = a;
      }
      String def = key.defaultText().isEmpty() ? "\"\"" : key.defaultText();
      out.print(key.name() + "  (" + key.type() + ", default " + def);
      if (current != null && current.isSet(key)) {
        out.print(", set to " + current.get(key));
      }
      out.println(")");
      for (String line : wrap(key.doc(), 96)) {
        out.println("    " + line);
      }
    }
  }

  private static java.util.List<String> wrap(String text, int width) {
    java.util.List<String> lines = new java.util.ArrayList<>();
    StringBuilder line = new StringBuilder();
    for (String word : text.split(" ")) {
      if (line.length() > 0 && line.length() + 1 + word.length() > width) {
        lines.add(line.toString());
        line.setLength(0);
      }
      if (line.length() > 0) {
        line.append(' ');
      }
      line.append(word);
    }
    if (line.length() > 0) {
      lines.add(line.toString());
    }
    return lines;
  }
}
