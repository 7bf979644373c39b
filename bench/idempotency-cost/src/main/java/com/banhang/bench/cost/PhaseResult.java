package com.banhang.bench.cost;

import com.banhang.bench.cost.Options.Shape;

/**
 * One measured interval of one shape at one connection count, and what it gives: requests per
 * second, CPU per request, latency percentiles.
 */
record PhaseResult(
    Shape shape,
    int connections,
    String label,
    long requests,
    long clientErrors,
    long wallNanos,
    long serverTicks,
    long clientTicks,
    long[] sortedLatencyNanos,
    int owners,
    long lateDuplicates) {

  double requestsPerSecond() {
    return requests / (wallNanos / 1e9);
  }

  double serverCpuMicrosPerRequest() {
    return requests == 0 ? Double.NaN : Machine.ticksToMicros(serverTicks) / requests;
  }

  double clientCpuMicrosPerRequest() {
    return requests == 0 ? Double.NaN : Machine.ticksToMicros(clientTicks) / requests;
  }

  double serverCoresBusy() {
    return Machine.ticksToMicros(serverTicks) / (wallNanos / 1e3);
  }

  double meanMillis() {
    if (sortedLatencyNanos.length == 0) {
      return Double.NaN;
    }
    double sum = 0;
    for (long v : sortedLatencyNanos) {
      sum += v;
    }
    return sum / sortedLatencyNanos.length / 1e6;
  }

  double maxMillis() {
    return sortedLatencyNanos.length == 0
        ? Double.NaN
        : sortedLatencyNanos[sortedLatencyNanos.length - 1] / 1e6;
  }

  double percentileMillis(double p) {
    if (sortedLatencyNanos.length == 0) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(p / 100.0 * sortedLatencyNanos.length);
    return sortedLatencyNanos[Math.max(0, Math.min(rank, sortedLatencyNanos.length) - 1)] / 1e6;
  }
}
