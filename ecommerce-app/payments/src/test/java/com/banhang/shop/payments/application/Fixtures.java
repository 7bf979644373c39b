package com.banhang.shop.payments.application;

import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.shop.payments.domain.model.Payment;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.spi.ConfigProviderResolver;

/** Keys and payments as the stores would return them. */
final class Fixtures {

  static final String TENANT = "alice";
  static final String KEY = "2f1b3d4a-9d8f-4a5d-a9de-1c8f7ce6f1a2";
  static final String ORDER = "order-1";
  static final String GATEWAY_KEY = "banhang_0123456789abcdef0123456789abcdef0123456789abcdef";
  static final long AMOUNT = 1_250_000;

  private Fixtures() {}

  /** A processing key claimed {@code age} ago whose lease ran out, its outcome marked unknown. */
  static IdempotencyRecord processing(Duration age) {
    return record(IdempotencyRecord.Status.PROCESSING, true, Instant.now().minus(age), null);
  }

  /** A processing key {@code key} whose lease ends at {@code lockedUntil} (null: unreadable). */
  static IdempotencyRecord processing(String key, boolean outcomeUnknown, Instant lockedUntil) {
    Instant now = Instant.now();
    return new IdempotencyRecord(
        TENANT,
        PayOrder.OPERATION,
        key,
        "hash",
        IdempotencyRecord.Status.PROCESSING,
        outcomeUnknown,
        2,
        lockedUntil,
        now.minusSeconds(90),
        null,
        now.plus(Duration.ofDays(7)),
        null,
        null,
        null,
        null,
        now);
  }

  /**
   * A processing key as a database whose clock reads {@code databaseNow} returns it: claimed {@code
   * age} ago, its lease ending {@code leaseLeft} from then (negative: ran out), every time on the
   * database's clock.
   */
  static IdempotencyRecord processingSeenAt(
      Instant databaseNow, Duration age, Duration leaseLeft, boolean outcomeUnknown) {
    return new IdempotencyRecord(
        TENANT,
        PayOrder.OPERATION,
        KEY,
        "hash",
        IdempotencyRecord.Status.PROCESSING,
        outcomeUnknown,
        2,
        databaseNow.plus(leaseLeft),
        databaseNow.minus(age),
        null,
        databaseNow.minus(age).plus(Duration.ofDays(7)),
        null,
        null,
        null,
        null,
        databaseNow);
  }

  static IdempotencyRecord record(
      IdempotencyRecord.Status status,
      boolean outcomeUnknown,
      Instant lockedUntil,
      String lastCheck) {
    Instant now = Instant.now();
    return new IdempotencyRecord(
        TENANT,
        PayOrder.OPERATION,
        KEY,
        "hash",
        status,
        outcomeUnknown,
        2,
        lockedUntil,
        lockedUntil.minusSeconds(30),
        status == IdempotencyRecord.Status.COMPLETED ? now : null,
        now.plus(Duration.ofDays(7)),
        null,
        lastCheck,
        lastCheck == null ? null : "checked before",
        lastCheck == null ? null : now.minusSeconds(60),
        now);
  }

  /**
   * Until closed, MicroProfile Config has no value at all: what ProblemDetails reads its
   * problem-type base from, when a test builds a problem outside the server.
   */
  static AutoCloseable noConfiguration() {
    Config config = mock(Config.class);
    when(config.getOptionalValue(anyString(), eq(String.class))).thenReturn(Optional.empty());
    ConfigProviderResolver resolver = mock(ConfigProviderResolver.class);
    when(resolver.getConfig()).thenReturn(config);
    ConfigProviderResolver.setInstance(resolver);
    return () -> ConfigProviderResolver.setInstance(null);
  }

  /** A PENDING attempt of {@link #ORDER} for {@link #AMOUNT} VND under the key's claim. */
  static Payment pendingPayment() {
    return new Payment(TENANT, ORDER, AMOUNT, "VND", "pm_card_ok", GATEWAY_KEY, KEY, 2);
  }
}
