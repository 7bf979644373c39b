package com.banhang.shop.web.health;

import jakarta.enterprise.context.ApplicationScoped;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.stream.Collectors;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Liveness: only what a restart would cure. The JVM answers (this check ran) and no threads are
 * deadlocked on monitors or locks; heap use is reported, not judged (a full heap shows itself as
 * OutOfMemoryError). Dependencies are readiness, never liveness: a database outage must not make
 * the orchestrator restart every node.
 */
@Liveness
@ApplicationScoped
public class JvmHealthCheck implements HealthCheck {

  static final String NAME = "jvm";

  @Override
  public HealthCheckResponse call() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long[] deadlocked = threads.findDeadlockedThreads();
    MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    var response =
        HealthCheckResponse.named(NAME)
            .status(deadlocked == null)
            .withData("heapUsedBytes", heap.getUsed())
            .withData("heapMaxBytes", heap.getMax())
            .withData("threads", threads.getThreadCount());
    if (deadlocked != null) {
      response.withData(
          "deadlockedThreads",
          Arrays.stream(threads.getThreadInfo(deadlocked))
              .filter(info -> info != null)
              .map(ThreadInfo::getThreadName)
              .collect(Collectors.joining(", ")));
    }
    return response.build();
  }
}
