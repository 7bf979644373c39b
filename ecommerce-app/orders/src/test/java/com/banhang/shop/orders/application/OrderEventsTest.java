package com.banhang.shop.orders.application;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.events.NewEvent;
import com.banhang.events.RecordingOutbox;
import com.banhang.shop.orders.domain.model.Order;
import com.banhang.shop.orders.domain.model.OrderLine;
import com.banhang.shop.orders.domain.model.OrderPlaced;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A placed order opens its stream in the outbox with what a subscriber needs to fulfil it. */
class OrderEventsTest {

  @Test
  void aPlacedOrderIsRecordedAsTheFirstEventOfItsStream_withItsLinesAndTotal() {
    RecordingOutbox outbox = new RecordingOutbox();
    OrderEvents events = new OrderEvents();
    events.outbox = outbox;
    Order order =
        new Order(
            "alice",
            "m-1",
            "VND",
            List.of(new OrderLine("sku-1", 2, 500_000), new OrderLine("sku-2", 1, 250_000)));

    events.placed(new OrderPlaced(order));

    NewEvent event = outbox.recorded.get(0);
    assertThat(outbox.recorded).hasSize(1);
    assertThat(event.type()).isEqualTo(OrderEvents.PLACED);
    assertThat(event.aggregateType()).isEqualTo("order");
    assertThat(event.aggregateId()).isEqualTo(order.id());
    assertThat(event.tenantId()).isEqualTo("alice");
    JsonObject data = Json.createReader(new StringReader(event.payload())).readObject();
    assertThat(data.getString("orderId")).isEqualTo(order.id());
    assertThat(data.getString("merchantOrderId")).isEqualTo("m-1");
    assertThat(data.getJsonNumber("total").longValue()).isEqualTo(1_250_000);
    assertThat(data.getJsonArray("lines")).hasSize(2);
    assertThat(data.getJsonArray("lines").getJsonObject(0).getString("sku")).isEqualTo("sku-1");
  }
}
