package com.banhang.events;

import java.util.concurrent.CompletionStage;

/**
 * Where the relay sends events (a broker, subscribers' webhooks). An application provides each as a
 * CDI bean; the relay uses every one that is {@link #enabled()}, and counts an event published only
 * when all of them accepted it.
 *
 * <p>A transport may see an event more than once (the relay publishes at least once: after a crash
 * between sending and recording, or when a lease runs out during a slow send), always with the same
 * id; it never sees an aggregate's event before the ones that precede it have been accepted by
 * every transport.
 */
public interface EventTransport {

  /** A short name for logs and the operator's view of a failed event, e.g. {@code kafka}. */
  String name();

  /** Whether this transport is configured; a disabled one is skipped. */
  boolean enabled();

  /**
   * Sends {@code event}; the stage completes normally once the receiving side has taken
   * responsibility for it (the broker acknowledged it, the deliveries are recorded), and
   * exceptionally otherwise. It must complete within the relay's lease.
   */
  CompletionStage<Void> publish(OutboxEvent event);
}
