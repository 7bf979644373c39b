package com.banhang.shop.admin.ui;

import com.banhang.shop.admin.application.OverviewSnapshot.MinutePoint;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The per-minute line chart of the Overview as plain SVG markup, drawn on the server: a chart
 * library would bring its own JavaScript and with it a Node build of the frontend.
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
    svg.append("<title>Keyed requests per minute, last 60 minutes</title>");
    // Axes and horizontal grid lines with their values.
    for (int i = 0; i <= 4; i++) {
      double y = TOP + plotHeight - plotHeight * i / 4.0;
      long value = max * i / 4;
      svg.append(line(LEFT, y, LEFT + plotWidth, y, i == 0 ? "#444" : "#ddd"));
      svg.append(text(LEFT - 6, y + 4, "end", Long.toString(value)));
    }
    svg.append(line(LEFT, TOP, LEFT, TOP + plotHeight, "#444"));
    svg.append(verticalText(12, TOP + plotHeight / 2.0, "requests / min"));
    int n = data.size();
    if (n == 0) {
      svg.append(text(LEFT + plotWidth / 2.0, TOP + plotHeight / 2.0, "middle", "no data yet"));
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
