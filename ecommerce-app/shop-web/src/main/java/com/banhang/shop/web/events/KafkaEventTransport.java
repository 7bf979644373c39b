package com.banhang.shop.web.events;

import com.banhang.events.EventEnvelope;
import com.banhang.events.EventTransport;
import com.banhang.events.OutboxEvent;
import jakarta.annotation.PreDestroy;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedThreadFactory;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.logging.Logger;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;

/**
 * The relay's transport to Kafka: each event's CloudEvents envelope ({@link EventEnvelope}) as the
 * value of a record keyed by the event's aggregate id, so that all the events of an order land in
 * one partition, in the order the relay sends them. Sent through MicroProfile Reactive Messaging:
 * an emitter on the channel {@value KafkaSettings#CHANNEL}, which Liberty's Kafka connector ({@code
 * liberty-kafka}) writes to the topic {@code events.kafka.topic} with an idempotent producer that
 * waits for every in-sync replica ({@link KafkaSettings}).
 *
 * <p>The key: the message's payload is a Kafka {@link ProducerRecord}, which Liberty's connector
 * sends as it is (its key, value and headers), on the channel's configured topic; any other payload
 * would be sent without a key.
 *
 * <p>The acknowledgement: the connector acknowledges a message when the producer's callback reports
 * the record written, and negatively acknowledges it when the callback reports a failure (the
 * producer gave up: delivery timeout, a broker refusal) or when {@code send()} itself throws. The
 * stage {@link #publish} returns completes normally on the acknowledgement only; it fails on the
 * negative one, or once the lease's budget is spent ({@link KafkaSettings#ackTimeout()}): the relay
 * then sends the event again, with the same id.
 *
 * <p>The producer's {@code send()} may block (up to {@code max.block.ms}) while the brokers are
 * unreachable, and the connector calls it on the thread that emits. So the emitter is called on a
 * thread of its own, one record after another in the order the relay published them; the relay's
 * thread only queues. A record that waited past {@link KafkaSettings#handOverWindow()} for its turn
 * (behind others blocked by an outage) is dropped unsent and its stage failed, so that nothing is
 * written to Kafka late, after the relay gave up on it.
 *
 * <p>Off unless {@code events.kafka.bootstrap-servers} is set: {@link #enabled()} is false, the
 * relay never calls {@link #publish}, and the channel ends at a stand-in connector ({@link
 * KafkaChannelConfigSource}, {@link KafkaOffConnector}), so no producer exists and no sending
 * thread is started.
 */
@ApplicationScoped
public class KafkaEventTransport implements EventTransport {

  private static final Logger LOG = Logger.getLogger(KafkaEventTransport.class.getName());

  /** Events waiting for the sending thread; the relay publishes one batch at a time. */
  private static final int QUEUE_CAPACITY = 1000;

  @Inject Config config;

  @Inject
  @Channel(KafkaSettings.CHANNEL)
  Emitter<ProducerRecord<String, String>> emitter;

  @Resource(lookup = "java:comp/DefaultManagedThreadFactory")
  ManagedThreadFactory threads;

  private volatile KafkaSettings settings;
  private volatile String source;
  private ExecutorService sender;
  private final AtomicBoolean stoppedReported = new AtomicBoolean();

  /**
   * Reads the settings when the application starts, so that an invalid topic or lease, or a missing
   * {@code events.source}, stops the deployment with the property's name rather than failing every
   * event.
   */
  void readAtStartup(@Observes @Initialized(ApplicationScoped.class) Object started) {
    KafkaSettings read = settings();
    if (read.enabled()) {
      source();
      LOG.info(
          () ->
              "Events are published to the Kafka topic "
                  + read.topic()
                  + " at "
                  + read.bootstrapServers().orElseThrow());
    }
  }

  @Override
  public String name() {
    return "kafka";
  }

  /** Enabled when {@code events.kafka.bootstrap-servers} is set. */
  @Override
  public boolean enabled() {
    return settings().enabled();
  }

