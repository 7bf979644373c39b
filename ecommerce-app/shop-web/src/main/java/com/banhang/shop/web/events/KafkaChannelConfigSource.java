package com.banhang.shop.web.events;

import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.config.spi.ConfigSource;

/**
 * The Kafka channel's configuration ({@code mp.messaging.outgoing.shop-events.*}, {@link
 * KafkaSettings#channelProperties()}) as a MicroProfile Config source: Liberty's Kafka connector
 * and the producer's settings when {@code events.kafka.bootstrap-servers} is set, the stand-in
 * {@link KafkaOffConnector} otherwise. Static properties could not choose: Liberty's connector
 * creates its producer at deployment and refuses an empty {@code bootstrap.servers}, which would
 * fail the shop's deployment whenever Kafka is not wanted, and a channel with no connector fails it
 * too.
 *
 * <p>The properties are computed from the application's configuration on first use, after the
 * configuration was built (Reactive Messaging reads its channels when the application starts). A
 * call made while the configuration is still being built, or from within the lookup this source
 * makes itself, finds no property and is not remembered. Its ordinal is above every source an
 * operator sets, so that the producer's bounds and its acknowledgement settings stay the ones the
 * transport relies on; other producer properties (TLS, SASL) are still added as {@code
 * mp.messaging.outgoing.shop-events.<kafka property>} by any source.
 *
 * <p>Registered in {@code META-INF/services/org.eclipse.microprofile.config.spi.ConfigSource}.
 */
public final class KafkaChannelConfigSource implements ConfigSource {

  private static final Logger LOG = Logger.getLogger(KafkaChannelConfigSource.class.getName());

  /**
   * Above the sources an operator sets: system properties (400), environment variables (300),
   * properties files (100), and Liberty's server.xml variables and application properties.
   */
  static final int ORDINAL = 1000;

  private static final ThreadLocal<Boolean> READING = new ThreadLocal<>();

  private volatile Map<String, String> properties;

  @Override
  public Set<String> getPropertyNames() {
    return properties().keySet();
  }

  @Override
  public String getValue(String propertyName) {
    if (propertyName == null || !propertyName.startsWith(KafkaSettings.CHANNEL_PREFIX)) {
      // Any other lookup, the settings' own among them, never reads the configuration from here.
      return null;
    }
    return properties().get(propertyName);
  }

  @Override
  public String getName() {
    return "banhang-kafka-channel";
  }

  @Override
  public int getOrdinal() {
    return ORDINAL;
  }

  private Map<String, String> properties() {
    Map<String, String> known = properties;
    if (known != null) {
      return known;
    }
    if (READING.get() != null) {
      return Map.of();
    }
    READING.set(Boolean.TRUE);
    try {
      Config config;
      try {
        config = ConfigProvider.getConfig(KafkaChannelConfigSource.class.getClassLoader());
      } catch (IllegalStateException e) {
        // The configuration is not available yet (it is being built): asked again later.
        LOG.log(Level.FINE, "no Kafka channel yet: configuration not available", e);
        return Map.of();
      }
      try {
        known =
            KafkaSettings.read(name -> config.getOptionalValue(name, String.class))
                .channelProperties();
      } catch (RuntimeException e) {
        // Invalid settings: the channel stays wired (to the stand-in), so that the deployment
        // fails where the transport refuses them at start-up, naming the property.
        LOG.log(Level.FINE, "no Kafka channel: invalid settings", e);
        known = Map.of(KafkaSettings.CHANNEL_PREFIX + "connector", KafkaSettings.OFF_CONNECTOR);
      }
      properties = known;
      return known;
    } finally {
      READING.remove();
    }
  }
}
