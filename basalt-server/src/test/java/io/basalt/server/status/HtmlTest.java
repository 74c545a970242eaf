package io.basalt.server.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.basalt.storage.region.RegionStats;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class HtmlTest {
  @Test
  void everyTextIsEscaped() {
    Html h = new Html("t<i>", List.of(new Html.Link("a\"b", "/x?y=\"><script>")));
    h.p("<b>", new Html.Code("&amp;"));
    h.table("id\"", List.of("<th>"), List.of(List.of("<td>", new Html.Link("<l>", "'\""), 1234L)));
    String page = h.finish();
    assertThat(page).contains("<title>t&lt;i&gt; - Basalt</title>", "<h1>t&lt;i&gt;</h1>",
        "<a href=\"/x?y=&quot;&gt;&lt;script&gt;\">a&quot;b</a>", "<p>&lt;b&gt;<code>&amp;amp;</code></p>",
        "<table id=\"id&quot;\">", "<th>&lt;th&gt;</th>", "<td>&lt;td&gt;</td>",
        "<a href=\"&#39;&quot;\">&lt;l&gt;</a>", "<td class=\"n\">1,234</td>");
    assertThat(page).doesNotContain("<script>", "<b>", "<i>", "<l>");
  }

  @Test
  void sizesAndRatesReadWell() {
    assertThat(Html.bytes(-1)).isEqualTo("?");
    assertThat(Html.bytes(512)).isEqualTo("512 B");
    assertThat(Html.bytes(3L << 30)).isEqualTo("3.0 GiB");
    assertThat(Html.rate(Double.NaN)).isEqualTo("?");
    assertThat(Html.rate(2.25)).isEqualTo("2.3/s");
  }

  @Test
  void ratesAreCountDifferencesOverTheWindow() {
    RegionRates rates = new RegionRates(TimeUnit.SECONDS.toNanos(10));
    long t0 = 1_000_000_000L;
    assertThat(rates.update(Map.of("r", new RegionStats(100, 5, false, 0, 0)), t0).get("r").readsPerSecond()).isZero();
    // Before the window ends the previous rate stays; at its end it is (count difference) / seconds.
    assertThat(rates.update(Map.of("r", new RegionStats(100, 5, false, 50, 10)), t0 + 5_000_000_000L).get("r")
        .readsPerSecond()).isZero();
    RegionLoad l = rates.update(Map.of("r", new RegionStats(200, 6, false, 200, 40)), t0 + 20_000_000_000L).get("r");
    assertThat(l.readsPerSecond()).isEqualTo(10.0);
    assertThat(l.writesPerSecond()).isEqualTo(2.0);
    assertThat(l.logBytes()).isEqualTo(200);
    // A region that closed is forgotten; one reopened (counts restart) starts a new window.
    assertThat(rates.update(Map.of(), t0 + 21_000_000_000L)).isEmpty();
  }
}
