package com.banhang.shop.admin.application;

import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.ProcessingQuery;
import com.banhang.shop.payments.api.KeyPaymentView;
import com.banhang.shop.payments.api.KeyPayments;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Keys left processing: paged on the server, filtered, with the detail of one. */
@ApplicationScoped
public class StuckOperations {

  /** The console's default threshold: keys younger than this may still be running. */
  public static final Duration DEFAULT_MIN_AGE = Duration.ofMinutes(2);

  static final String PAYMENTS_CHARGE = "payments.charge";

  @Inject IdempotencyKeys keys;
  @Inject KeyPayments keyPayments;

  public int count(StuckFilter filter) {
    // The listing counts every match whatever the page; a page of one row, since SQL Server
    // refuses FETCH NEXT 0 ROWS.
    return keys.listProcessing(query(filter), 0, 1).total();
  }

  /** Oldest first; a page of no rows is empty without a query (SQL Server refuses FETCH 0). */
  public List<StuckOperation> page(StuckFilter filter, int offset, int limit) {
    if (limit < 1) {
      return List.of();
    }
    return keys.listProcessing(query(filter), Math.max(0, offset), limit).rows().stream()
        .map(StuckOperations::view)
        .toList();
  }

  /** The key, if it is still processing, with its payment for a payments.charge key. */
  public Optional<StuckOperationDetail> detail(KeyRef ref) {
    return keys.find(ref.tenant(), ref.operation(), ref.key())
        .filter(record -> record.status() == IdempotencyRecord.Status.PROCESSING)
        .map(
            record ->
                new StuckOperationDetail(
                    view(record),
                    record.fingerprint(),
                    record.expiresAt(),
                    record.lastCheckDetail(),
                    payment(ref)));
  }

  /**
   * The payment each payments.charge row's claim started, for the listing's order, amount and
   * customer columns: one index seek per row of the page (the payments context owns the table, so
   * the library's listing cannot join it), never for more than a page.
   */
  public java.util.Map<KeyRef, KeyPaymentView> paymentsOf(List<StuckOperation> rows) {
    java.util.Map<KeyRef, KeyPaymentView> found = new java.util.HashMap<>();
    for (StuckOperation row : rows) {
      if (PAYMENTS_CHARGE.equals(row.ref().operation())) {
        keyPayments
            .paymentOfClaim(row.ref().tenant(), row.ref().key(), row.attempt())
            .ifPresent(p -> found.put(row.ref(), p));
      }
    }
    return found;
  }

  private Optional<KeyPaymentView> payment(KeyRef ref) {
    if (!PAYMENTS_CHARGE.equals(ref.operation())) {
      return Optional.empty();
    }
    return keyPayments.paymentOfKey(ref.tenant(), ref.key());
  }

  private static ProcessingQuery query(StuckFilter filter) {
    Duration minAge = filter.minAge() == null ? Duration.ZERO : filter.minAge();
    String lastCheck =
        StuckFilter.NEVER_CHECKED.equals(filter.lastCheck())
            ? ProcessingQuery.NEVER_CHECKED
            : blankToNull(filter.lastCheck());
    return new ProcessingQuery(
        blankToNull(filter.tenant()),
        blankToNull(filter.operation()),
        lastCheck,
        minAge,
        filter.claimedFrom(),
        filter.claimedBefore(),
        filter.sort() == null
            ? null
            : new ProcessingQuery.Sort(
                ProcessingQuery.Column.valueOf(filter.sort().column().name()),
                filter.sort().descending()));
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.trim();
  }

  static StuckOperation view(IdempotencyRecord record) {
    return new StuckOperation(
        new KeyRef(record.tenant(), record.operation(), record.key()),
        record.attempt(),
        record.createdAt(),
        record.lockedUntil(),
        record.outcomeUnknown(),
        record.lastCheck(),
        record.lastCheckedAt(),
        record.readAt());
  }
}
