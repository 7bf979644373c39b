package com.banhang.conformance;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * {@code java -jar conformance-kit.jar --base-url URL --endpoint PATH --body-template JSON
 * --tenant-a USER:PASSWORD [...]}: one line per rule, a summary line, and exit code 0 only when no
 * rule failed (1 when one did, 2 for a wrong command line).
 */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    System.exit(run(List.of(args), System.out, System.err));
  }

  /** The whole command, with its output streams given, for tests. */
  public static int run(List<String> args, PrintStream out, PrintStream err) {
    if (args.contains("--help") || args.contains("-h")) {
      usage(out);
      return 0;
    }
    KitConfig config;
    try {
      config = KitConfig.fromArgs(args);
    } catch (Exception e) {
      err.println("conformance-kit: " + e.getMessage());
      usage(err);
      return 2;
    }
    out.println(
        "conformance-kit: "
            + config.method()
            + " "
            + config.baseUrl()
            + config.endpoint()
            + " as "
            + config.tenantA()
            + config.tenantB().map(b -> " and " + b).orElse(""));
    ConformanceKit.Report report =
        ConformanceKit.run(
            config,
            result -> {
              out.println(result.line());
              out.flush();
            });
    out.println(report.summary());
    return report.exitCode();
  }

  private static void usage(PrintStream out) {
    out.println("usage: java -jar conformance-kit.jar --name value ...");
    for (Map.Entry<String, String> setting : KitConfig.SETTINGS.entrySet()) {
      out.printf("  --%-22s %s%n", setting.getKey(), setting.getValue());
    }
  }
}
