package com.banhang.shop.admin.ui;

import com.banhang.shop.admin.application.ConsoleSignal;
import com.banhang.shop.admin.application.OverviewSnapshot.MinutePoint;
import com.banhang.shop.admin.application.SignalChart;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The Overview's line charts as plain SVG markup, drawn on the server: a chart library would bring
 * its own JavaScript and with it a Node build of the frontend. {@link #render(List)} draws this
 * node's keyed requests per minute; {@link #render(SignalChart)} one signal of every node's
 * minutes, readable without colour: each series has its own dash pattern and marker shape, named in
 * the legend, and every point says its value on hover (its {@code <title>}).
 */
final class SvgChart {

  static final int WIDTH = 900;
  static final int HEIGHT = 260;
  private static final int LEFT = 50;
  private static final int RIGHT = 170;
  private static final int TOP = 15;
  private static final int BOTTOM = 35;
  private static final DateTimeFormatter MINUTE =
      DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT).withZone(ZoneOffset.UTC);

  /** Known series first, in this order and colour; others follow in grey shades. */
  private static final Map<String, String> COLOURS =
      Map.of(
          "new", "#1676f3",
          "replayed", "#2e7d32",
          "in_progress", "#f9a825",
          "mismatch", "#c62828",
          "rejected", "#6a1b9a",
          "unknown_outcome", "#ef6c00",
          "gateway_errors", "#37474f");

  private static final List<String> ORDER =
      List.of(
          "new",
          "replayed",
          "in_progress",
          "mismatch",
          "rejected",
          "unknown_outcome",
          "gateway_errors");

  private SvgChart() {}

  static String render(List<MinutePoint> points) {
    List<MinutePoint> data = points == null ? List.of() : points;
    List<String> series = seriesOf(data);
    long max = 1;
    for (MinutePoint point : data) {
      for (Long value : point.counts().values()) {
        if (value != null) {
          max = Math.max(max, value);
        }
      }
    }
    // Four whole-number steps on the y-axis: the top is the peak rounded up to a multiple of 4.
    max = Math.max(4, (max + 3) / 4 * 4);
    int plotWidth = WIDTH - LEFT - RIGHT;
    int plotHeight = HEIGHT - TOP - BOTTOM;
    StringBuilder svg = new StringBuilder();
    svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"overview-chart\" width=\"")
        .append(WIDTH)
        .append("\" height=\"")
        .append(HEIGHT)
        .append("\" viewBox=\"0 0 ")
        .append(WIDTH)
        .append(' ')
        .append(HEIGHT)
        .append("\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\">");
    svg.append("<title>").append(escape(Texts.t("chart.requests.title"))).append("</title>");
    // Axes and horizontal grid lines with their values.
    for (int i = 0; i <= 4; i++) {
      double y = TOP + plotHeight - plotHeight * i / 4.0;
      long value = max * i / 4;
      svg.append(line(LEFT, y, LEFT + plotWidth, y, i == 0 ? "#444" : "#ddd"));
      svg.append(text(LEFT - 6, y + 4, "end", Long.toString(value)));
    }
    svg.append(line(LEFT, TOP, LEFT, TOP + plotHeight, "#444"));
    svg.append(verticalText(12, TOP + plotHeight / 2.0, Texts.t("chart.requests.axis")));
    int n = data.size();
    if (n == 0) {
      svg.append(
          text(LEFT + plotWidth / 2.0, TOP + plotHeight / 2.0, "middle", Texts.t("chart.no-data")));
    }
    // Time labels every 10 minutes (and the last minute).
    for (int i = 0; i < n; i++) {
      if (i % 10 == 0 || i == n - 1) {
        double x = x(i, n, plotWidth);
        svg.append(line(x, TOP + plotHeight, x, TOP + plotHeight + 4, "#444"));
        svg.append(text(x, TOP + plotHeight + 16, "middle", MINUTE.format(data.get(i).minute())));
      }
    }
    svg.append(text(LEFT + plotWidth / 2.0, HEIGHT - 3, "middle", "minute (UTC)"));
    // One polyline per series.
    int legendRow = 0;
    for (String name : series) {
      String colour = COLOURS.getOrDefault(name, "#9e9e9e");
      StringBuilder pointsAttr = new StringBuilder();
      for (int i = 0; i < n; i++) {
        Long value = data.get(i).counts().get(name);
        double y = TOP + plotHeight - plotHeight * (value == null ? 0 : value) / (double) max;
        pointsAttr.append(fmt(x(i, n, plotWidth))).append(',').append(fmt(y)).append(' ');
      }
      svg.append("<polyline data-series=\"")
          .append(escape(name))
          .append("\" fill=\"none\" stroke-width=\"2\" stroke=\"")
          .append(colour)
          .append("\" points=\"")
          .append(pointsAttr.toString().trim())
          .append("\"/>");
      double ly = TOP + 6 + legendRow * 18;
      double lx = LEFT + plotWidth + 15;
      svg.append("<rect x=\"")
          .append(fmt(lx))
          .append("\" y=\"")
          .append(fmt(ly - 8))
          .append("\" width=\"12\" height=\"4\" fill=\"")
          .append(colour)
          .append("\"/>");
      svg.append(text(lx + 18, ly - 2, "start", name));
      legendRow++;
    }
    svg.append("</svg>");
    return svg.toString();
  }

  // --- One signal's chart (render(SignalChart))

  static final int SIGNAL_WIDTH = 960;
  static final int SIGNAL_HEIGHT = 240;
  private static final int SIGNAL_RIGHT = 240;

  /**
   * Line styles in legend order. The colours are told apart with the common colour blindnesses, but
   * are never the only difference: the dash pattern and the marker shape are too.
   */
  private static final List<String> PALETTE =
      List.of(
          "#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#7f7f7f");

  private static final List<String> DASHES =
      List.of("", "6 3", "2 3", "8 3 2 3", "12 4", "1 3", "4 2 1 2 1 2", "10 3 3 3");

  /** Marker shapes in legend order, the names a test or a reader of the markup sees. */
  static final List<String> MARKERS =
      List.of("circle", "square", "triangle", "diamond", "triangle-down", "plus", "cross", "ring");

  /**
   * One chart: the y scale is the chart's own (its peak rounded up to four whole steps), the x axis
   * the range's buckets in UTC. A bucket with no reading (a gauge nobody sampled) is a gap.
   */
  static String render(SignalChart chart) {
    List<Instant> buckets = chart.buckets();
    List<SignalChart.Series> series = chart.series();
    int n = buckets.size();
    long peak = 1;
    for (SignalChart.Series line : series) {
      for (Long value : line.values()) {
        if (value != null) {
          peak = Math.max(peak, value);
        }
      }
    }
    long max = Math.max(4, (peak + 3) / 4 * 4);
    int plotWidth = SIGNAL_WIDTH - LEFT - SIGNAL_RIGHT;
    int plotHeight = SIGNAL_HEIGHT - TOP - BOTTOM;
    String id = "overview-chart-" + chart.signal().id();
    String every = every(chart.bucket());
    StringBuilder svg = new StringBuilder();
    svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"")
        .append(escape(id))
        .append("\" width=\"")
        .append(SIGNAL_WIDTH)
        .append("\" height=\"")
        .append(SIGNAL_HEIGHT)
        .append("\" viewBox=\"0 0 ")
        .append(SIGNAL_WIDTH)
        .append(' ')
        .append(SIGNAL_HEIGHT)
        .append("\" font-family=\"sans-serif\" font-size=\"11\" role=\"img\">");
    svg.append("<title>")
        .append(escape(Texts.t("chart.title", title(chart.signal()), every)))
        .append("</title>");
    svg.append("<desc>").append(escape(summary(chart))).append("</desc>");
    for (int i = 0; i <= 4; i++) {
      double y = TOP + plotHeight - plotHeight * i / 4.0;
      svg.append(line(LEFT, y, LEFT + plotWidth, y, i == 0 ? "#444" : "#ddd"));
      svg.append(text(LEFT - 6, y + 4, "end", Long.toString(max * i / 4)));
    }
    svg.append(line(LEFT, TOP, LEFT, TOP + plotHeight, "#444"));
    svg.append(verticalText(12, TOP + plotHeight / 2.0, yLabel(chart)));
    svg.append(
        text(LEFT + plotWidth / 2.0, SIGNAL_HEIGHT - 3, "middle", Texts.t("chart.time-axis")));
    // About six time labels whatever the range: every 10 min, every hour, every 4 h.
    int step = Math.max(1, (n + 5) / 6);
    for (int i = 0; i < n; i++) {
      if (i % step == 0 || i == n - 1) {
        double x = x(i, n, plotWidth);
        svg.append(line(x, TOP + plotHeight, x, TOP + plotHeight + 4, "#444"));
        svg.append(text(x, TOP + plotHeight + 16, "middle", MINUTE.format(buckets.get(i))));
      }
    }
    // Below the lines, a band per bucket whose title lists every series there, so that hovering
    // anywhere above a time reads all values at once.
    double band = n == 0 ? 0 : plotWidth / (double) Math.max(1, n - 1);
    for (int i = 0; i < n; i++) {
      StringBuilder all = new StringBuilder(when(buckets.get(i), chart.bucket()));
      for (SignalChart.Series line : series) {
        Long value = line.values().get(i);
        all.append(", ")
            .append(line.name())
            .append(' ')
            .append(value == null ? Texts.t("chart.no-sample") : value);
      }
      svg.append("<rect class=\"hover\" x=\"")
          .append(fmt(Math.max(LEFT, x(i, n, plotWidth) - band / 2)))
          .append("\" y=\"")
          .append(TOP)
          .append("\" width=\"")
          .append(fmt(Math.max(1, band)))
          .append("\" height=\"")
          .append(plotHeight)
          .append("\" fill=\"transparent\"><title>")
          .append(escape(all.toString()))
          .append("</title></rect>");
    }
    if (series.isEmpty()) {
      svg.append(
          text(
              LEFT + plotWidth / 2.0,
              TOP + plotHeight / 2.0,
              "middle",
              Texts.t("chart.none-in-range")));
    }
    for (int s = 0; s < series.size(); s++) {
      SignalChart.Series line = series.get(s);
      String colour = PALETTE.get(s % PALETTE.size());
      String dash = DASHES.get(s % DASHES.size());
      String marker = MARKERS.get(s % MARKERS.size());
      StringBuilder d = new StringBuilder();
      StringBuilder marks = new StringBuilder();
      boolean penDown = false;
      long lineMax = 0;
      Long last = null;
      for (int i = 0; i < n; i++) {
        Long value = line.values().get(i);
        if (value == null) {
          penDown = false;
          continue;
        }
        lineMax = Math.max(lineMax, value);
        last = value;
        double x = x(i, n, plotWidth);
        double y = TOP + plotHeight - plotHeight * value / (double) max;
        d.append(penDown ? " L" : (d.length() == 0 ? "M" : " M"))
            .append(fmt(x))
            .append(',')
            .append(fmt(y));
        penDown = true;
        marks.append(
            marker(
                marker,
                x,
                y,
                colour,
                line.name() + ", " + when(buckets.get(i), chart.bucket()) + ": " + value));
      }
      svg.append("<g data-series=\"")
          .append(escape(line.name()))
          .append("\" data-marker=\"")
          .append(marker)
          .append("\">");
      if (d.length() > 0) {
        svg.append("<path fill=\"none\" stroke-width=\"2\" stroke=\"")
            .append(colour)
            .append('"')
            .append(dash.isEmpty() ? "" : " stroke-dasharray=\"" + dash + "\"")
            .append(" d=\"")
            .append(d)
            .append("\"/>");
      }
      svg.append(marks).append("</g>");
      // The legend: a piece of the line with its marker, and the name with its figures in text.
      double ly = TOP + 6 + s * 18;
      double lx = LEFT + plotWidth + 15;
      svg.append("<g class=\"legend\">");
      svg.append("<line x1=\"")
          .append(fmt(lx))
          .append("\" y1=\"")
          .append(fmt(ly - 4))
          .append("\" x2=\"")
          .append(fmt(lx + 24))
          .append("\" y2=\"")
          .append(fmt(ly - 4))
          .append("\" stroke-width=\"2\" stroke=\"")
          .append(colour)
          .append('"')
          .append(dash.isEmpty() ? "" : " stroke-dasharray=\"" + dash + "\"")
          .append("/>");
      svg.append(marker(marker, lx + 12, ly - 4, colour, null));
      svg.append(
          text(
              lx + 30,
              ly,
              "start",
              line.name()
                  + ": last "
                  + (last == null ? "—" : last.toString())
                  + ", max "
                  + lineMax));
      svg.append("</g>");
    }
    svg.append("</svg>");
    return svg.toString();
  }

  /** The chart's name, from the bundle. */
  static String title(ConsoleSignal signal) {
    return switch (signal) {
      case STUCK_ROWS -> Texts.t("chart.stuck-rows.title");
      case OLDEST_AGE -> Texts.t("chart.oldest-age.title");
      case UNKNOWN_OUTCOMES -> Texts.t("chart.unknown-outcomes.title");
      case GATEWAY_ERRORS -> Texts.t("chart.gateway-errors.title");
      case RECONCILIATION -> Texts.t("chart.reconciliation.title");
    };
  }

  /** What the chart's y axis counts, from the bundle. */
  private static String unit(ConsoleSignal signal) {
    return switch (signal) {
      case STUCK_ROWS -> Texts.t("chart.stuck-rows.unit");
      case OLDEST_AGE -> Texts.t("chart.oldest-age.unit");
      case UNKNOWN_OUTCOMES -> Texts.t("chart.unknown-outcomes.unit");
      case GATEWAY_ERRORS -> Texts.t("chart.gateway-errors.unit");
      case RECONCILIATION -> Texts.t("chart.reconciliation.unit");
    };
  }

  /** The y axis: what is counted, and over what. */
  private static String yLabel(SignalChart chart) {
    long minutes = chart.bucket().toMinutes();
    if (chart.signal().gauge()) {
      // A minute's point is one reading; a longer bucket's is the worst of its minutes.
      return minutes == 1
          ? unit(chart.signal())
          : Texts.t("chart.axis.largest-in", unit(chart.signal()), minutes);
    }
    return minutes == 1
        ? Texts.t("chart.axis.per-minute", unit(chart.signal()))
        : Texts.t("chart.axis.per-minutes", unit(chart.signal()), minutes);
  }

  private static String every(Duration bucket) {
    return bucket.toMinutes() == 1
        ? Texts.t("chart.every.minute")
        : Texts.t("chart.every.minutes", bucket.toMinutes());
  }

  /** A bucket as a reader says it: {@code 10:05 UTC} or {@code 10:00-10:15 UTC}. */
  private static String when(Instant start, Duration bucket) {
    if (bucket.toMinutes() <= 1) {
      return MINUTE.format(start) + " UTC";
    }
    return MINUTE.format(start) + "-" + MINUTE.format(start.plus(bucket)) + " UTC";
  }

  /** The text equivalent of the whole chart, for readers that do not see it. */
  private static String summary(SignalChart chart) {
    if (chart.series().isEmpty()) {
      return Texts.t("chart.summary.none", unit(chart.signal()));
    }
    StringBuilder text = new StringBuilder(Texts.t("chart.summary.largest"));
    for (SignalChart.Series line : chart.series()) {
      long lineMax = 0;
      for (Long value : line.values()) {
        if (value != null) {
          lineMax = Math.max(lineMax, value);
        }
      }
      text.append(' ').append(line.name()).append(' ').append(lineMax).append(';');
    }
    return text.toString();
  }

  /** A marker of {@code shape} centred on x, y; with a title when it stands for a value. */
  private static String marker(String shape, double x, double y, String colour, String title) {
    String hover = title == null ? "" : "<title>" + escape(title) + "</title>";
    String filled = " fill=\"" + colour + "\" stroke=\"" + colour + "\"";
    String stroked = " fill=\"none\" stroke-width=\"2\" stroke=\"" + colour + "\"";
    String cls = " class=\"marker marker-" + shape + "\"";
    return switch (shape) {
      case "circle" ->
          "<circle"
              + cls
              + " cx=\""
              + fmt(x)
              + "\" cy=\""
              + fmt(y)
              + "\" r=\"3.5\""
              + filled
              + ">"
              + hover
              + "</circle>";
      case "ring" ->
          "<circle"
              + cls
              + " cx=\""
              + fmt(x)
              + "\" cy=\""
              + fmt(y)
              + "\" r=\"3.5\""
              + " fill=\"#fff\" stroke-width=\"2\" stroke=\""
              + colour
              + "\">"
              + hover
              + "</circle>";
      case "square" ->
          "<rect"
              + cls
              + " x=\""
              + fmt(x - 3.5)
              + "\" y=\""
              + fmt(y - 3.5)
              + "\" width=\"7\" height=\"7\""
              + filled
              + ">"
              + hover
              + "</rect>";
      case "triangle" ->
          path(
              cls,
              filled,
              hover,
              "M"
                  + fmt(x)
                  + ","
                  + fmt(y - 4.5)
                  + " L"
                  + fmt(x + 4.5)
                  + ","
                  + fmt(y + 3.5)
                  + " L"
                  + fmt(x - 4.5)
                  + ","
                  + fmt(y + 3.5)
                  + " Z");
      case "triangle-down" ->
          path(
              cls,
              filled,
              hover,
              "M"
                  + fmt(x)
                  + ","
                  + fmt(y + 4.5)
                  + " L"
                  + fmt(x + 4.5)
                  + ","
                  + fmt(y - 3.5)
                  + " L"
                  + fmt(x - 4.5)
                  + ","
                  + fmt(y - 3.5)
                  + " Z");
      case "diamond" ->
          path(
              cls,
              filled,
              hover,
              "M"
                  + fmt(x)
                  + ","
                  + fmt(y - 5)
                  + " L"
                  + fmt(x + 5)
                  + ","
                  + fmt(y)
                  + " L"
                  + fmt(x)
                  + ","
                  + fmt(y + 5)
                  + " L"
                  + fmt(x - 5)
                  + ","
                  + fmt(y)
                  + " Z");
      case "plus" ->
          path(
              cls,
              stroked,
              hover,
              "M"
                  + fmt(x - 4.5)
                  + ","
                  + fmt(y)
                  + " L"
                  + fmt(x + 4.5)
                  + ","
                  + fmt(y)
                  + " M"
                  + fmt(x)
                  + ","
                  + fmt(y - 4.5)
                  + " L"
                  + fmt(x)
                  + ","
                  + fmt(y + 4.5));
      default ->
          path(
              cls,
              stroked,
              hover,
              "M"
                  + fmt(x - 3.5)
                  + ","
                  + fmt(y - 3.5)
                  + " L"
                  + fmt(x + 3.5)
                  + ","
                  + fmt(y + 3.5)
                  + " M"
                  + fmt(x - 3.5)
                  + ","
                  + fmt(y + 3.5)
                  + " L"
                  + fmt(x + 3.5)
                  + ","
                  + fmt(y - 3.5));
    };
  }

  private static String path(String cls, String paint, String hover, String d) {
    return "<path" + cls + paint + " d=\"" + d + "\">" + hover + "</path>";
  }

  private static List<String> seriesOf(List<MinutePoint> data) {
    Set<String> names = new LinkedHashSet<>(ORDER);
    List<String> extra = new ArrayList<>();
    for (MinutePoint point : data) {
      for (String name : point.counts().keySet()) {
        if (!names.contains(name) && !extra.contains(name)) {
          extra.add(name);
        }
      }
    }
    List<String> all = new ArrayList<>(ORDER);
    all.addAll(extra);
    return all;
  }

  private static double x(int i, int n, int plotWidth) {
    return LEFT + (n <= 1 ? 0 : plotWidth * i / (double) (n - 1));
  }

  private static String line(double x1, double y1, double x2, double y2, String colour) {
    return "<line x1=\""
        + fmt(x1)
        + "\" y1=\""
        + fmt(y1)
        + "\" x2=\""
        + fmt(x2)
        + "\" y2=\""
        + fmt(y2)
        + "\" stroke=\""
        + colour
        + "\"/>";
  }

  private static String text(double x, double y, String anchor, String content) {
    return "<text x=\""
        + fmt(x)
        + "\" y=\""
        + fmt(y)
        + "\" text-anchor=\""
        + anchor
        + "\" fill=\"#333\">"
        + escape(content)
        + "</text>";
  }

  private static String verticalText(double x, double y, String content) {
    return "<text x=\""
        + fmt(x)
        + "\" y=\""
        + fmt(y)
        + "\" text-anchor=\"middle\" fill=\"#333\" transform=\"rotate(-90 "
        + fmt(x)
        + ' '
        + fmt(y)
        + ")\">"
        + escape(content)
        + "</text>";
  }

  private static String fmt(double value) {
    return String.format(Locale.ROOT, "%.1f", value);
  }

  static String escape(String raw) {
    return raw.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
