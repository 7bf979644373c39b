package com.banhang.bench.cost;

import static com.banhang.bench.cost.Stats.median;
import static com.banhang.bench.cost.Stats.of;
import static com.banhang.bench.cost.Stats.ratio;
import static com.banhang.bench.cost.Stats.sorted;

import com.banhang.bench.cost.Options.Shape;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the run says: one line per phase while it runs, then the Markdown result (the header that
 * says where and how it ran, the tables of each mode), shown and written to --markdown-out.
 */
final class Report {

  final Options options;
  final Machine machine;

  Report(Options options, Machine machine) {
    this.options = options;
    this.machine = machine;
  }

  /** One phase, as it ends. */
  static void print(String where, PhaseResult r) {
    System.out.printf(
        Locale.ROOT,
        "%-8s %-8s c=%-3d %8.1f req/s  p50 %7.2f  p99 %7.2f  mean %7.2f ms  CPU %6.0f us/req"
            + " (%.2f cores)  client %5.0f us/req  n=%d%s  client errors %d%n",
        where,
        r.shape().label,
        r.connections(),
        r.requestsPerSecond(),
        r.percentileMillis(50),
        r.percentileMillis(99),
        r.meanMillis(),
        r.serverCpuMicrosPerRequest(),
        r.serverCoresBusy(),
        r.clientCpuMicrosPerRequest(),
        r.requests(),
        r.owners() > 0
            ? " (owners " + r.owners() + ", late duplicates " + r.lateDuplicates() + ")"
            : "",
        r.clientErrors());
  }

  /** The result: printed after a blank line, and written to --markdown-out when given. */
  void show(String markdown) throws IOException {
    System.out.println();
    System.out.println(markdown);
    if (options.markdownOut != null) {
      Files.writeString(Path.of(options.markdownOut), markdown);
      System.out.println("written to " + options.markdownOut);
    }
  }

  String header(String title, String dateStart, String dateEnd, String loadStart, String loadEnd) {
    StringBuilder md = new StringBuilder();
    md.append("# ").append(title).append("\n\n");
    md.append("- **Command:** `").append(options.command).append("`\n");
    md.append("- **Database:** ").append(options.database).append("\n");
    md.append("- **Started:** ").append(dateStart).append("\n");
    md.append("- **Ended:** ").append(dateEnd).append("\n");
    md.append("- **Machine:** nproc ")
        .append(Runtime.getRuntime().availableProcessors())
        .append(", ")
        .append(Machine.cpuModel())
        .append(", memory ")
        .append(Machine.memTotal())
        .append("\n");
    md.append("- **Java:** ").append(Machine.javaVersion()).append("\n");
    md.append("- **Load average:** ");
    if (options.loadAtLaunch != null) {
      md.append(options.loadAtLaunch).append(" before the servers started, ");
    }
    md.append(loadStart)
        .append(" when the measurement started, ")
        .append(loadEnd)
        .append(" at its end\n");
    md.append("- **CPU counted:** the shop's JVM (pid ")
        .append(machine.shopPid)
        .append(")")
        .append(
            machine.postmasterPid > 0
                ? " plus every PostgreSQL process of postmaster " + machine.postmasterPid
                : " (H2 runs inside it)")
        .append("; the client runs on the same machine and is not counted\n\n");
    return md.toString();
  }

