package com.banhang.bench.cost;

import com.banhang.bench.cost.Options.Shape;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/** Over the rounds: the phases of one shape and connection count, their medians and ratios. */
final class Stats {

  private Stats() {}

  static int[] sorted(int[] values) {
    int[] v = values.clone();
    Arrays.sort(v);
    return v;
  }

  /** The phases of one shape at one connection count, in the order run. */
  static List<PhaseResult> of(List<PhaseResult> results, Shape shape, int conns) {
    return results.stream().filter(r -> r.shape() == shape && r.connections() == conns).toList();
  }

  static double median(List<PhaseResult> rs, ToDoubleFunction<PhaseResult> f) {
    return median(rs.stream().mapToDouble(f).toArray());
  }

  static double median(double[] values) {
    double[] v = values.clone();
    Arrays.sort(v);
    int n = v.length;
    return n == 0 ? Double.NaN : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  /**
   * {@code top}/{@code bottom} at {@code c} connections: the ratio of the medians, in brackets the
   * median of the per-round ratios; "n/a" when either shape was not run.
   */
  static String ratio(
      List<PhaseResult> results, Shape top, Shape bottom, int c, ToDoubleFunction<PhaseResult> f) {
    List<PhaseResult> a = of(results, top, c);
    List<PhaseResult> b = of(results, bottom, c);
    if (a.isEmpty() || b.isEmpty()) {
      return "n/a";
    }
    double[] perRound = new double[Math.min(a.size(), b.size())];
    for (int i = 0; i < perRound.length; i++) {
      perRound[i] = f.applyAsDouble(a.get(i)) / f.applyAsDouble(b.get(i));
    }
    return String.format(Locale.ROOT, "%.2f (%.2f)", median(a, f) / median(b, f), median(perRound));
  }
}
