package com.banhang.shop.web.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class KafkaSettingsTest {

  private static final String PREFIX = "mp.messaging.outgoing.shop-events.";

  @Test
  void withoutABootstrapServer_theTransportIsOff_andTheChannelEndsAtTheStandIn() {
    for (Map<String, String> config :
        java.util.List.of(Map.<String, String>of(), Map.of(KafkaSettings.BOOTSTRAP_SERVERS, " "))) {
      KafkaSettings settings = read(config);
      assertThat(settings.enabled()).isFalse();
      assertThat(settings.channelProperties())
          .containsExactly(Map.entry(PREFIX + "connector", "banhang-kafka-off"));
    }
  }

  @Test
  void withABootstrapServer_theChannelIsLibertysKafkaConnector_withAnIdempotentProducer() {
    KafkaSettings settings =
        read(
            Map.of(
                KafkaSettings.BOOTSTRAP_SERVERS, " kafka-1:9092,kafka-2:9092 ",
                KafkaSettings.LEASE, "PT15S"));

    assertThat(settings.enabled()).isTrue();
    assertThat(settings.channelProperties())
        .containsEntry(PREFIX + "connector", "liberty-kafka")
        .containsEntry(PREFIX + "topic", "shop-events")
        .containsEntry(PREFIX + "bootstrap.servers", "kafka-1:9092,kafka-2:9092")
        .containsEntry(PREFIX + "acks", "all")
        .containsEntry(PREFIX + "enable.idempotence", "true")
        .containsEntry(PREFIX + "max.block.ms", "3000")
        .containsEntry(PREFIX + "request.timeout.ms", "3000")
        .containsEntry(PREFIX + "delivery.timeout.ms", "6000")
        .containsEntry(PREFIX + "compression.type", "none")
        .containsEntry(
            PREFIX + "key.serializer", "org.apache.kafka.common.serialization.StringSerializer");
    assertThat(settings.channelProperties().keySet()).allMatch(name -> name.startsWith(PREFIX));
  }

  @Test
  void everySendIsSettledInsideTheLease_forAnyLease() {
    for (String lease : new String[] {"PT5S", "PT15S", "PT60S", "PT10M"}) {
      KafkaSettings settings =
          read(Map.of(KafkaSettings.BOOTSTRAP_SERVERS, "k:9092", KafkaSettings.LEASE, lease));
      Duration handedOverAtTheLatest = settings.handOverWindow();
      Duration settledAtTheLatest =
          handedOverAtTheLatest.plusMillis(settings.maxBlockMs() + settings.deliveryTimeoutMs());
      assertThat(handedOverAtTheLatest).isPositive();
      assertThat(settledAtTheLatest).isLessThanOrEqualTo(settings.ackTimeout());
      assertThat(settings.ackTimeout()).isLessThan(settings.lease());
      // Kafka refuses a delivery timeout shorter than linger.ms (5 ms) plus the request timeout.
      assertThat(settings.deliveryTimeoutMs()).isGreaterThan(settings.requestTimeoutMs() + 5);
    }
  }

  @Test
  void theTopicAndTheLeaseComeFromTheConfiguration_andTheDefaultLeaseIsTheRelays() {
    KafkaSettings configured =
        read(
            Map.of(
                KafkaSettings.BOOTSTRAP_SERVERS, "k:9092",
                KafkaSettings.TOPIC, "shop.events-v1"));
    assertThat(configured.topic()).isEqualTo("shop.events-v1");
    assertThat(configured.lease()).isEqualTo(Duration.ofSeconds(60));
    assertThat(configured.channelProperties()).containsEntry(PREFIX + "topic", "shop.events-v1");
  }

  @Test
  void aTopicKafkaWouldRefuse_orALeaseTooShort_isRefusedNamingTheProperty() {
    assertThatThrownBy(() -> read(Map.of(KafkaSettings.TOPIC, "shop events")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("events.kafka.topic");
    assertThatThrownBy(() -> read(Map.of(KafkaSettings.TOPIC, "..")))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> read(Map.of(KafkaSettings.LEASE, "PT2S")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("events.relay.lease");
  }

  private static KafkaSettings read(Map<String, String> config) {
    return KafkaSettings.read(name -> Optional.ofNullable(config.get(name)));
  }
}
