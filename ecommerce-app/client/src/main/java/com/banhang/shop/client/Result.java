package com.banhang.shop.client;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.util.Objects;
import java.util.Optional;

/**
 * How an intent ended, one type per kind of answer that docs/contract.md (section 5) defines.
 * Answers the contract defines are never thrown: a caller tells them apart with {@code instanceof},
 * and the compiler knows the list is complete.
 *
 * <ul>
 *   <li>{@link Created}: the shop did it, and this was the try that did it;
 *   <li>{@link Replayed}: the shop had already done it, for an earlier try of the same intent;
 *   <li>{@link Declined}: 402, the card was declined; final for this key;
 *   <li>{@link Rejected}: another final refusal (4xx); another try of the same request would only
 *       get it again;
 *   <li>{@link OutcomeUnknown}: the deadline ended while the answer was still open; the intent is
 *       kept, to be resumed with the same key.
 * </ul>
 */
public sealed interface Result
    permits Result.Success, Result.Declined, Result.Rejected, Result.OutcomeUnknown {

  /**
   * The shop did what the intent asked, now or on an earlier try: {@link Created} or {@link
   * Replayed}.
   */
  sealed interface Success extends Result permits Created, Replayed {

    /** The status, 201 for an order or a payment. */
    int status();

    /** The answer's body: the created order or payment, as JSON. */
    String body();

    /** The created resource's path, from {@code Location}, such as {@code /api/v1/orders/{id}}. */
    Optional<String> location();

    /**
     * {@link #body()} read as a JSON object.
     *
     * @throws jakarta.json.JsonException if the body is not one (the shop's always is)
     */
    default JsonObject json() {
      try (JsonReader reader = Json.createReader(new StringReader(body()))) {
        return reader.readObject();
      }
    }
  }

  /** A 2xx answered to this very try: the shop ran the request now. */
  record Created(int status, String body, Optional<String> location) implements Success {
    public Created {
      Objects.requireNonNull(body, "body");
      Objects.requireNonNull(location, "location");
    }
  }

  /**
   * A 2xx answered with {@code Idempotent-Replayed: true}: an earlier try of this intent (one whose
   * answer was lost, or a try of a client that crashed) had already done it, and this is its stored
   * answer, byte for byte. Nothing was done twice.
   */
  record Replayed(int status, String body, Optional<String> location) implements Success {
    public Replayed {
      Objects.requireNonNull(body, "body");
      Objects.requireNonNull(location, "location");
    }
  }

  /**
   * 402 {@code payment-declined}: the gateway declined the card. The decision is stored for this
   * key, so the intent is over; paying with another card is another intent, under a new key.
   *
   * @param problem the problem document, with the extension members {@code paymentId} and {@code
   *     orderId}
   * @param replayed whether the decline was a stored answer replayed to this try
   */
  record Declined(Problem problem, boolean replayed) implements Result {
    public Declined {
      Objects.requireNonNull(problem, "problem");
    }
  }

  /**
   * A final refusal: any 4xx other than 402 that is not a "try again" answer (400, 401, 403, 404,
   * 409 {@code merchant-order-id-taken}, {@code order-already-paid} or {@code payment-in-progress},
   * 422, ...), or a status the contract does not define. The same request under the same key would
   * get the same answer, so the intent is over.
   *
   * @param problem the problem document; its {@link Problem#status()} is the answer's status
   * @param replayed whether this was a stored answer replayed to this try
   */
  record Rejected(Problem problem, boolean replayed) implements Result {
    public Rejected {
      Objects.requireNonNull(problem, "problem");
    }

    /** The answer's status. */
    public int status() {
      return problem.status();
    }
  }

  /**
   * The deadline ended, or the caller's thread was interrupted, before a final answer: the last try
   * timed out, broke, or was told to come back later (409 {@code idempotency-key-in-use} or {@code
   * payment-outcome-unknown}, 429, 5xx). The shop may or may not have done it. The intent is kept:
   * resume it later, with the same key and the same bytes, and never make a new key for it, or a
   * payment could be charged twice.
   *
   * @param intentId the stored intent, for {@link ShopClient#resume(String)}; empty when nothing
   *     was stored (the retries of {@link IdempotencyKeyFilter#retry})
   * @param idempotencyKey the key every try carried
   * @param tries how many requests were sent
   * @param lastAnswer what the last try got, for people: a status and problem type, or the
   *     transport failure
   */
  record OutcomeUnknown(
      Optional<String> intentId, String idempotencyKey, int tries, String lastAnswer)
      implements Result {
    public OutcomeUnknown {
      Objects.requireNonNull(intentId, "intentId");
      Objects.requireNonNull(idempotencyKey, "idempotencyKey");
      Objects.requireNonNull(lastAnswer, "lastAnswer");
    }
  }
}
