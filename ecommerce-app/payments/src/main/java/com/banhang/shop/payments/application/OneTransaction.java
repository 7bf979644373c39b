package com.banhang.shop.payments.application;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;
import java.util.function.Supplier;

/**
 * Runs a piece of work in a transaction of its own, so that an operator's resolution and its audit
 * entry (ResolutionAudit) commit together or not at all. The gateway is never called inside.
 */
@ApplicationScoped
public class OneTransaction {

  @Transactional(Transactional.TxType.REQUIRES_NEW)
  public <T> T run(Supplier<T> work) {
    return work.get();
  }
}
