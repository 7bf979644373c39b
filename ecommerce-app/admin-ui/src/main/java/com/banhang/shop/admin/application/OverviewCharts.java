package com.banhang.shop.admin.application;

import java.time.Instant;
import java.util.List;

/**
 * The Overview's charts over one range, every node, from {@code console_minute}.
 *
 * @param from the first bucket's start
 * @param to the end of the last bucket: its minutes up to the last one that ended are written
 * @param charts one per {@link ConsoleSignal}, in its order
 */
public record OverviewCharts(
    ChartRange range, Instant from, Instant to, List<SignalChart> charts) {}
