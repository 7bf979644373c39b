package com.banhang.shop.orders.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

import com.banhang.shop.orders.domain.model.MerchantOrderIdTakenException;
import com.banhang.shop.orders.domain.model.Order;
import com.banhang.shop.orders.domain.model.OrderPlaced;
import com.banhang.shop.orders.domain.model.OrderRepository;
import jakarta.enterprise.event.Event;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.InOrder;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/** Placing an order: its rows, then its event, in the caller's transaction. */
@ExtendWith(MockitoExtension.class)
class PlaceOrderTest {

  private static final PlaceOrder.Command COMMAND =
      new PlaceOrder.Command(
          "alice",
          "m-1",
          "VND",
          List.of(
              new PlaceOrder.Command.Line("sku-1", 2, 500_000),
              new PlaceOrder.Command.Line("sku-2", 1, 250_000)));

  @Mock OrderRepository orders;
  @Mock Event<OrderPlaced> placed;

  private final PlaceOrder placeOrder = new PlaceOrder();

  @BeforeEach
  void wire() {
    placeOrder.orders = orders;
    placeOrder.placed = placed;
  }

  @Test
  void anOrderAwaitsItsPayment_withItsLinesAndTotal_andIsAnnouncedOnceWritten() {
    Order order = placeOrder.place(COMMAND);

    assertThat(order.tenantId()).isEqualTo("alice");
    assertThat(order.merchantOrderId()).isEqualTo("m-1");
    assertThat(order.status()).isEqualTo(Order.Status.PENDING_PAYMENT);
    assertThat(order.total()).isEqualTo(1_250_000);
    assertThat(order.lines())
        .extracting(l -> l.sku() + " x" + l.quantity() + " @" + l.unitPrice())
        .containsExactly("sku-1 x2 @500000", "sku-2 x1 @250000");
    InOrder written = inOrder(orders, placed);
    written.verify(orders).add(order);
    written.verify(placed).fire(new OrderPlaced(order));
  }

  @Test
  void aMerchantOrderIdTaken_isRefusedAndAnnouncesNothing() {
    doThrow(new MerchantOrderIdTakenException()).when(orders).add(any());

    assertThatThrownBy(() -> placeOrder.place(COMMAND))
        .isInstanceOf(MerchantOrderIdTakenException.class);

    verify(placed, never()).fire(any());
  }
}
