package com.banhang.shop.payments.application;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.function.Supplier;

/**
 * Runs a piece of work in a transaction of its own, for a use case that must call the gateway
 * outside any transaction and so cannot be transactional itself: what a payment records after the
 * gateway answered and the key it completes ({@link PayOrder}), and an operator's resolution with
 * its audit entry (ResolutionAudit), each commit together or not at all. The gateway is never
 * called inside.
 */
@ApplicationScoped
public class OneTransaction {

  @Transactional(Transactional.TxType.REQUIRES_NEW)
  public <T> T run(Supplier<T> work) {
    return work.get();
  }
}
