package com.banhang.storm;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The storm from the command line, against a running shop:
 *
 * <pre>
 * mvn -q -pl ecommerce-app/storm-driver exec:java -Dexec.args="--intents 1000"
 * </pre>
 *
 * <p>Options (defaults: the development server of the README's run command): {@code --shop URL} (or
 * {@code URL,URL} for several nodes on one database: each retry goes to the next), {@code --sandbox
 * URL}, {@code --intents N}, {@code --concurrency N}, {@code --seed N}, {@code --customers
 * alice,bob}, {@code --password-suffix -secret}, {@code --operator operator}, {@code
 * --client-timeout-ms 1500}, {@code --give-up-s 60}, {@code --settle-s 120}, {@code --label text},
 * {@code --settle-by operator} ({@code shop}: the driver runs no reconciliation after the storm and
 * only waits for the shop's schedule and webhooks to settle), {@code --answers-lost-after-ms N
 * --answers-lost-for-ms M [--answers-lost-every-ms P]} (a processor incident: every answer lost for
 * M ms, N ms into the storm, and again every P ms). Prints the table; exits 1 when an order was
 * charged twice or a captured payment was not charged exactly once, 2 on a bad option.
 */
public final class StormDriver {

  private StormDriver() {}

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      if (!args[i].startsWith("--")) {
        System.err.println("expected --option value, got " + args[i]);
        System.exit(2);
      }
      options.put(args[i].substring(2), args[i + 1]);
    }
    if (args.length % 2 != 0) {
      System.err.println("every option needs a value: " + Arrays.toString(args));
      System.exit(2);
    }
    StormSettings d = StormSettings.defaults();
    StormSettings settings =
        new StormSettings(
            options.containsKey("shop") ? List.of(options.get("shop").split(",")) : d.shopUrls(),
            options.getOrDefault("sandbox", d.sandboxUrl()),
            Integer.parseInt(options.getOrDefault("intents", "" + d.intents())),
            Integer.parseInt(options.getOrDefault("concurrency", "" + d.concurrency())),
            Long.parseLong(options.getOrDefault("seed", "" + d.seed())),
            options.containsKey("customers")
                ? List.of(options.get("customers").split(","))
                : d.customers(),
            options.getOrDefault("password-suffix", d.passwordSuffix()),
            options.getOrDefault("operator", d.operator()),
            Duration.ofMillis(
                Long.parseLong(
                    options.getOrDefault("client-timeout-ms", "" + d.clientTimeout().toMillis()))),
            Duration.ofSeconds(
                Long.parseLong(
                    options.getOrDefault("give-up-s", "" + d.giveUpAfter().toSeconds()))),
            Duration.ofSeconds(
                Long.parseLong(options.getOrDefault("settle-s", "" + d.settle().toSeconds()))),
            d.faults());
    Storm storm = new Storm(settings);
    if ("shop".equals(options.get("settle-by"))) {
      storm.leavingSettlementToTheShop();
    }
    if (options.containsKey("answers-lost-after-ms")) {
      storm.losingEveryAnswer(
          Duration.ofMillis(Long.parseLong(options.get("answers-lost-after-ms"))),
          Duration.ofMillis(Long.parseLong(options.getOrDefault("answers-lost-for-ms", "1000"))),
          options.containsKey("answers-lost-every-ms")
              ? Duration.ofMillis(Long.parseLong(options.get("answers-lost-every-ms")))
              : null);
    }
    StormReport report = storm.run(options.getOrDefault("label", "claim-first"));
    System.out.print(report.table());
    System.exit(report.ok() ? 0 : 1);
  }
}
