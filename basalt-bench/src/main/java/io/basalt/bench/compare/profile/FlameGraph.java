package io.basalt.bench.compare.profile;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A flame graph of a {@link StackProfile} as a self-contained SVG (no script): roots at the bottom, each frame as
 * wide as its share of the weight, its full name and share in the tooltip. Frames narrower than half a pixel are
 * left out, as flamegraph.pl does.
 */
public final class FlameGraph {
  static final int WIDTH = 1200;
  static final int FRAME_HEIGHT = 16;
  private static final int PAD = 10;
  private static final int TITLE_HEIGHT = 30;
  private static final double MIN_PIXELS = 0.5;
  private static final double CHAR_PIXELS = 6.5;

  private FlameGraph() {}

  /** A node of the merged call tree: total weight of the stacks through it, children by frame name. */
  private static final class Node {
    long weight;
    final Map<String, Node> children = new TreeMap<>();
  }

  public static String svg(StackProfile profile, String title, String unit) {
    Node root = new Node();
    for (Map.Entry<String, Long> e : profile.stacks().entrySet()) {
      Node n = root;
      n.weight += e.getValue();
      for (String frame : e.getKey().split(";")) {
        n = n.children.computeIfAbsent(frame, k -> new Node());
        n.weight += e.getValue();
      }
    }
    int depth = depth(root, 0, root.weight);
    int height = TITLE_HEIGHT + depth * FRAME_HEIGHT + 2 * PAD;
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "<?xml version=\"1.0\" standalone=\"no\"?>\n<svg version=\"1.1\" width=\"%d\" "
        + "height=\"%d\" viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\" font-family=\"monospace\" "
        + "font-size=\"11\">\n", WIDTH, height, WIDTH, height));
    s.append(String.format(Locale.ROOT, "<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" fill=\"#f8f8f8\"/>\n", WIDTH, height));
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"20\" font-size=\"15\">%s (total %,d %s)</text>\n", PAD,
        escape(title), root.weight, escape(unit)));
    if (root.weight > 0) {
      double scale = (WIDTH - 2.0 * PAD) / root.weight;
      int y = height - PAD - FRAME_HEIGHT;
      double x = PAD;
      for (Map.Entry<String, Node> e : root.children.entrySet()) {
        x = draw(s, e.getKey(), e.getValue(), x, y, scale, root.weight, unit);
      }
    }
    s.append("</svg>\n");
    return s.toString();
  }

  /** Levels drawn: frames at least {@link #MIN_PIXELS} wide. */
  private static int depth(Node n, int level, long total) {
    int max = level;
    for (Node c : n.children.values()) {
      if (c.weight * (WIDTH - 2.0 * PAD) / Math.max(1, total) >= MIN_PIXELS) {
        max = Math.max(max, depth(c, level + 1, total));
      }
    }
    return max;
  }

  /** Draws {@code n} at {@code x} on row {@code y} and its children above it; returns the x after it. */
  private static double draw(StringBuilder s, String frame, Node n, double x, int y, double scale, long total, String unit) {
    double w = n.weight * scale;
    if (w < MIN_PIXELS) {
      return x + w;
    }
    double share = 100.0 * n.weight / total;
    s.append(String.format(Locale.ROOT, "<g><title>%s (%,d %s, %.2f%%)</title><rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" "
        + "height=\"%d\" fill=\"%s\" rx=\"2\"/>", escape(frame), n.weight, escape(unit), share, x, y, w,
        FRAME_HEIGHT - 1, color(frame)));
    int chars = (int) ((w - 4) / CHAR_PIXELS);
    if (chars >= 3) {
      String label = frame.length() <= chars ? frame : frame.substring(0, chars - 2) + "..";
      s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\">%s</text>", x + 2, y + FRAME_HEIGHT - 4, escape(label)));
    }
    s.append("</g>\n");
    double cx = x;
    for (Map.Entry<String, Node> e : n.children.entrySet()) {
      cx = draw(s, e.getKey(), e.getValue(), cx, y - FRAME_HEIGHT, scale, total, unit);
    }
    return x + w;
  }

  /** Warm colours by a hash of the frame's class, so one class keeps one colour across graphs; JE frames green. */
  private static String color(String frame) {
    int dot = frame.lastIndexOf('.');
    String owner = dot > 0 ? frame.substring(0, dot) : frame;
    int h = owner.hashCode() & 0x7fffffff;
    if (frame.startsWith("com.sleepycat.")) {
      return String.format(Locale.ROOT, "rgb(%d,%d,%d)", 80 + h % 60, 170 + h % 60, 80 + h % 40);
    }
    if (frame.startsWith("io.basalt.")) {
      return String.format(Locale.ROOT, "rgb(%d,%d,%d)", 230 + h % 25, 120 + h % 80, 40 + h % 40);
    }
    return String.format(Locale.ROOT, "rgb(%d,%d,%d)", 200 + h % 55, 60 + h % 100, 50 + h % 40);
  }

  static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
