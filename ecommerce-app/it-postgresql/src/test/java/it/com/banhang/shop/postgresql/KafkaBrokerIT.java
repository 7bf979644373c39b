package it.com.banhang.shop.postgresql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/**
 * The test broker itself ({@link KafkaBroker}): a real broker that tests can take down and bring
 * back under a running client. An idempotent producer writes before, during and after an outage;
 * what it was told was written is on the topic, once each and in order, and what it was told failed
 * is not.
 */
class KafkaBrokerIT {

  private static final String TOPIC = "kafka-broker-it";
  private static final String KEY = "order-1";

  /**
   * How long a send may wait for a broker that is down, both in send() (max.block.ms) and after it
   * (delivery.timeout.ms): short enough for the test's time, long enough for a merely busy broker
   * (delivery.timeout.ms must be at least linger.ms + request.timeout.ms). Which of the two bounds
   * a record meets depends on when it is sent: once the client has lost every connection it drops
   * its metadata and goes back to bootstrap.servers (metadata.recovery.strategy=rebootstrap, the
   * 4.x default), and send() then blocks waiting for the topic's partitions, up to max.block.ms (60
   * s unless set); before that the record is queued and expires at delivery.timeout.ms.
   */
  private static final int OUTAGE_TIMEOUT_MS = 6_000;

  @Test
  void anIdempotentProducerOutlivesARestart_andEveryAcknowledgedRecordIsReadBackOnceInOrder()
      throws Exception {
    try (KafkaBroker broker = KafkaBroker.start(Path.of("target", "kafka-broker-it"));
        KafkaProducer<String, String> producer = new KafkaProducer<>(producer(broker))) {
      RecordMetadata first = send(producer, "event-1");
      send(producer, "event-2");
      send(producer, "event-3");

      broker.stop();
      long outage = System.nanoTime();
      Future<RecordMetadata> duringOutage =
          producer.send(new ProducerRecord<>(TOPIC, KEY, "sent-while-down"));
      long sendReturned = System.nanoTime();
      // The producer holds the record and retries; with no broker it gives up within its bounds
      // and says so: a caller learns the record was not written.
      assertThatThrownBy(() -> duringOutage.get(30, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class)
          .hasCauseInstanceOf(TimeoutException.class);
      Duration waited = Duration.ofNanos(System.nanoTime() - outage);
      System.out.printf(
          "A send during the outage failed after %d ms, %d ms of them inside send()%n",
          waited.toMillis(), (sendReturned - outage) / 1_000_000);
      assertThat(waited)
          .as("how long the send waited for the broker before failing")
          .isGreaterThanOrEqualTo(Duration.ofMillis(OUTAGE_TIMEOUT_MS - 1_000));

      broker.restart();
      // The same producer, reconnecting by itself.
      send(producer, "event-4");
      RecordMetadata last = send(producer, "event-5");

      List<ConsumerRecord<String, String>> records = broker.readAll(TOPIC, Duration.ofSeconds(30));
      assertThat(records)
          .extracting(ConsumerRecord::value)
          .containsExactly("event-1", "event-2", "event-3", "event-4", "event-5");
      assertThat(records).extracting(ConsumerRecord::key).containsOnly(KEY);
      // One key, one partition: its order is the order of the offsets.
      assertThat(records)
          .extracting(ConsumerRecord::partition)
          .containsOnly(first.partition())
          .containsOnly(last.partition());
      assertThat(records.stream().mapToLong(ConsumerRecord::offset).toArray()).isSorted();
      // consume(), with a condition instead of the topic's end: what tests waiting for an event
      // use.
      assertThat(
              broker.consume(
                  TOPIC,
                  Duration.ofSeconds(10),
                  read -> read.stream().anyMatch(r -> r.value().equals("event-5"))))
          .extracting(ConsumerRecord::value)
          .contains("event-1", "event-5");
    }
  }

  private static RecordMetadata send(KafkaProducer<String, String> producer, String value)
      throws Exception {
    return producer.send(new ProducerRecord<>(TOPIC, KEY, value)).get(30, TimeUnit.SECONDS);
  }

  private static Properties producer(KafkaBroker broker) {
    Properties properties = new Properties();
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
    properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class);
    properties.put(ProducerConfig.ACKS_CONFIG, "all");
    properties.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    properties.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    properties.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 3_000);
    properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, OUTAGE_TIMEOUT_MS);
    properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, OUTAGE_TIMEOUT_MS);
    properties.put(ProducerConfig.CLIENT_ID_CONFIG, "kafka-broker-it");
    return properties;
  }
}
