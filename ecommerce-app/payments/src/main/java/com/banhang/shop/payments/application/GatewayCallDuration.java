package com.banhang.shop.payments.application;

import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.Config;

/**
 * How long the gateway adapter's charge call can last at most, as its own bounds (Fault Tolerance
 * timeout and retries) say and a deployment configures them: what a payments.charge key's lease
 * must cover ({@link PaymentLease}).
 *
 * <p>A port the gateway adapter implements, so that only the adapter knows which of its methods and
 * annotations bound the call. It is found through {@link java.util.ServiceLoader} ({@code
 * META-INF/services}), not CDI, because the start-up checks that need it run before CDI has
 * discovered any bean.
 */
public interface GatewayCallDuration {

  /**
   * The longest one charge call can last, or empty when the configuration leaves it unbounded.
   *
   * @throws RuntimeException when a setting it reads is malformed
   */
  Optional<Duration> longest(Config config);

  /** Where a deployment changes these bounds, for messages: the Fault Tolerance property prefix. */
  String settings();
}
