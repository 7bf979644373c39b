package com.banhang.shop.payments.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.when;

import com.banhang.idempotency.IdempotencyEvent;
import com.banhang.idempotency.IdempotencyEvent.Kind;
import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.StoredResponse;
import com.banhang.shop.payments.api.TimelineEntry;
import com.banhang.shop.payments.domain.model.Payment;
import com.banhang.shop.payments.domain.model.PaymentRepository;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;
import org.mockito.junit.jupiter.MockitoSettings;
import org.mockito.quality.Strictness;

/** The customer's retries on the timeline: what each was answered, coalesced, never in the way. */
@ExtendWith(MockitoExtension.class)
@MockitoSettings(strictness = Strictness.LENIENT)
class CustomerRetriesTest {

  @Mock PaymentRepository payments;
  @Mock IdempotencyKeys keys;

  private final InMemoryTimeline timeline = new InMemoryTimeline();
  private final CustomerRetries retries = new CustomerRetries();
  private final Payment payment = Fixtures.pendingPayment();
  private Instant now = Instant.parse("2026-12-06T03:00:00Z");

  @BeforeEach
  void wire() {
    retries.timeline = InMemoryTimeline.timeline(timeline);
    retries.payments = payments;
    retries.keys = keys;
    retries.clock =
        new Clock() {
          @Override
          public Instant instant() {
            return now;
          }

          @Override
          public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
          }

          @Override
          public Clock withZone(java.time.ZoneId zone) {
            return this;
          }
        };
    when(payments.findLatestByKey(anyString(), anyString())).thenReturn(Optional.of(payment));
  }

  private static IdempotencyEvent event(String operation, Kind kind, String key) {
    return new IdempotencyEvent(operation, kind, null, Fixtures.TENANT, key);
  }

  @Test
  void eachKindOfAnswer_isWrittenInWords_forTheKeysLatestAttempt() {
    IdempotencyRecord completed =
        Fixtures.record(IdempotencyRecord.Status.COMPLETED, false, now, null);
    IdempotencyRecord withAnswer =
        new IdempotencyRecord(
            completed.tenant(),
            completed.operation(),
            completed.key(),
            completed.fingerprint(),
            completed.status(),
            false,
            completed.attempt(),
            completed.lockedUntil(),
            completed.createdAt(),
            completed.completedAt(),
            completed.expiresAt(),
            new StoredResponse(201, Map.of(), new byte[0]),
            null,
            null,
            null,
            completed.readAt());
    when(keys.find(Fixtures.TENANT, PayOrder.OPERATION, Fixtures.KEY))
        .thenReturn(Optional.of(withAnswer));

    for (Kind kind :
        new Kind[] {Kind.REPLAYED, Kind.IN_PROGRESS, Kind.OUTCOME_UNKNOWN, Kind.KEY_REUSED}) {
      retries.retried(event(PayOrder.OPERATION, kind, Fixtures.KEY));
    }

    assertThat(timeline.entries)
        .extracting(PaymentTimeline.Entry::detail)
        .satisfiesExactly(
            d -> assertThat(d).startsWith("replayed the stored 201"),
            d -> assertThat(d).startsWith("409: still running"),
            d -> assertThat(d).startsWith("409: outcome unknown, being reconciled"),
            d -> assertThat(d).startsWith("422: key used for another request"));
    assertThat(timeline.entries)
        .allSatisfy(
            e -> {
              assertThat(e.kind()).isEqualTo(TimelineEntry.Kind.CUSTOMER_RETRY);
              assertThat(e.actor()).isEqualTo(Timeline.CUSTOMER);
              assertThat(e.tenantId()).isEqualTo(Fixtures.TENANT);
              assertThat(e.idempotencyKey()).isEqualTo(Fixtures.KEY);
              assertThat(e.paymentId()).isEqualTo(payment.id());
              assertThat(e.at()).isEqualTo(now);
            });
  }

  @Test
  void aRetryStorm_writesOneEntryPerKeyAndKindPerWindow() {
    for (int i = 0; i < 1000; i++) {
      retries.retried(event(PayOrder.OPERATION, Kind.IN_PROGRESS, Fixtures.KEY));
    }
    retries.retried(event(PayOrder.OPERATION, Kind.OUTCOME_UNKNOWN, Fixtures.KEY));
    retries.retried(event(PayOrder.OPERATION, Kind.IN_PROGRESS, "another-key"));
    assertThat(timeline.entries).hasSize(3);

    now = now.plus(CustomerRetries.WINDOW).minusMillis(1);
    retries.retried(event(PayOrder.OPERATION, Kind.IN_PROGRESS, Fixtures.KEY));
    assertThat(timeline.entries).hasSize(3);

    now = now.plus(Duration.ofMillis(1));
    retries.retried(event(PayOrder.OPERATION, Kind.IN_PROGRESS, Fixtures.KEY));
    assertThat(timeline.entries).hasSize(4);
  }

  @Test
  void theMemoryOfWrittenKeys_isBounded() {
    for (int i = 0; i < CustomerRetries.KEYS + 10; i++) {
      retries.retried(event(PayOrder.OPERATION, Kind.IN_PROGRESS, "key-" + i));
    }
    // The oldest were forgotten: at worst they are written once more.
    retries.retried(event(PayOrder.OPERATION, Kind.IN_PROGRESS, "key-0"));
    assertThat(timeline.entries).hasSize(CustomerRetries.KEYS + 11);
  }

  @Test
  void otherOperations_otherKinds_andEventsOfNoKey_areNotRetriesOfAPayment() {
    retries.retried(event("orders.create", Kind.REPLAYED, Fixtures.KEY));
    retries.retried(event(PayOrder.OPERATION, Kind.CLAIMED, Fixtures.KEY));
    retries.retried(event(PayOrder.OPERATION, Kind.COMPLETED, Fixtures.KEY));
    retries.retried(new IdempotencyEvent(PayOrder.OPERATION, Kind.IN_PROGRESS, null));

    assertThat(timeline.entries).isEmpty();
  }

  @Test
  void aTimelineThatCannotBeWritten_orAKeyThatCannotBeRead_changesNothingForTheCaller() {
    when(payments.findLatestByKey(anyString(), anyString()))
        .thenThrow(new IllegalStateException("database down"));
    retries.retried(event(PayOrder.OPERATION, Kind.IN_PROGRESS, Fixtures.KEY));

    org.mockito.Mockito.doReturn(Optional.empty())
        .when(payments)
        .findLatestByKey(anyString(), anyString());
    timeline.failure = new IllegalStateException("timeline down");
    retries.retried(event(PayOrder.OPERATION, Kind.KEY_REUSED, Fixtures.KEY));

    timeline.failure = null;
    when(keys.find(anyString(), anyString(), anyString()))
        .thenThrow(new IllegalStateException("store down"));
    retries.retried(event(PayOrder.OPERATION, Kind.REPLAYED, Fixtures.KEY));
    assertThat(timeline.entries).hasSize(1);
    assertThat(timeline.entries.get(0).detail()).startsWith("replayed the stored answer");
    assertThat(timeline.entries.get(0).paymentId()).isNull();
  }
}
