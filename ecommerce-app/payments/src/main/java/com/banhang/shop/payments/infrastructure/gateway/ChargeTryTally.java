package com.banhang.shop.payments.infrastructure.gateway;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The side channel of one charge call: what all of its tries did, written by each try of {@link
 * RetryingGatewayClient#charge} and read by its caller ({@link RestPaymentGateway}) once Fault
 * Tolerance has ended the call. It counts how many tries handed a request to the HTTP client, and
 * how many of those certainly did not charge (a 503, a refused connection).
 *
 * <p><b>Why an argument.</b> Fault Tolerance gives the caller only the last try's outcome: the
 * exception of the last try, or its own exception ({@code TimeoutException}, {@code
 * CircuitBreakerOpenException}, {@code BulkheadException}) with nothing of the tries before. But a
 * charge call is "certainly not charged" only if no try of it may have charged, so the caller needs
 * every try. The tries of one call share nothing but the method's arguments, so this object, made
 * by the caller for one call and passed to every try, is the only channel; it is never shared
 * between calls.
 *
 * <p><b>Why counting sent requests.</b> Fault Tolerance may end a try without the method's
 * knowledge (a {@code TimeoutException} after the request left) or refuse one before the method
 * runs (an open circuit, a full bulkhead). Counting the requests that left, less the failures that
 * certainly charged nothing, makes both come out right: a timed-out try was sent and may have
 * charged, a refused one was never sent.
 */
public final class ChargeTryTally {

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
