package com.banhang.shop.web.events;

import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.eclipse.microprofile.reactive.messaging.spi.Connector;
import org.eclipse.microprofile.reactive.messaging.spi.OutgoingConnectorFactory;
import org.eclipse.microprofile.reactive.streams.operators.ReactiveStreams;
import org.eclipse.microprofile.reactive.streams.operators.SubscriberBuilder;

/**
 * The Kafka channel's connector while Kafka is off. Liberty refuses to deploy an application whose
 * emitter's channel leads nowhere (a Reactive Messaging wiring error), and a channel given
 * Liberty's Kafka connector creates a producer at deployment, which refuses an empty {@code
 * bootstrap.servers}. So with no bootstrap server the channel ends here ({@link
 * KafkaSettings#channelProperties()}): no Kafka class is touched, no connection attempted. The
 * relay never publishes through a disabled transport; should a message come anyway, it is refused.
 */
@ApplicationScoped
@Connector(KafkaSettings.OFF_CONNECTOR)
public class KafkaOffConnector implements OutgoingConnectorFactory {

  @Override
  public SubscriberBuilder<Message<?>, Void> getSubscriberBuilder(Config config) {
    return ReactiveStreams.<Message<?>>builder()
        .forEach(
            message ->
                message.nack(
                    new IllegalStateException(
                        "Kafka is off: " + KafkaSettings.BOOTSTRAP_SERVERS + " is not set")));
  }
}
