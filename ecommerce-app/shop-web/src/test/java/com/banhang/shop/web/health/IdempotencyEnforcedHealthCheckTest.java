package com.banhang.shop.web.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigValue;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.eclipse.microprofile.config.spi.Converter;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponse.Status;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The readiness check of the operations' modes: UP while every operation is enforced; DOWN when one
 * is not and nobody acknowledged it; UP when acknowledged. The answer carries no data (an anonymous
 * caller reads it); the operations and their modes go to the log.
 */
class IdempotencyEnforcedHealthCheckTest {

  private final Map<String, String> settings = new HashMap<>();

  /** What the check logged, formatted. */
  private final List<String> logged = new java.util.concurrent.CopyOnWriteArrayList<>();

  private final java.util.logging.Handler capture =
      new java.util.logging.Handler() {
        @Override
        public void publish(java.util.logging.LogRecord record) {
          logged.add(new java.util.logging.SimpleFormatter().formatMessage(record));
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
      };

  @org.junit.jupiter.api.BeforeEach
  void captureTheLog() {
    java.util.logging.Logger.getLogger(BoundedCheck.class.getName()).addHandler(capture);
  }

  @org.junit.jupiter.api.AfterEach
  void stopCapturing() {
    java.util.logging.Logger.getLogger(BoundedCheck.class.getName()).removeHandler(capture);
  }

  @BeforeAll
  static void responsesWithoutAServer() {
    HealthCheckResponse.setResponseProvider(Builder::new);
  }

  @Test
  void everyOperationEnforced_isUp() {
    settings.put("idempotency.operations.orders.create.ttl", "PT24H");
    settings.put("idempotency.operations.payments.charge.mode", "enforced");

    HealthCheckResponse response = check();

    assertThat(response.getName()).isEqualTo("idempotency-enforced");
    assertThat(response.getStatus()).isEqualTo(Status.UP);
  }

  @Test
  void anOperationNotEnforced_withoutAcknowledgement_isDownAndNamesIt() {
    settings.put("idempotency.operations.orders.create.mode", "OFF");
    settings.put("idempotency.operations.payments.charge.mode", "optional");

    HealthCheckResponse response = check();

    assertThat(response.getStatus()).isEqualTo(Status.DOWN);
    assertThat(response.getData()).isEmpty();
    assertThat(logged)
        .singleElement()
        .asString()
        .contains("orders.create=off")
        .contains("payments.charge=optional")
        .contains("not acknowledged");
  }

  @Test
  void anOperationNotEnforced_acknowledged_isUpAndStillNamesIt() {
    settings.put("idempotency.operations.orders.create.mode", "off");
    settings.put("idempotency.comparison-only.acknowledged", "true");

    HealthCheckResponse response = check();

    assertThat(response.getStatus()).isEqualTo(Status.UP);
    assertThat(response.getData()).isEmpty();
    assertThat(logged)
        .singleElement()
        .asString()
        .contains("orders.create=off")
        .contains("acknowledged");
  }

  @Test
  void aValueThatIsNoMode_isDownWithTheReason() {
    settings.put("idempotency.operations.orders.create.mode", "disabled");

    HealthCheckResponse response = check();

    assertThat(response.getStatus()).isEqualTo(Status.DOWN);
    assertThat(response.getData()).isEmpty();
    assertThat(logged)
        .singleElement()
        .asString()
        .contains("idempotency.operations.orders.create.mode");
  }

  private HealthCheckResponse check() {
    IdempotencyEnforcedHealthCheck check = new IdempotencyEnforcedHealthCheck();
    check.config = config(settings);
    return check.call();
  }

  /** A config over a map, with MicroProfile Config's boolean converter. */
  @SuppressWarnings("unchecked")
  private static Config config(Map<String, String> values) {
    return new Config() {
      @Override
      public <T> T getValue(String name, Class<T> type) {
        return getOptionalValue(name, type).orElseThrow();
      }

      @Override
      public ConfigValue getConfigValue(String name) {
        throw new UnsupportedOperationException();
      }

      @Override
      public <T> Optional<T> getOptionalValue(String name, Class<T> type) {
        Optional<String> value = Optional.ofNullable(values.get(name));
        if (type == Boolean.class) {
          return (Optional<T>)
              value.map(v -> List.of("true", "1", "yes", "y", "on").contains(v.toLowerCase()));
        }
        return value.map(type::cast);
      }

      @Override
      public Iterable<String> getPropertyNames() {
        return values.keySet();
      }

      @Override
      public Iterable<ConfigSource> getConfigSources() {
        return List.of();
      }

      @Override
      public <T> Optional<Converter<T>> getConverter(Class<T> type) {
        return Optional.empty();
      }

      @Override
      public <T> T unwrap(Class<T> type) {
        throw new IllegalArgumentException();
      }
    };
  }

  /** The smallest response builder: no MicroProfile Health implementation is on the class path. */
  static final class Builder extends HealthCheckResponseBuilder {
    private String name;
    private Status status = Status.DOWN;
    private final Map<String, Object> data = new LinkedHashMap<>();

    @Override
    public HealthCheckResponseBuilder name(String name) {
      this.name = name;
      return this;
    }

    @Override
    public HealthCheckResponseBuilder withData(String key, String value) {
      data.put(key, value);
      return this;
    }

    @Override
    public HealthCheckResponseBuilder withData(String key, long value) {
      data.put(key, value);
      return this;
    }

    @Override
    public HealthCheckResponseBuilder withData(String key, boolean value) {
      data.put(key, value);
      return this;
    }

    @Override
    public HealthCheckResponseBuilder up() {
      return status(true);
    }

    @Override
    public HealthCheckResponseBuilder down() {
      return status(false);
    }

    @Override
    public HealthCheckResponseBuilder status(boolean up) {
      status = up ? Status.UP : Status.DOWN;
      return this;
    }

    @Override
    public HealthCheckResponse build() {
      return new HealthCheckResponse(
          name, status, data.isEmpty() ? Optional.empty() : Optional.of(data));
    }
  }
}
