package com.banhang.shop.admin.application;

import com.banhang.idempotency.IdempotencyKeys;
import com.banhang.idempotency.IdempotencyRecord;
import com.banhang.idempotency.StoredResponse;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * One key by tenant, operation and key, whatever its state, with its stored body masked. The body
 * is decrypted by the store only to be masked and shown, never kept.
 */
@ApplicationScoped
public class KeyLookup {

  @Inject IdempotencyKeys keys;

  public Optional<KeyDetails> find(KeyRef ref) {
    return keys.find(ref.tenant(), ref.operation(), ref.key()).map(KeyLookup::details);
  }

  static KeyDetails details(IdempotencyRecord record) {
    StoredResponse response = record.response();
    return new KeyDetails(
        new KeyRef(record.tenant(), record.operation(), record.key()),
        record.status().name(),
        record.outcomeUnknown(),
        record.attempt(),
        record.fingerprint(),
        record.createdAt(),
        record.completedAt(),
        record.expiresAt(),
        record.lockedUntil(),
        response == null ? null : response.status(),
        response == null ? Map.of() : headers(response),
        response == null ? null : SensitiveFields.mask(response.body()),
        record.lastCheck(),
        record.lastCheckedAt());
  }

  private static Map<String, List<String>> headers(StoredResponse response) {
    return response.headers().entrySet().stream()
        .collect(
            Collectors.toMap(
                Map.Entry::getKey,
                e -> List.of(e.getValue()),
                (a, b) -> a,
                java.util.TreeMap::new));
  }
}
