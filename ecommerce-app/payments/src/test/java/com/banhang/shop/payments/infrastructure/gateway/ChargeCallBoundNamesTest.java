package com.banhang.shop.payments.infrastructure.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import com.banhang.shop.payments.application.ChargeCallBound;
import com.banhang.shop.payments.application.PaymentGateway;
import org.junit.jupiter.api.Test;

/** The bound reads the Fault Tolerance properties of the method that really calls the gateway. */
class ChargeCallBoundNamesTest {

  @Test
  void theBoundNamesTheRetryingClientsCharge() throws Exception {
    assertThat(ChargeCallBound.CLASS).isEqualTo(RetryingGatewayClient.class.getName());
    assertThat(
            RetryingGatewayClient.class
                .getMethod(
                    ChargeCallBound.METHOD,
                    PaymentGateway.ChargeRequest.class,
                    ChargeTryTally.class)
                .getName())
        .isEqualTo("charge");
  }
}
