package com.banhang.shop.payments.infrastructure.gateway;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * What the tries of one charge call did, as {@link GatewayCalls#charge} tells it: how many tries
 * sent a request, and how many of those certainly did not charge (a 503, a refused connection).
 * Fault Tolerance may end a try without the method's knowledge (a {@code TimeoutException} after
 * the request left) or refuse one before the method runs (an open circuit, a full bulkhead);
 * counting the requests that left, rather than the failures the method saw, makes both come out
 * right: a timed-out try was sent and may have charged, a refused one was never sent.
 */
public final class ChargeTries {

  private final AtomicInteger sent = new AtomicInteger();
  private final AtomicInteger certainlyNotCharged = new AtomicInteger();

  /** A try is about to hand its request to the HTTP client: from now on it may charge. */
  void sending() {
    sent.incrementAndGet();
  }

  /** A try that was sending failed; a failure that certainly did not charge takes it back. */
  void failed(GatewayCallFailedException failure) {
    if (!failure.mayHaveCharged()) {
      certainlyNotCharged.incrementAndGet();
    }
  }

  /** True if any try sent a request that may have reached the processor. */
  public boolean mayHaveCharged() {
    return sent.get() > certainlyNotCharged.get();
  }

  /** Tries that handed a request to the HTTP client. */
  public int sent() {
    return sent.get();
  }
}
