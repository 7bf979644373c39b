package com.banhang.shop.payments.api;

import java.util.Optional;

/**
 * Read-only: the payment behind a payments.charge key, for the operator console. Implemented in the
 * application layer.
 */
public interface KeyPayments {

  /**
   * The attempt started by the key's current claim (whatever the key's state), or empty when there
   * is no such key or its current claim committed no attempt (then nothing was sent to the
   * gateway). Attempts of earlier, released claims of the key are not shown: they are settled.
   */
  Optional<KeyPaymentView> paymentOfKey(String tenant, String key);

  /**
   * The attempt started by this claim of the key (its attempt number), or empty when that claim
   * committed none: one index seek, for a listing that shows the payment of each row.
   */
  Optional<KeyPaymentView> paymentOfClaim(String tenant, String key, int attempt);
}