  String costReport(
      List<PhaseResult> results,
      String dateStart,
      String dateEnd,
      String loadStart,
      String loadEnd,
      String memory) {
    StringBuilder md =
        new StringBuilder(
            header(
                "Idempotency cost: " + options.database, dateStart, dateEnd, loadStart, loadEnd));
    md.append(
        String.format(
            Locale.ROOT,
            "Warm-up %d s; %d rounds, each shape at each connection count for %d s, shape and"
                + " connection order rotated per round; conflict: sandbox latency %d ms, owner head"
                + " start %d ms, duplicates stop %d ms before the owner ends.%n%n",
            options.warmupSeconds,
            options.rounds,
            options.roundSeconds,
            options.conflictLatencyMs,
            options.conflictHeadStartMs,
            options.conflictMarginMs));
    md.append("## Medians over rounds\n\n");
    md.append(
        "| shape | connections | req/s | p50 ms | p99 ms | mean ms | CPU us/req | cores busy"
            + " | client CPU us/req | requests (all rounds) | client errors |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Shape shape : options.shapes) {
      for (int c : sorted(options.connections)) {
        List<PhaseResult> rs = of(results, shape, c);
        md.append(
            String.format(
                Locale.ROOT,
                "| %s | %d | %.1f | %.2f | %.2f | %.2f | %.0f | %.2f | %.0f | %d | %d |%n",
                shape.label,
                c,
                median(rs, PhaseResult::requestsPerSecond),
                median(rs, r -> r.percentileMillis(50)),
                median(rs, r -> r.percentileMillis(99)),
                median(rs, PhaseResult::meanMillis),
                median(rs, PhaseResult::serverCpuMicrosPerRequest),
                median(rs, PhaseResult::serverCoresBusy),
                median(rs, PhaseResult::clientCpuMicrosPerRequest),
                rs.stream().mapToLong(PhaseResult::requests).sum(),
                rs.stream().mapToLong(PhaseResult::clientErrors).sum()));
      }
    }
    if (options.shapes.contains(Shape.CONFLICT)) {
      md.append("\n409 answers while an owner is slow (only the duplicates), p99 per round:\n\n");
      md.append(
          "| connections | p99 of the 409s, median (min..max over rounds) ms | 409s | owners"
              + " | late duplicates |\n");
      md.append("|---|---|---|---|---|\n");
      for (int c : sorted(options.connections)) {
        List<PhaseResult> rs = of(results, Shape.CONFLICT, c);
        double[] p99 = rs.stream().mapToDouble(r -> r.percentileMillis(99)).toArray();
        md.append(
            String.format(
                Locale.ROOT,
                "| %d | %.2f (%.2f..%.2f) | %d | %d | %d |%n",
                c,
                median(p99),
                Arrays.stream(p99).min().orElse(Double.NaN),
                Arrays.stream(p99).max().orElse(Double.NaN),
                rs.stream().mapToLong(PhaseResult::requests).sum(),
                rs.stream().mapToInt(PhaseResult::owners).sum(),
                rs.stream().mapToLong(PhaseResult::lateDuplicates).sum()));
      }
      md.append(
          "\nLate duplicates: sent inside an owner's window but answered (correctly, by replay)"
              + " only after the owner could have finished, i.e. queued longer than the margin;"
              + " not in the latencies. Many of them mean the server was saturated.\n");
    }
    md.append("\n## Ratios\n\n");
    md.append("Of the medians; in brackets the median of the per-round ratios.\n\n");
    md.append(
        "| connections | keyed/unkeyed req/s | keyed/unkeyed CPU per request | replay/keyed req/s"
            + " | replay/keyed CPU per request |\n");
    md.append("|---|---|---|---|---|\n");
    for (int c : sorted(options.connections)) {
      md.append("| ").append(c).append(" | ");
      md.append(ratio(results, Shape.KEYED, Shape.UNKEYED, c, PhaseResult::requestsPerSecond));
      md.append(" | ");
      md.append(
          ratio(results, Shape.KEYED, Shape.UNKEYED, c, PhaseResult::serverCpuMicrosPerRequest));
      md.append(" | ");
      md.append(ratio(results, Shape.REPLAY, Shape.KEYED, c, PhaseResult::requestsPerSecond));
      md.append(" | ");
      md.append(
          ratio(results, Shape.REPLAY, Shape.KEYED, c, PhaseResult::serverCpuMicrosPerRequest));
      md.append(" |\n");
    }
    int lowest = sorted(options.connections)[0];
    if (options.shapes.contains(Shape.KEYED) && options.shapes.contains(Shape.UNKEYED)) {
      List<PhaseResult> k = of(results, Shape.KEYED, lowest);
      List<PhaseResult> u = of(results, Shape.UNKEYED, lowest);
      double[] perRound = new double[Math.min(k.size(), u.size())];
      for (int i = 0; i < perRound.length; i++) {
        perRound[i] = k.get(i).meanMillis() - u.get(i).meanMillis();
      }
      md.append(
          String.format(
              Locale.ROOT,
              "%nAdded mean latency of a key at %d connection%s (keyed - unkeyed): %.3f ms"
                  + " (%.3f)%n",
              lowest,
              lowest == 1 ? "" : "s",
              median(k, PhaseResult::meanMillis) - median(u, PhaseResult::meanMillis),
              median(perRound)));
    } else {
      md.append("\nUnkeyed shape not run: no keyed/unkeyed ratios.\n");
    }
    md.append("\n## Shop memory after the run\n\n```\n").append(memory).append("```\n");
    md.append("\n## Per phase, in the order run\n\n");
    md.append(
        "| round | shape | connections | req/s | p50 ms | p99 ms | mean ms | CPU us/req |"
            + " requests | client errors |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|\n");
    int perRound = options.shapes.size() * options.connections.length;
    for (int i = 0; i < results.size(); i++) {
      PhaseResult r = results.get(i);
      md.append(
          String.format(
              Locale.ROOT,
              "| %d | %s | %d | %.1f | %.2f | %.2f | %.2f | %.0f | %d | %d |%n",
              i / perRound + 1,
              r.shape().label,
              r.connections(),
              r.requestsPerSecond(),
              r.percentileMillis(50),
              r.percentileMillis(99),
              r.meanMillis(),
              r.serverCpuMicrosPerRequest(),
              r.requests(),
              r.clientErrors()));
    }
    return md.toString();
  }

