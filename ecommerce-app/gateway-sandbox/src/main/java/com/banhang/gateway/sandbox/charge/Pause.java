package com.banhang.gateway.sandbox.charge;

/**
 * Waits for an injected latency. An interface so that unit tests can record waits instead of
 * sleeping.
 */
@FunctionalInterface
public interface Pause {

  /** Sleeps on the calling thread. */
  Pause SLEEP =
      millis -> {
        if (millis > 0) {
          try {
            Thread.sleep(millis);
          } catch (InterruptedException e) {
            // Keep the flag for the container; the caller goes on and answers early.
            Thread.currentThread().interrupt();
          }
        }
      };

  /** Waits about {@code millis} milliseconds; zero or less returns at once. */
  void pause(long millis);
}
