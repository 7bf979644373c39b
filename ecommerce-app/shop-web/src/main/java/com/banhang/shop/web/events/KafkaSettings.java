package com.banhang.shop.web.events;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * What the Kafka transport runs with, read from MicroProfile Config: where the brokers are ({@code
 * events.kafka.bootstrap-servers}; unset or empty turns the transport off), the topic ({@code
 * events.kafka.topic}) and the relay's lease ({@code events.relay.lease}), from which every time
 * bound of the producer is derived.
 *
 * <p>The relay counts an event published only once the broker acknowledged it, and waits for that
 * at most one lease; after the lease another node may claim the event and send it again. So every
 * send must be settled, written or given up, well inside the lease, or a late copy of an event
 * could be written after its aggregate's next event (sent by the other node). The producer's own
 * bounds are fractions of the lease: {@code max.block.ms} (the wait inside {@code send()} for the
 * topic's metadata, e.g. while the brokers are down) a fifth, {@code delivery.timeout.ms} (from
 * {@code send()}'s return to the acknowledgement, retries included) two fifths; a record is handed
 * to the producer only while both still fit before four fifths of the lease ({@link
 * #handOverWindow()}), and the transport gives up on the acknowledgement at four fifths ({@link
 * #ackTimeout()}).
 *
 * <p>Both the transport and the channel's configuration ({@link KafkaChannelConfigSource}) read
 * these settings, so that they agree on whether Kafka is on.
 */
record KafkaSettings(Optional<String> bootstrapServers, String topic, Duration lease) {

  static final String BOOTSTRAP_SERVERS = "events.kafka.bootstrap-servers";
  static final String TOPIC = "events.kafka.topic";
  static final String LEASE = "events.relay.lease";

  static final String DEFAULT_TOPIC = "shop-events";

  /** The relay's own default (OutboxRelay). */
  static final Duration DEFAULT_LEASE = Duration.ofSeconds(60);

  /** The channel the transport's emitter writes to, and Liberty's connector reads from. */
  static final String CHANNEL = "shop-events";

  static final String CHANNEL_PREFIX = "mp.messaging.outgoing." + CHANNEL + ".";

  /** Liberty's Kafka connector. */
  static final String CONNECTOR = "liberty-kafka";

  /** The channel's connector while Kafka is off ({@link KafkaOffConnector}). */
  static final String OFF_CONNECTOR = "banhang-kafka-off";

  /** Kafka's rule for topic names. */
  private static final Pattern TOPIC_NAME = Pattern.compile("[a-zA-Z0-9._-]{1,249}");

  /** The shortest lease whose fractions still leave the producer a usable time (a second). */
  private static final Duration SHORTEST_LEASE = Duration.ofSeconds(5);

  private static final String STRING_SERIALIZER =
      "org.apache.kafka.common.serialization.StringSerializer";

  KafkaSettings {
    bootstrapServers = bootstrapServers.map(String::trim).filter(servers -> !servers.isEmpty());
    if (!TOPIC_NAME.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
      throw new IllegalArgumentException(
          TOPIC + " must be a Kafka topic name (letters, digits, '.', '_', '-'): " + topic);
    }
    if (lease.compareTo(SHORTEST_LEASE) < 0) {
      throw new IllegalArgumentException(
          LEASE + " must be at least " + SHORTEST_LEASE + " for the Kafka transport: " + lease);
    }
  }

  /**
   * Reads the settings through {@code config} (a property's value, empty when unset).
   *
   * @throws IllegalArgumentException for a topic Kafka would refuse or a lease too short
   */
  static KafkaSettings read(Function<String, Optional<String>> config) {
    return new KafkaSettings(
        config.apply(BOOTSTRAP_SERVERS),
        config.apply(TOPIC).map(String::trim).orElse(DEFAULT_TOPIC),
        config.apply(LEASE).map(String::trim).map(Duration::parse).orElse(DEFAULT_LEASE));
  }

  /** Whether the transport is on: a bootstrap server is set. */
  boolean enabled() {
    return bootstrapServers.isPresent();
  }

  long maxBlockMs() {
    return lease.toMillis() / 5;
  }

  /** How long one produce request may wait for the broker's answer before it is retried. */
  long requestTimeoutMs() {
    return lease.toMillis() / 5;
  }

  long deliveryTimeoutMs() {
    return lease.toMillis() * 2 / 5;
  }

  /** How long after {@code publish} the transport waits for the broker's acknowledgement. */
  Duration ackTimeout() {
    return lease.multipliedBy(4).dividedBy(5);
  }

  /**
   * How long after {@code publish} a record may still be handed to the producer: later, what the
   * producer may take (blocked in {@code send()}, then until its delivery timeout) would reach past
   * {@link #ackTimeout()}. A record that waited longer for its turn is not sent; the relay sends it
   * again.
   */
  Duration handOverWindow() {
    return ackTimeout().minusMillis(maxBlockMs() + deliveryTimeoutMs());
  }

  /**
   * The outgoing channel's configuration for Liberty's connector, which passes every property but
   * its own ({@code connector}, {@code topic}, ...) to the Kafka producer. When the transport is
   * off, only the stand-in connector that keeps the channel wired without Kafka.
   */
  Map<String, String> channelProperties() {
    if (!enabled()) {
      return Map.of(CHANNEL_PREFIX + "connector", OFF_CONNECTOR);
    }
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("connector", CONNECTOR);
    properties.put("topic", topic);
    properties.put("bootstrap.servers", bootstrapServers.get());
    properties.put("key.serializer", STRING_SERIALIZER);
    properties.put("value.serializer", STRING_SERIALIZER);
    // Acknowledged means written to every in-sync replica; the producer's retries never write a
    // record twice nor reorder a partition (idempotence allows at most five requests in flight).
    properties.put("acks", "all");
    properties.put("enable.idempotence", "true");
    properties.put("max.in.flight.requests.per.connection", "5");
    properties.put("max.block.ms", Long.toString(maxBlockMs()));
    properties.put("request.timeout.ms", Long.toString(requestTimeoutMs()));
    properties.put("delivery.timeout.ms", Long.toString(deliveryTimeoutMs()));
    // The WAR has no compression codec (shop-web's pom): the envelopes are small JSON documents.
    properties.put("compression.type", "none");
    properties.put("client.id", "banhang-shop-events");
    Map<String, String> named = new LinkedHashMap<>();
    properties.forEach((name, value) -> named.put(CHANNEL_PREFIX + name, value));
    return Map.copyOf(named);
  }
}