  String purgeReport(
      List<PhaseResult> phases,
      long inserted,
      double insertSeconds,
      String purgeMessage,
      long purgeRoundTripNanos,
      Map<String, String> run,
      long left,
      String dateStart,
      String dateEnd,
      String loadStart,
      String loadEnd,
      String memory) {
    StringBuilder md =
        new StringBuilder(
            header(
                "Retention purge under load: " + options.database,
                dateStart,
                dateEnd,
                loadStart,
                loadEnd));
    md.append(
        String.format(
            Locale.ROOT,
            "%d expired COMPLETED rows of tenant `%s` inserted through JDBC in %.1f s; warm-up %d s"
                + " of keyed creates; then keyed creates (the claim, the order, the completion)"
                + " at %d connections: %d s without a purge, while the operator's purge now runs"
                + " (requests started between the purge's request and its answer), and %d s"
                + " after it.%n%n",
            inserted,
            options.purgeTenant,
            insertSeconds,
            options.warmupSeconds,
            options.purgeConnections,
            options.purgeBaselineSeconds,
            options.purgeAfterSeconds));
    md.append(
        "| phase | seconds | requests | req/s | p50 ms | p99 ms | max ms | mean ms |"
            + " CPU us/req | client errors |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (PhaseResult r : phases) {
      md.append(
          String.format(
              Locale.ROOT,
              "| %s | %.1f | %d | %.1f | %.2f | %.2f | %.2f | %.2f | %.0f | %d |%n",
              r.label(),
              r.wallNanos() / 1e9,
              r.requests(),
              r.requestsPerSecond(),
              r.percentileMillis(50),
              r.percentileMillis(99),
              r.maxMillis(),
              r.meanMillis(),
              r.serverCpuMicrosPerRequest(),
              r.clientErrors()));
    }
    md.append(
        "\nCPU per request of the purge phase: the shop's and PostgreSQL's CPU from the purge's"
            + " request to its answer, the purge's own work included, divided by the requests"
            + " started in that window.\n");
    md.append(
        String.format(
            Locale.ROOT,
            "%n- **Purge answer:** `%s`%n- **Purge round trip (client):** %.1f s%n"
                + "- **Purge-run record:** %s%n- **Expired rows left:** %d%n",
            purgeMessage.replace("`", "'"),
            purgeRoundTripNanos / 1e9,
            run,
            left));
    md.append("\n## Shop memory after the run\n\n```\n").append(memory).append("```\n");
    return md.toString();
  }
}
