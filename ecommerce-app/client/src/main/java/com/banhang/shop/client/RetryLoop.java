package com.banhang.shop.client;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Sends one intent until a final answer or the deadline: the part of the client that decides,
 * answer by answer (docs/contract.md, section 5), whether another try can change anything.
 */
final class RetryLoop {

  /** One try of the intent: the same key and the same bytes every time it is called. */
  @FunctionalInterface
  interface Exchange {
    /**
     * Sends the request once. A timeout is an {@link HttpTimeoutException}; any other failure to
     * get an answer is an {@link IOException}.
     */
    Answer send(Duration timeout) throws IOException, InterruptedException;
  }

  /**
   * The 409 problem types that mean "not decided yet": the key's first attempt is still running, or
   * the payment's outcome is being reconciled. Every other 409 is a decided, stored rejection.
   */
  static final Set<String> RETRYABLE_CONFLICTS =
      Set.of("idempotency-key-in-use", "payment-outcome-unknown");

  private static final System.Logger LOG = System.getLogger(RetryLoop.class.getName());

  private final RetryPolicy policy;

  RetryLoop(RetryPolicy policy) {
    this.policy = policy;
  }

  /**
   * Tries {@code exchange} until it gets a final answer, or until the policy's deadline, and says
   * which. {@code answerToRetry} sees each answer that is not final, before the wait that follows
   * it.
   */
  Result run(
      Optional<String> intentId, String key, Exchange exchange, Consumer<Answer> answerToRetry) {
    RetryClock clock = policy.clock();
    long start = clock.nanoTime();
    int tries = 0;
    String lastAnswer = "no try";
    while (true) {
      Duration left = policy.deadline().minusNanos(clock.nanoTime() - start);
      if (left.isNegative() || left.isZero()) {
        return new Result.OutcomeUnknown(intentId, key, tries, lastAnswer);
      }
      Duration timeout = policy.perTryTimeout().compareTo(left) < 0 ? policy.perTryTimeout() : left;
      tries++;
      Duration retryAfter = Duration.ZERO;
      try {
        Answer answer = exchange.send(timeout);
        Optional<Result> result = finalResult(answer);
        if (result.isPresent()) {
          return result.get();
        }
        answerToRetry.accept(answer);
        lastAnswer = describe(answer);
        retryAfter =
            RetryAfter.parse(answer.header("Retry-After").orElse(null), clock.now())
                .orElse(Duration.ZERO);
      } catch (HttpTimeoutException e) {
        lastAnswer = "no answer within " + timeout.toMillis() + " ms";
      } catch (IOException e) {
        lastAnswer = "no answer: " + e;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return new Result.OutcomeUnknown(intentId, key, tries, "interrupted during a try");
      }
      Duration wait = policy.delayBeforeRetry(tries, retryAfter);
      Duration leftAfterTry = policy.deadline().minusNanos(clock.nanoTime() - start);
      if (wait.compareTo(leftAfterTry) >= 0) {
        // Waiting would end at or past the deadline: stop now rather than try after it.
        return new Result.OutcomeUnknown(intentId, key, tries, lastAnswer);
      }
      LOG.log(Level.DEBUG, "try {0} of key {1}: {2}; next in {3}", tries, key, lastAnswer, wait);
      try {
        clock.sleep(wait);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return new Result.OutcomeUnknown(intentId, key, tries, lastAnswer + "; interrupted");
      }
    }
  }

  /**
   * The result an answer settles the intent with, or empty when another try may get a different
   * answer. Retried: 408 and 429 (nothing was done; RFC 9110 and the shop's rate limit both say to
   * come back), 409 {@code idempotency-key-in-use} and {@code payment-outcome-unknown} (not decided
   * yet) or without a problem type, and every 5xx (a 500 released the key, a 503 did nothing, a 504
   * is reconciled: in each case the same key is the safe retry). Final: 2xx, 402, and every other
   * status.
   */
  static Optional<Result> finalResult(Answer answer) {
    int status = answer.status();
    if (status >= 200 && status < 300) {
      String body = answer.bodyText();
      Optional<String> location = answer.header("Location");
      return Optional.of(
          answer.replayed()
              ? new Result.Replayed(status, body, location)
              : new Result.Created(status, body, location));
    }
    Problem problem = Problem.parse(status, answer.body());
    if (retryable(status, problem)) {
      return Optional.empty();
    }
    return Optional.of(
        status == 402
            ? new Result.Declined(problem, answer.replayed())
            : new Result.Rejected(problem, answer.replayed()));
  }

  private static boolean retryable(int status, Problem problem) {
    if (status == 409) {
      // A 409 without a problem type cannot be told from payment-outcome-unknown. Retrying it
      // under the same key is always safe; calling it final could lead the caller to a new key,
      // and a payment whose outcome was unknown to a second charge.
      return RETRYABLE_CONFLICTS.contains(problem.slug()) || problem.type().equals(Problem.UNTYPED);
    }
    return status == 408 || status == 429 || status >= 500;
  }

  private static String describe(Answer answer) {
    Problem problem = Problem.parse(answer.status(), answer.body());
    return problem.type().equals(Problem.UNTYPED)
        ? Integer.toString(answer.status())
        : answer.status() + " " + problem.slug();
  }
}
