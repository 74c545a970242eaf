package io.basalt.server.status;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * Builds one server-rendered page: every text is escaped here, so page code never writes raw user data
 * (table names, row keys) into HTML. Small, plain CSS that reads on a phone (tables scroll sideways).
 */
final class Html {
  /** A link in a table cell or paragraph. */
  record Link(String text, String href) {}

  /** Text set in a monospace font (row keys, region names). */
  record Code(String text) {}

  private static final String STYLE = """
      body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0 auto;padding:0 12px 24px;\
      max-width:1200px;color:#1b1f23;line-height:1.4}
      header{display:flex;flex-wrap:wrap;gap:4px 16px;align-items:baseline;border-bottom:1px solid #d0d7de;\
      padding:10px 0;margin-bottom:8px}
      header strong{font-size:1.15em}nav a{margin-right:12px}
      h1{font-size:1.3em;margin:12px 0 4px}h2{font-size:1.1em;margin:20px 0 6px}
      .scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}
      table{border-collapse:collapse;font-size:.92em;min-width:60%}
      th,td{text-align:left;padding:4px 10px;border-bottom:1px solid #eaecef;white-space:nowrap;vertical-align:top}
      th{background:#f6f8fa}td.n{text-align:right;font-variant-numeric:tabular-nums}
      code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.95em}
      .muted{color:#57606a}.bad{color:#b42318;font-weight:600}.ok{color:#1a7f37}
      dl{display:grid;grid-template-columns:max-content auto;gap:2px 14px;margin:6px 0}dt{color:#57606a}dd{margin:0;overflow-wrap:anywhere}
      """;

  private final StringBuilder out = new StringBuilder();

  Html(String title, List<Link> nav) {
    out.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">")
        .append("<title>").append(escape(title)).append(" - Basalt</title><style>").append(STYLE)
        .append("</style></head>\n<body><header><strong>Basalt</strong><nav>");
    for (Link l : nav) {
      out.append(link(l));
    }
    out.append("</nav></header>\n<h1>").append(escape(title)).append("</h1>\n");
  }

  /** Escapes text for an element's content or a quoted attribute value. */
  static String escape(Object value) {
    String s = String.valueOf(value);
    StringBuilder b = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> b.append("&lt;");
        case '>' -> b.append("&gt;");
        case '&' -> b.append("&amp;");
        case '"' -> b.append("&quot;");
        case '\'' -> b.append("&#39;");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  private static String link(Link l) {
    return "<a href=\"" + escape(l.href()) + "\">" + escape(l.text()) + "</a>";
  }

  Html h2(String text) {
    out.append("<h2>").append(escape(text)).append("</h2>\n");
    return this;
  }

  /** A paragraph of parts: plain values are escaped, links and code rendered. */
  Html p(Object... parts) {
    out.append("<p>");
    for (Object part : parts) {
      out.append(cell(part));
    }
    out.append("</p>\n");
    return this;
  }

  Html muted(String text) {
    out.append("<p class=\"muted\">").append(escape(text)).append("</p>\n");
    return this;
  }

  /** A list of term/value pairs: {@code pairs} alternates term and value. */
  Html facts(Object... pairs) {
    out.append("<dl>");
    for (int i = 0; i + 1 < pairs.length; i += 2) {
      out.append("<dt>").append(cell(pairs[i])).append("</dt><dd>").append(cell(pairs[i + 1])).append("</dd>");
    }
    out.append("</dl>\n");
    return this;
  }

  /** A table; numbers are right-aligned. {@code id} lets tests and links find it. */
  Html table(String id, List<String> headers, List<List<Object>> rows) {
    out.append("<div class=\"scroll\"><table id=\"").append(escape(id)).append("\"><thead><tr>");
    for (String h : headers) {
      out.append("<th>").append(escape(h)).append("</th>");
    }
    out.append("</tr></thead><tbody>\n");
    for (List<Object> row : rows) {
      out.append("<tr>");
      for (Object c : row) {
        out.append(c instanceof Number ? "<td class=\"n\">" : "<td>").append(cell(c)).append("</td>");
      }
      out.append("</tr>\n");
    }
    out.append("</tbody></table></div>\n");
    return this;
  }

  private static String cell(Object c) {
    if (c instanceof Link l) {
      return link(l);
    }
    if (c instanceof Code code) {
      return "<code>" + escape(code.text()) + "</code>";
    }
    if (c instanceof Long || c instanceof Integer) {
      return escape(String.format(Locale.ROOT, "%,d", ((Number) c).longValue()));
    }
    return escape(c == null ? "" : c);
  }

  String finish() {
    out.append("<p class=\"muted\">Rendered ").append(escape(time(System.currentTimeMillis())))
        .append(" UTC</p>\n</body></html>\n");
    return out.toString();
  }

  // ---------------------------------------------------------------- formatting

  static String bytes(long n) {
    if (n < 0) {
      return "?";
    }
    if (n < 1024) {
      return n + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = n;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }

  static String rate(double perSecond) {
    return Double.isNaN(perSecond) ? "?" : String.format(Locale.ROOT, "%.1f/s", perSecond);
  }

  static String count(long n) {
    return n < 0 ? "?" : String.format(Locale.ROOT, "%,d", n);
  }

  static String time(long epochMillis) {
    return DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC).format(Instant.ofEpochMilli(epochMillis));
  }

  static String millis(long ms) {
    return ms < 0 ? "?" : ms + " ms";
  }
}
