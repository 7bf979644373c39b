package com.banhang.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.cloudevents.CloudEvent;
import io.cloudevents.core.format.EventFormat;
import io.cloudevents.core.provider.EventFormatProvider;
import io.cloudevents.jackson.JsonFormat;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The envelope is CloudEvents 1.0 JSON: the SDK a subscriber would use reads every attribute. */
class EventEnvelopeTest {

  private static final OutboxEvent EVENT =
      new OutboxEvent(
          "9b0c3f7e-2a41-4c55-9d7e-0f6f2f3e4a10",
          "order",
          "order-1",
          2,
          "com.banhang.shop.PaymentCaptured",
          "alice",
          "{\"paymentId\":\"p-1\",\"amount\":1250}",
          Instant.parse("2026-12-06T10:15:30.123Z"),
          1);

  @Test
  void theCloudEventsSdkReadsTheEnvelope_attributesExtensionsAndData() {
    EventFormat format = EventFormatProvider.getInstance().resolveFormat(JsonFormat.CONTENT_TYPE);

    CloudEvent read =
        format.deserialize(
            EventEnvelope.json(EVENT, "urn:banhang:shop").getBytes(StandardCharsets.UTF_8));

    assertThat(read.getSpecVersion().toString()).isEqualTo("1.0");
    assertThat(read.getId()).isEqualTo(EVENT.id());
    assertThat(read.getSource()).isEqualTo(URI.create("urn:banhang:shop"));
    assertThat(read.getType()).isEqualTo("com.banhang.shop.PaymentCaptured");
    assertThat(read.getSubject()).isEqualTo("order-1");
    assertThat(read.getTime().toInstant()).isEqualTo(EVENT.createdAt());
    assertThat(read.getDataContentType()).isEqualTo("application/json");
    assertThat(read.getExtension("aggregatesequence")).isEqualTo(2);
    assertThat(read.getExtension("aggregatetype")).isEqualTo("order");
    assertThat(read.getExtension("tenantid")).isEqualTo("alice");
    assertThat(new String(read.getData().toBytes(), StandardCharsets.UTF_8))
        .contains("\"paymentId\":\"p-1\"")
        .contains("\"amount\":1250");
  }
}
