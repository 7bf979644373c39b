package com.banhang.shop.web.health;

import jakarta.enterprise.context.ApplicationScoped;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Liveness: only what a restart would cure. The JVM answers (this check ran) and no threads are
 * deadlocked on monitors or locks. Heap use is not judged (a full heap shows itself as
 * OutOfMemoryError) and not reported: /health is open to anyone, and {@code /metrics} gives
 * operators the heap and thread figures. Dependencies are readiness, never liveness: a database
 * outage must not make the orchestrator restart every node.
 */
@Liveness
@ApplicationScoped
public class JvmHealthCheck implements HealthCheck {

  static final String NAME = "jvm";
  private static final Logger LOG = Logger.getLogger(JvmHealthCheck.class.getName());

  @Override
  public HealthCheckResponse call() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long[] deadlocked = threads.findDeadlockedThreads();
    if (deadlocked == null) {
      return HealthCheckResponse.named(NAME).up().build();
    }
    // Which threads, for operators only: /health is open to anyone (docs/observability.md).
    LOG.severe(
        () ->
            "health check jvm is DOWN: deadlocked threads "
                + Arrays.stream(threads.getThreadInfo(deadlocked))
                    .filter(info -> info != null)
                    .map(ThreadInfo::getThreadName)
                    .collect(Collectors.joining(", ")));
    return HealthCheckResponse.named(NAME).down().build();
  }
}
