package com.banhang.shop.admin.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import com.banhang.shop.orders.api.OrderLookup;
import com.banhang.shop.payments.api.KeyPaymentView;
import com.banhang.shop.payments.api.PaymentRecord;
import com.banhang.shop.payments.api.PaymentRecords;
import com.banhang.shop.payments.api.TimelineEntry;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PaymentPagesTest {

  private static final Instant T0 = Instant.parse("2026-12-06T03:00:00Z");
  private static final KeyRef KEY = new KeyRef("alice", "payments.charge", "k1");

  private final PaymentPages pages = new PaymentPages();

  @BeforeEach
  void collaborators() {
    pages.payments = mock(PaymentRecords.class);
    pages.orders = mock(OrderLookup.class);
    pages.stuck = mock(StuckOperations.class);
    pages.audit = mock(AuditLog.class);
    pages.gatewayEvents = mock(com.banhang.shop.payments.api.GatewayEvents.class);
  }

  private static PaymentRecord payment(String id, String orderId, int attempt, Instant created) {
    return new PaymentRecord(
        id,
        "alice",
        orderId,
        1250,
        "USD",
        "PENDING",
        "gk-" + id,
        null,
        "k1",
        attempt,
        null,
        created,
        created);
  }

  private static StuckOperationDetail stuck(int attempt, String lastCheck, boolean leaseExpired) {
    StuckOperation op =
        new StuckOperation(
            KEY,
            attempt,
            T0,
            leaseExpired ? T0.plusSeconds(10) : T0.plusSeconds(600),
            true,
            lastCheck,
            lastCheck == null ? null : T0.plusSeconds(100),
            T0.plusSeconds(120));
    return new StuckOperationDetail(
        op, "fp", T0.plusSeconds(86_400), "gateway said 404", Optional.<KeyPaymentView>empty());
  }

  @Test
  void searchMergesIdsAndMerchantOrderIds_newestFirst_withoutDuplicates() {
    PaymentRecord older = payment("p-1", "o-1", 1, T0);
    PaymentRecord newer = payment("p-2", "o-2", 1, T0.plusSeconds(60));
    when(pages.payments.search("M-7", PaymentPages.SEARCH_LIMIT)).thenReturn(List.of(older));
    when(pages.orders.idsByMerchantOrderId("M-7", PaymentPages.SEARCH_LIMIT))
        .thenReturn(List.of("o-1", "o-2"));
    when(pages.payments.ofOrders(List.of("o-1", "o-2"), PaymentPages.SEARCH_LIMIT))
        .thenReturn(List.of(newer, older));

    assertThat(pages.search("  M-7 ")).containsExactly(newer, older);
    assertThat(pages.search("  ")).isEmpty();
  }

  @Test
  void thePageMergesTheOperatorsActionsIntoTheTimeline_oldestFirst() {
    PaymentRecord p = payment("p-1", "o-1", 1, T0);
    when(pages.payments.find("p-1")).thenReturn(Optional.of(p));
    when(pages.stuck.detail(KEY)).thenReturn(Optional.of(stuck(1, "NEEDS_OPERATOR", false)));
    when(pages.payments.timeline("p-1"))
        .thenReturn(
            List.of(
                new TimelineEntry(T0, "ATTEMPT_STARTED", "PENDING", "customer", "p-1"),
                new TimelineEntry(
                    T0.plusSeconds(100),
                    "RECONCILIATION_CHECK",
                    "NEEDS_OPERATOR",
                    "reconciliation",
                    "p-1")));
    when(pages.audit.ofKey(KEY, PaymentPages.AUDIT_ENTRIES_PER_KEY))
        .thenReturn(
            List.of(
                new AuditEntry(
                    1,
                    T0.plusSeconds(50),
                    "operator",
                    "ASK_GATEWAY",
                    "alice",
                    "payments.charge",
                    "k1",
                    "payment p-1",
                    "DONE",
                    "NOT_FOUND: no charge")));

    PaymentPage page = pages.page("p-1").orElseThrow();

    assertThat(page.timeline())
        .extracting(TimelineEntry::kind)
        .containsExactly("ATTEMPT_STARTED", "OPERATOR_ASK_GATEWAY", "RECONCILIATION_CHECK");
    assertThat(page.timeline().get(1).actor()).isEqualTo("operator");
    assertThat(page.timeline().get(1).detail()).contains("NOT_FOUND: no charge", "payment p-1");
    assertThat(page.resolvable()).isTrue();
    assertThat(page.lastGatewayAnswer()).isEqualTo("gateway said 404");
  }

  @Test
  void thePageCarriesThePaymentsGatewayEvents_withTheirGatewayEventEntriesOnTheTimeline() {
    PaymentRecord p = payment("p-1", "o-1", 1, T0);
    when(pages.payments.find("p-1")).thenReturn(Optional.of(p));
    when(pages.payments.timeline("p-1"))
        .thenReturn(
            List.of(
                new TimelineEntry(T0, "ATTEMPT_STARTED", "PENDING", "customer", "p-1"),
                new TimelineEntry(
                    T0.plusSeconds(300),
                    "GATEWAY_EVENT",
                    "charge.succeeded evt_1: FLAGGED",
                    "gateway-webhook",
                    "p-1")));
    com.banhang.shop.payments.api.GatewayEventView flagged =
        new com.banhang.shop.payments.api.GatewayEventView(
            "sandbox",
            "evt_1",
            "charge.succeeded",
            "ch_1",
            "gk-p-1",
            "p-1",
            "FLAGGED",
            "the payment is ABANDONED",
            "signature verified with secret 1 of 1",
            1,
            1,
            T0.plusSeconds(299),
            T0.plusSeconds(299),
            T0.plusSeconds(300),
            null,
            null);
    when(pages.gatewayEvents.ofPayment("p-1")).thenReturn(List.of(flagged));

    PaymentPage page = pages.page("p-1").orElseThrow();

    assertThat(page.gatewayEvents()).containsExactly(flagged);
    assertThat(page.timeline())
        .extracting(TimelineEntry::kind)
        .containsExactly("ATTEMPT_STARTED", "GATEWAY_EVENT");
  }

  @Test
  void resolveIsOfferedOnlyByTheRule_andOnlyForThisAttemptsOwnClaim() {
    PaymentRecord p = payment("p-1", "o-1", 1, T0);
    when(pages.payments.find("p-1")).thenReturn(Optional.of(p));
    when(pages.payments.timeline("p-1")).thenReturn(List.of());

    when(pages.stuck.detail(KEY)).thenReturn(Optional.of(stuck(1, null, true)));
    assertThat(pages.page("p-1").orElseThrow().resolvable()).as("never checked").isFalse();

    when(pages.stuck.detail(KEY)).thenReturn(Optional.of(stuck(1, "GATEWAY_UNREACHABLE", false)));
    assertThat(pages.page("p-1").orElseThrow().resolvable()).as("lease still held").isFalse();

    when(pages.stuck.detail(KEY)).thenReturn(Optional.of(stuck(1, "GATEWAY_UNREACHABLE", true)));
    assertThat(pages.page("p-1").orElseThrow().resolvable()).as("lease out, checked").isTrue();

    // A later claim of the key is another attempt's business, not this payment's.
    when(pages.stuck.detail(KEY)).thenReturn(Optional.of(stuck(2, "NEEDS_OPERATOR", true)));
    PaymentPage settled = pages.page("p-1").orElseThrow();
    assertThat(settled.key()).isEmpty();
    assertThat(settled.resolvable()).isFalse();
  }
}
