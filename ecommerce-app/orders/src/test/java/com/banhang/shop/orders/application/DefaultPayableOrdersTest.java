package com.banhang.shop.orders.application;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.Mockito.when;

import com.banhang.shop.orders.api.PayableOrder;
import com.banhang.shop.orders.domain.model.Order;
import com.banhang.shop.orders.domain.model.OrderAlreadyPaidException;
import com.banhang.shop.orders.domain.model.OrderLine;
import com.banhang.shop.orders.domain.model.OrderNotFoundException;
import com.banhang.shop.orders.domain.model.OrderRepository;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.mockito.Mock;
import org.mockito.junit.jupiter.MockitoExtension;

/** The orders as the payments context sees them: one tenant's, unpaid or paid once. */
@ExtendWith(MockitoExtension.class)
class DefaultPayableOrdersTest {

  @Mock OrderRepository orders;

  private final DefaultPayableOrders payable = new DefaultPayableOrders();
  private Order order;

  @BeforeEach
  void wire() {
    payable.orders = orders;
    order = new Order("alice", null, "VND", List.of(new OrderLine("sku-1", 2, 500)));
  }

  @Test
  void anUnpaidOrderIsPayable_withItsTotal() {
    when(orders.find("alice", order.id())).thenReturn(Optional.of(order));

    assertThat(payable.findUnpaid("alice", order.id()))
        .isEqualTo(new PayableOrder(order.id(), "alice", "VND", 1000, false));
  }

  @Test
  void aPaidOrderIsFoundPaid_andRefusedAsPayable() {
    when(orders.find("alice", order.id())).thenReturn(Optional.of(order));

    payable.markPaid("alice", order.id());

    assertThat(order.status()).isEqualTo(Order.Status.PAID);
    assertThat(payable.find("alice", order.id()).paid()).isTrue();
    assertThatThrownBy(() -> payable.findUnpaid("alice", order.id()))
        .isInstanceOf(OrderAlreadyPaidException.class);
    assertThatThrownBy(() -> payable.markPaid("alice", order.id()))
        .isInstanceOf(OrderAlreadyPaidException.class);
  }

  @Test
  void anotherTenantsOrderIsNotFound() {
    when(orders.find("bob", order.id())).thenReturn(Optional.empty());

    assertThatThrownBy(() -> payable.findUnpaid("bob", order.id()))
        .isInstanceOf(OrderNotFoundException.class);
  }
}
