package com.banhang.shop.payments.application;

import com.banhang.shop.payments.api.TimelineEntry;
import java.util.ArrayList;
import java.util.List;

/** The timeline's store in memory, in the order written: what the tests read back. */
final class InMemoryTimeline implements PaymentTimeline {

  final List<Entry> entries = new java.util.concurrent.CopyOnWriteArrayList<>();

  /** A failure to throw from every append, or null. */
  volatile RuntimeException failure;

  /** A {@link Timeline} writing here, in plain (test) transactions. */
  static Timeline timeline(InMemoryTimeline store) {
    Timeline timeline = new Timeline();
    timeline.store = store;
    timeline.transaction = new OneTransaction();
    return timeline;
  }

  @Override
  public void append(Entry entry) {
    if (failure != null) {
      throw failure;
    }
    entries.add(entry);
  }

  @Override
  public List<TimelineEntry> ofKey(String tenantId, String idempotencyKey, int limit) {
    List<TimelineEntry> found = new ArrayList<>();
    for (Entry e : entries) {
      if (e.tenantId().equals(tenantId) && e.idempotencyKey().equals(idempotencyKey)) {
        found.add(new TimelineEntry(e.at(), e.kind().name(), e.detail(), e.actor(), e.paymentId()));
      }
    }
    return found.size() <= limit ? found : found.subList(found.size() - limit, found.size());
  }

  List<TimelineEntry.Kind> kinds() {
    return entries.stream().map(Entry::kind).toList();
  }

  List<Entry> of(TimelineEntry.Kind kind) {
    return entries.stream().filter(e -> e.kind() == kind).toList();
  }
}
