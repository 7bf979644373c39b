package com.banhang.shop.web.events;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.banhang.events.EventEnvelope;
import com.banhang.events.OutboxEvent;
import com.banhang.idempotency.MapConfig;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The transport against a stand-in for Liberty's connector (an emitter that records what it is
 * given and acknowledges when told): what it sends, and that its stage follows the acknowledgements
 * and never outlives the lease.
 */
class KafkaEventTransportTest {

  /** The shortest lease: a hand-over window of 1 s, an acknowledgement timeout of 4 s. */
  private static final String LEASE = "PT5S";

  private final RecordingEmitter emitter = new RecordingEmitter();
  private KafkaEventTransport transport;

  @AfterEach
  void stop() {
    emitter.release.countDown();
    if (transport != null) {
      transport.stop();
    }
  }

  @Test
  void sendsTheEnvelopeKeyedByTheAggregate_andCompletesOnlyOnTheAcknowledgement() throws Exception {
    transport = transport(Map.of("events.kafka.bootstrap-servers", "k:9092"));
    OutboxEvent event = event("order-17", 2);

    CompletableFuture<Void> published = transport.publish(event).toCompletableFuture();
    Message<? extends ProducerRecord<String, String>> message = emitter.next();

    ProducerRecord<String, String> record = message.getPayload();
    assertThat(record.topic()).isEqualTo("shop-events");
    assertThat(record.key()).isEqualTo("order-17");
    assertThat(record.value()).isEqualTo(EventEnvelope.json(event, "urn:test"));
    assertThat(published).isNotDone();

    message.ack().toCompletableFuture().get(5, TimeUnit.SECONDS);
    published.get(5, TimeUnit.SECONDS);
  }

  @Test
  void aNegativeAcknowledgement_failsTheStageWithItsReason() throws Exception {
    transport = transport(Map.of("events.kafka.bootstrap-servers", "k:9092"));

    CompletableFuture<Void> published =
        transport.publish(event("order-1", 1)).toCompletableFuture();
    emitter.next().nack(new IllegalStateException("not enough replicas"));

    assertThatThrownBy(() -> published.get(5, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasRootCauseMessage("not enough replicas");
  }

  @Test
  void withoutAnyAcknowledgement_theStageFailsBeforeTheLeaseEnds() throws Exception {
    transport = transport(Map.of("events.kafka.bootstrap-servers", "k:9092"));

    CompletableFuture<Void> published =
        transport.publish(event("order-1", 1)).toCompletableFuture();
    emitter.next(); // sent, never acknowledged

    assertThatThrownBy(() -> published.get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(TimeoutException.class)
        .hasMessageContaining("did not acknowledge");
  }

  @Test
  void aProducerBlockedInSend_neitherBlocksTheRelay_norGetsARecordPastItsWindow() throws Exception {
    transport = transport(Map.of("events.kafka.bootstrap-servers", "k:9092"));
    emitter.block = true;

    // The first send blocks (as the producer's does while the brokers are away); publish returns.
    transport.publish(event("order-1", 1));
    emitter.next();
    CompletableFuture<Void> second = transport.publish(event("order-2", 1)).toCompletableFuture();
    assertThat(second).isNotDone();
    // Past the second one's hand-over window (1 s with this lease), the first send returns.
    Thread.sleep(1_500);
    emitter.release.countDown();

    assertThatThrownBy(() -> second.get(10, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasMessageContaining("not sent");
    assertThat(emitter.sent).as("nothing handed over late").isEmpty();
  }

  @Test
  void aStoppedChannel_failsEverySend() {
    transport = transport(Map.of("events.kafka.bootstrap-servers", "k:9092"));
    emitter.cancelled = true;

    assertThatThrownBy(
            () ->
                transport
                    .publish(event("order-1", 1))
                    .toCompletableFuture()
                    .get(5, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasMessageContaining("stopped");
  }

  @Test
  void withoutABootstrapServer_itIsDisabled_andSendsNothing() {
    transport = transport(Map.of());

    assertThat(transport.enabled()).isFalse();
    assertThatThrownBy(
            () ->
                transport
                    .publish(event("order-1", 1))
                    .toCompletableFuture()
                    .get(5, TimeUnit.SECONDS))
        .isInstanceOf(ExecutionException.class)
        .hasMessageContaining("off");
    assertThat(emitter.sent).isEmpty();
  }

  private KafkaEventTransport transport(Map<String, String> properties) {
    Map<String, String> all = new java.util.HashMap<>(properties);
    all.put("events.relay.lease", LEASE);
    all.put("events.source", "urn:test");
    KafkaEventTransport created = new KafkaEventTransport();
    created.config = new MapConfig(all);
    created.emitter = emitter;
    created.threads = new PlainThreads();
    created.readAtStartup(new Object());
    return created;
  }

  private static OutboxEvent event(String orderId, long sequence) {
    return new OutboxEvent(
        java.util.UUID.randomUUID().toString(),
        "order",
        orderId,
        sequence,
        "com.banhang.shop.OrderPlaced",
        "alice",
        "{\"orderId\":\"" + orderId + "\"}",
        Instant.parse("2026-12-06T10:15:30Z"),
        1);
  }

  /** Records what it is given; optionally blocks in send() until released, as a producer can. */
  private static final class RecordingEmitter implements Emitter<ProducerRecord<String, String>> {

    final BlockingQueue<Message<? extends ProducerRecord<String, String>>> sent =
        new LinkedBlockingQueue<>();
    final CountDownLatch release = new CountDownLatch(1);
    volatile boolean block;
    volatile boolean cancelled;

    Message<? extends ProducerRecord<String, String>> next() throws InterruptedException {
      Message<? extends ProducerRecord<String, String>> message = sent.poll(5, TimeUnit.SECONDS);
      assertThat(message).as("a message sent").isNotNull();
      return message;
    }

    @Override
    public CompletionStage<Void> send(ProducerRecord<String, String> payload) {
      throw new UnsupportedOperationException("the transport sends messages");
    }

    @Override
    public <M extends Message<? extends ProducerRecord<String, String>>> void send(M message) {
      sent.add(message);
      if (block) {
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }

    @Override
    public void complete() {}

    @Override
    public void error(Exception e) {}

    @Override
    public boolean isCancelled() {
      return cancelled;
    }

    @Override
    public boolean hasRequests() {
      return true;
    }
  }

  private static final class PlainThreads implements ManagedThreadFactory {
    @Override
    public Thread newThread(Runnable task) {
      Thread thread = new Thread(task, "kafka-transport-test");
      thread.setDaemon(true);
      return thread;
    }

    @Override
    public ForkJoinWorkerThread newThread(ForkJoinPool pool) {
      return ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
    }
  }

  /** String properties only, all the transport reads. */
}
