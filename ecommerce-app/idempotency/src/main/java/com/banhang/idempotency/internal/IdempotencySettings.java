package com.banhang.idempotency.internal;

import com.banhang.idempotency.persistence.ResponseBodyCipher;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Every knob of the library, read through MicroProfile Config, so each can be set in
 * microprofile-config.properties, a system property or an environment variable (IDEMPOTENCY_LEASE
 * for idempotency.lease). Defaults are listed in docs/idempotency.md.
 */
@ApplicationScoped
public class IdempotencySettings {

  @Inject Config config;

  @Inject
  @ConfigProperty(name = "idempotency.datasource", defaultValue = "jdbc/idempotency")
  String dataSourceName;

  @Inject
  @ConfigProperty(name = "idempotency.lease", defaultValue = "PT30S")
  Duration lease;

  @Inject
  @ConfigProperty(name = "idempotency.max-body-bytes", defaultValue = "65536")
  int maxBodyBytes;

  @Inject
  @ConfigProperty(name = "idempotency.in-progress-wait", defaultValue = "PT0S")
  Duration inProgressWait;

  @Inject
  @ConfigProperty(name = "idempotency.retry-after-seconds", defaultValue = "1")
  int retryAfterSeconds;

  @Inject
  @ConfigProperty(name = "idempotency.stored-headers", defaultValue = "Location,Content-Type")
  List<String> storedHeaders;

  /** Rows deleted per purge statement, so that no statement holds locks for long. */
  @Inject
  @ConfigProperty(name = "idempotency.retention.batch-size", defaultValue = "1000")
  int purgeBatchSize;

  /** Upper bound of batches per purge run, so one run cannot go on for ever behind a flood. */
  @Inject
  @ConfigProperty(name = "idempotency.retention.max-batches", defaultValue = "100")
  int purgeMaxBatches;

  /** Base64 of a 256-bit AES key; when set, stored response bodies are encrypted at rest. */
  @Inject
  @ConfigProperty(name = "idempotency.body-encryption-key")
  Optional<String> bodyEncryptionKey;

  public ResponseBodyCipher bodyCipher() {
    return bodyEncryptionKey
        .filter(k -> !k.isBlank())
        .map(ResponseBodyCipher::aesGcm)
        .orElse(ResponseBodyCipher.NONE);
  }

  public int purgeBatchSize() {
    return purgeBatchSize;
  }

  public int purgeMaxBatches() {
    return purgeMaxBatches;
  }

  public String dataSourceName() {
    return dataSourceName;
  }

  /** How long a winner owns a key before a retry of a local operation may take it over. */
  public Duration lease() {
    return lease;
  }

  public int maxBodyBytes() {
    return maxBodyBytes;
  }

  /** How long a duplicate waits for a running first attempt before it is answered 409. */
  public Duration inProgressWait() {
    return inProgressWait;
  }

  public int retryAfterSeconds() {
    return retryAfterSeconds;
  }

  /** The allowlist of response headers kept for replay; never cookies or credentials. */
  public List<String> storedHeaders() {
    return storedHeaders;
  }

  /** The operation's TTL: {@code idempotency.operations.<operation>.ttl}, else the annotation's. */
  public Duration ttl(String operation, String annotated) {
    Optional<Duration> configured =
        config.getOptionalValue("idempotency.operations." + operation + ".ttl", Duration.class);
    return configured.orElseGet(() -> Duration.parse(annotated));
  }

  /**
   * The TTL of every operation configured as {@code idempotency.operations.<operation>.ttl}, by
   * operation name (an operation that only has its annotation's TTL is not listed).
   */
  public java.util.Map<String, Duration> configuredTtls() {
    java.util.Map<String, Duration> ttls = new java.util.TreeMap<>();
    String prefix = "idempotency.operations.";
    for (String name : config.getPropertyNames()) {
      if (name.startsWith(prefix) && name.endsWith(".ttl")) {
        String operation = name.substring(prefix.length(), name.length() - ".ttl".length());
        config.getOptionalValue(name, Duration.class).ifPresent(ttl -> ttls.put(operation, ttl));
      }
    }
    return ttls;
  }
}
