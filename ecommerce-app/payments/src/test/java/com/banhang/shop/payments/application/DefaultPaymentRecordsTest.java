package com.banhang.shop.payments.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyInt;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import com.banhang.shop.payments.api.PaymentRecord;
import com.banhang.shop.payments.api.TimelineEntry;
import com.banhang.shop.payments.application.PaymentSearch.Column;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;
import org.mockito.junit.jupiter.MockitoSettings;
import org.mockito.quality.Strictness;

/** The console's search, page and timeline over the search's seeks, against a mocked search. */
@ExtendWith(MockitoExtension.class)
@MockitoSettings(strictness = Strictness.LENIENT)
class DefaultPaymentRecordsTest {

  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");

  @Mock PaymentSearch search;
  private final InMemoryTimeline timeline = new InMemoryTimeline();
  private final DefaultPaymentRecords records = new DefaultPaymentRecords();

  @BeforeEach
  void wire() {
    records.search = search;
    records.timeline = timeline;
    when(search.equal(any(), anyString(), anyInt())).thenReturn(List.of());
    when(search.tenantStartingWith(anyString(), anyInt())).thenReturn(List.of());
  }

  private static PaymentRecord record(String id, String tenant, String key, int minutes) {
    return new PaymentRecord(
        id,
        tenant,
        "order-" + id,
        1000,
        "VND",
        "CAPTURED",
        "banhang_" + id,
        "ch_" + id,
        key,
        1,
        null,
        T0.plusSeconds(60L * minutes),
        T0.plusSeconds(60L * minutes));
  }

  @Test
  void aTerm_isComparedExactlyWithEveryColumn_andTheTenantsBeginning_mergedNewestFirst() {
    PaymentRecord byKey = record("p-1", "alice", "k-1", 1);
    PaymentRecord byCharge = record("p-2", "bob", "k-2", 5);
    PaymentRecord byTenant = record("p-3", "k-1x", "k-3", 3);
    when(search.equal(eq(Column.IDEMPOTENCY_KEY), eq("k-1"), anyInt())).thenReturn(List.of(byKey));
    when(search.equal(eq(Column.GATEWAY_CHARGE_ID), eq("k-1"), anyInt()))
        .thenReturn(List.of(byCharge));
    when(search.tenantStartingWith(eq("k-1"), anyInt())).thenReturn(List.of(byTenant, byKey));

    List<PaymentRecord> found = records.search("  k-1 ", 20);

    assertThat(found).extracting(PaymentRecord::paymentId).containsExactly("p-2", "p-3", "p-1");
    for (Column column : Column.values()) {
      verify(search).equal(column, "k-1", 20);
    }
    assertThat(records.search("k-1", 2))
        .extracting(PaymentRecord::paymentId)
        .containsExactly("p-2", "p-3");
  }

  @Test
  void aBlankTerm_orNoRows_findNothingWithoutAQuery() {
    assertThat(records.search(null, 20)).isEmpty();
    assertThat(records.search("  ", 20)).isEmpty();
    assertThat(records.search("k-1", 0)).isEmpty();
    assertThat(records.ofOrders(List.of(), 20)).isEmpty();
    verifyNoInteractions(search);
  }

  @Test
  void aTermLongerThanAColumn_isNotSentToIt() {
    String longTerm = "k".repeat(120);

    records.search(longTerm, 20);

    verify(search).equal(Column.IDEMPOTENCY_KEY, longTerm, 20);
    verify(search, never()).equal(Column.PAYMENT_ID, longTerm, 20);
    verify(search, never()).equal(Column.GATEWAY_CHARGE_ID, longTerm, 20);
    verify(search, never()).tenantStartingWith(anyString(), anyInt());
  }

  @Test
  void find_isThePaymentIdsSeek() {
    PaymentRecord payment = record("p-1", "alice", "k-1", 1);
    when(search.equal(Column.PAYMENT_ID, "p-1", 1)).thenReturn(List.of(payment));

    assertThat(records.find(" p-1 ")).contains(payment);
    assertThat(records.find("p-2")).isEmpty();
    assertThat(records.find("")).isEmpty();
  }

  @Test
  void theTimeline_isTheKeys_allAttempts_oldestFirstByTime_inWriteOrderAmongEqualTimes() {
    PaymentRecord payment = record("p-2", "alice", "k-1", 1);
    when(search.equal(Column.PAYMENT_ID, "p-2", 1)).thenReturn(List.of(payment));
    write("alice", "k-1", "p-1", 0, TimelineEntry.Kind.ATTEMPT_STARTED);
    write("alice", "k-1", "p-2", 5, TimelineEntry.Kind.ATTEMPT_STARTED);
    // A failed try is written after the call, with the time it was sent.
    write("alice", "k-1", "p-2", 7, TimelineEntry.Kind.GATEWAY_ANSWERED);
    write("alice", "k-1", "p-2", 6, TimelineEntry.Kind.GATEWAY_TRY_FAILED);
    write("alice", "k-1", "p-2", 7, TimelineEntry.Kind.CAPTURED);
    write("alice", "k-1", null, 8, TimelineEntry.Kind.CUSTOMER_RETRY);
    write("bob", "k-1", "p-9", 1, TimelineEntry.Kind.ATTEMPT_STARTED);

    assertThat(records.timeline("p-2"))
        .extracting(TimelineEntry::kind, TimelineEntry::paymentId)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("ATTEMPT_STARTED", "p-1"),
            org.assertj.core.groups.Tuple.tuple("ATTEMPT_STARTED", "p-2"),
            org.assertj.core.groups.Tuple.tuple("GATEWAY_TRY_FAILED", "p-2"),
            org.assertj.core.groups.Tuple.tuple("GATEWAY_ANSWERED", "p-2"),
            org.assertj.core.groups.Tuple.tuple("CAPTURED", "p-2"),
            org.assertj.core.groups.Tuple.tuple("CUSTOMER_RETRY", null));
    assertThat(records.timeline("p-unknown")).isEmpty();
  }

  @Test
  void ofOrders_isTheSearchs_newestFirst() {
    PaymentRecord a = record("p-1", "alice", "k-1", 1);
    PaymentRecord b = record("p-2", "bob", "k-2", 2);
    when(search.ofOrders(List.of("order-p-1", "order-p-2"), 10)).thenReturn(List.of(a, b));

    assertThat(records.ofOrders(List.of("order-p-1", "order-p-2"), 10)).containsExactly(b, a);
  }

  private void write(
      String tenant, String key, String paymentId, int minutes, TimelineEntry.Kind kind) {
    timeline.append(
        new PaymentTimeline.Entry(
            tenant, key, paymentId, T0.plusSeconds(60L * minutes), kind, null, "shop"));
  }
}