  @Override
  public CompletionStage<Void> publish(OutboxEvent event) {
    CompletableFuture<Void> acknowledged = new CompletableFuture<>();
    try {
      KafkaSettings current = settings();
      if (!current.enabled()) {
        throw new IllegalStateException("the Kafka transport is off");
      }
      ProducerRecord<String, String> record =
          new ProducerRecord<>(
              current.topic(), event.aggregateId(), EventEnvelope.json(event, source()));
      Message<ProducerRecord<String, String>> message =
          Message.of(
              record,
              () -> {
                acknowledged.complete(null);
                return CompletableFuture.completedFuture(null);
              },
              failure -> {
                acknowledged.completeExceptionally(failure);
                return CompletableFuture.completedFuture(null);
              });
      long handOverBy = System.nanoTime() + current.handOverWindow().toNanos();
      CompletableFuture.delayedExecutor(current.ackTimeout().toMillis(), TimeUnit.MILLISECONDS)
          .execute(
              () ->
                  acknowledged.completeExceptionally(
                      new TimeoutException(
                          "Kafka did not acknowledge event "
                              + event.id()
                              + " within "
                              + current.ackTimeout())));
      sender().execute(() -> handOver(message, acknowledged, handOverBy, event));
    } catch (RejectedExecutionException e) {
      acknowledged.completeExceptionally(
          new IllegalStateException(
              stopping()
                  ? "the application is stopping"
                  : QUEUE_CAPACITY + " events already wait for Kafka; this one is sent later",
              e));
    } catch (RuntimeException e) {
      acknowledged.completeExceptionally(e);
    }
    // A copy: whatever the caller does with what it is given, the callbacks complete this one.
    return acknowledged.copy();
  }

  /** On the sending thread: hands the record to the connector, unless it is too late for it. */
  private void handOver(
      Message<ProducerRecord<String, String>> message,
      CompletableFuture<Void> acknowledged,
      long handOverBy,
      OutboxEvent event) {
    if (acknowledged.isDone()) {
      return;
    }
    if (System.nanoTime() - handOverBy > 0) {
      acknowledged.completeExceptionally(
          new TimeoutException(
              "event "
                  + event.id()
                  + " waited too long behind others for the Kafka producer; not sent"));
      return;
    }
    if (emitter.isCancelled()) {
      // Liberty's connector ends its stream when the producer's send() throws (a closed or failed
      // producer); nothing reaches Kafka until the application is restarted.
      if (stoppedReported.compareAndSet(false, true)) {
        LOG.severe(
            "The Kafka channel "
                + KafkaSettings.CHANNEL
                + " has stopped (see the connector's error above): events wait in the outbox"
                + " until the application restarts");
      }
      acknowledged.completeExceptionally(
          new IllegalStateException("the Kafka channel has stopped; restart the application"));
      return;
    }
    try {
      emitter.send(message);
    } catch (RuntimeException e) {
      acknowledged.completeExceptionally(e);
    }
  }

  private KafkaSettings settings() {
    KafkaSettings current = settings;
    if (current == null) {
      current = KafkaSettings.read(name -> config.getOptionalValue(name, String.class));
      settings = current;
    }
    return current;
  }

  /** The events' CloudEvents source, {@code events.source}, which the shop always sets. */
  private String source() {
    String current = source;
    if (current == null) {
      current =
          config
              .getOptionalValue("events.source", String.class)
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "events.source must be set when "
                              + KafkaSettings.BOOTSTRAP_SERVERS
                              + " is"));
      source = current;
    }
    return current;
  }

  private synchronized ExecutorService sender() {
    if (sender == null) {
      sender =
          new ThreadPoolExecutor(
              1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(QUEUE_CAPACITY), threads);
    }
    return sender;
  }

  private synchronized boolean stopping() {
    return sender != null && sender.isShutdown();
  }

  @PreDestroy
  synchronized void stop() {
    if (sender != null) {
      // What still waits is dropped: each stage fails at its timeout and the relay sends it again.
      sender.shutdownNow();
    }
  }
}
