package com.banhang.shop.payments.infrastructure.gateway;

import com.banhang.shop.payments.api.GatewayCallFailed;
import com.banhang.shop.payments.application.GatewayRefusedException;
import com.banhang.shop.payments.application.PaymentGateway;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.core.Response;
import java.net.ConnectException;
import java.security.cert.CertPathBuilderException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.eclipse.microprofile.faulttolerance.Bulkhead;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.faulttolerance.exceptions.BulkheadException;
import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;
import org.eclipse.microprofile.faulttolerance.exceptions.TimeoutException;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * The retrying client of the processor: each call is retried under the same gateway key and bounded
 * by MicroProfile Fault Tolerance (docs/payments.md, "Fault Tolerance on the gateway calls"). For a
 * synchronous method the interceptors nest as Retry, then CircuitBreaker, then Timeout, then
 * Bulkhead, so every try of a retry passes the circuit, gets its own timeout and needs a free place
 * in the bulkhead:
 *
 * <ul>
 *   <li>{@code @Retry} tries again, under the same gateway key, only after a failure that may be
 *       fixed by asking again ({@link GatewayCallFailedException}, or a {@code TimeoutException}).
 *       That is safe only because the gateway key makes the processor answer a repeated request
 *       with the charge it already made. An open circuit or a full bulkhead is not retried: the
 *       call ends at once, and nothing was sent by that try.
 *   <li>{@code @CircuitBreaker} counts only the processor's failures (not a refusal, a decline or a
 *       mismatch) and, while open, refuses tries before they are sent.
 *   <li>{@code @Timeout} bounds one try; it is longer than the Rest Client's connect and read
 *       timeouts (1 s + 3 s), which normally end a try first. A try that times out was sent: it may
 *       have charged.
 *   <li>{@code @Bulkhead} bounds the threads waiting on the processor; a try refused by it was
 *       never sent.
 * </ul>
 *
 * <p>Override any value with the usual Fault Tolerance properties, e.g. {@code
 * com.banhang.shop.payments.infrastructure.gateway.RetryingGatewayClient/charge/Retry/maxRetries}
 * or {@code .../charge/CircuitBreaker/delay} (docs/configuration.md).
 *
 * <p>Every failed try fires {@link GatewayCallFailed}, so the operator console sees gateway errors
 * even when a retry hides them from the caller.
 */
@ApplicationScoped
public class RetryingGatewayClient {

  private static final Logger LOG = Logger.getLogger(RetryingGatewayClient.class.getName());

  @Inject @RestClient GatewayChargesClient client;

  @Inject Event<GatewayCallFailed> failedCalls;

  /**
   * One try of a charge, retried by Fault Tolerance under the same gateway key. The bounds below
   * are also what a key's lease must cover: {@link RetryingChargeDuration} reads them from this
   * method.
   *
   * <p>{@code sent} is this call's side channel ({@link SentRequests}): every try records in it
   * that it is sending and, if it fails, whether that failure certainly charged nothing. Fault
   * Tolerance rethrows only the last try's exception, or one of its own that says nothing of the
   * tries (a timeout, an open circuit, a full bulkhead), and the tries of one call share nothing
   * but their arguments; so the caller learns whether ANY try may have charged only from the
   * requests it counted. Make a new one per call.
   *
   * @param sent told of every request sent and every failed try of this call, so the caller knows
   *     whether any may have charged, even when Fault Tolerance ends the call
   * @throws GatewayChargeMismatchException when the processor answers with a charge that is not
   *     this request's (another amount, currency or order under the same gateway key)
   */
  @Retry(
      maxRetries = 2,
      delay = 200,
      jitter = 100,
      maxDuration = 10_000,
      retryOn = {GatewayCallFailedException.class, TimeoutException.class})
  @CircuitBreaker(
      requestVolumeThreshold = 40,
      failureRatio = 0.75,
      delay = 10_000,
      successThreshold = 1,
      failOn = {GatewayCallFailedException.class, TimeoutException.class})
  @Timeout(5_000)
  @Bulkhead(20)
  public PaymentGateway.Charge charge(PaymentGateway.ChargeRequest request, SentRequests sent) {
    try {
      return answer(request, send(request, sent));
    } catch (GatewayCallFailedException e) {
      sent.failed(e);
      fireFailed(GatewayCallFailed.CHARGE, e.mayHaveCharged());
      throw e;
    }
  }

  private Response send(PaymentGateway.ChargeRequest request, SentRequests sent) {
    sent.sending();
    try {
      return client.create(
          request.gatewayKey(),
          new GatewayChargesClient.GatewayChargeBody(
              request.amount(),
              request.currency(),
              request.orderReference(),
              request.paymentMethod()));
    } catch (ProcessingException e) {
      throw transportFailure(e);
    }
  }

  private static PaymentGateway.Charge answer(
      PaymentGateway.ChargeRequest request, Response response) {
    try (response) {
      int status = response.getStatus();
      if (status == 201 || status == 402) {
        return verified(request, response.readEntity(JsonObject.class));
      }
      if (status == 400 || status == 422) {
        throw new GatewayRefusedException("the processor refused the request (" + status + ")");
      }
      if (status == 401 || status == 403) {
        // The processor authenticates the shop (its API key, its client certificate) before it
        // looks at a charge: refused credentials charged nothing.
        throw new GatewayCallFailedException(
            "the processor refused the shop's credentials (" + status + ")", false, null);
      }
      if (status == 503) {
        throw new GatewayCallFailedException("processor unavailable before charging", false, null);
      }
      // 504 and other 5xx: the processor may have charged and lost its answer; 409: it is still
      // working on this key. Both are settled by asking again under the same key.
      throw new GatewayCallFailedException("processor answered " + status, true, null);
    } catch (ProcessingException e) {
      throw transportFailure(e);
    }
  }

  /**
   * The charge of a 201 or 402, if it is the request's: a replay under the same gateway key answers
   * with the stored charge, which must carry the amount, currency and order reference this request
   * sent.
   */
  private static PaymentGateway.Charge verified(
      PaymentGateway.ChargeRequest request, JsonObject json) {
    // A body without the members needed to check it is a failed try that may have charged.
    PaymentGateway.ChargeDetails charge = details(json);
    List<String> differences = new ArrayList<>();
    if (charge.amount() != request.amount()) {
      differences.add("amount " + charge.amount() + " instead of " + request.amount());
    }
    if (!request.currency().equals(charge.currency())) {
      differences.add("currency " + charge.currency() + " instead of " + request.currency());
    }
    if (!request.orderReference().equals(charge.orderReference())) {
      differences.add(
          "order reference " + charge.orderReference() + " instead of " + request.orderReference());
    }
    if (!differences.isEmpty()) {
      throw new GatewayChargeMismatchException(
          "the processor answered with charge "
              + charge.chargeId()
              + ", which is not this request's: "
              + String.join("; ", differences));
    }
    return charge.charge();
  }

  /**
   * Lookups charge nothing, so every failure may retry; they get their own circuit (a lookup may
   * still work while charges fail, and the other way round), a timeout per try and a smaller
   * bulkhead (reconciliation asks one key at a time on each node; operators a few).
   */
  @Retry(
      maxRetries = 2,
      delay = 200,
      jitter = 100,
      maxDuration = 10_000,
      retryOn = {GatewayCallFailedException.class, TimeoutException.class})
  @CircuitBreaker(
      requestVolumeThreshold = 20,
      failureRatio = 0.75,
      delay = 10_000,
      successThreshold = 1,
      failOn = {GatewayCallFailedException.class, TimeoutException.class})
  @Timeout(5_000)
  @Bulkhead(10)
  public Optional<PaymentGateway.ChargeDetails> findByKey(String gatewayKey) {
    try {
      return lookup(client::findByKey, gatewayKey).map(RetryingGatewayClient::details);
    } catch (GatewayCallFailedException e) {
      fireFailed(GatewayCallFailed.FIND_BY_KEY, false);
      throw e;
    }
  }

  /** Same bounds as {@link #findByKey}, with a circuit and a bulkhead of its own. */
  @Retry(
      maxRetries = 2,
      delay = 200,
      jitter = 100,
      maxDuration = 10_000,
      retryOn = {GatewayCallFailedException.class, TimeoutException.class})
  @CircuitBreaker(
      requestVolumeThreshold = 20,
      failureRatio = 0.75,
      delay = 10_000,
      successThreshold = 1,
      failOn = {GatewayCallFailedException.class, TimeoutException.class})
  @Timeout(5_000)
  @Bulkhead(10)
  public Optional<PaymentGateway.ChargeDetails> findCharge(String chargeId) {
    try {
      return lookup(client::findById, chargeId).map(RetryingGatewayClient::details);
    } catch (GatewayCallFailedException e) {
      fireFailed(GatewayCallFailed.FIND_CHARGE, false);
      throw e;
    }
  }

  /** One GET: the charge's JSON on 200, empty on 404, a failed call otherwise. */
  private static Optional<JsonObject> lookup(Function<String, Response> get, String argument) {
    Response response;
    try {
      response = get.apply(argument);
    } catch (ProcessingException e) {
      throw transportFailure(e);
    }
    try (response) {
      if (response.getStatus() == 404) {
        return Optional.empty();
      }
      if (response.getStatus() != 200) {
        throw new GatewayCallFailedException("lookup answered " + response.getStatus(), true, null);
      }
      return Optional.of(response.readEntity(JsonObject.class));
    } catch (ProcessingException e) {
      // A body broken off mid-way: the lookup failed, like any other transport error.
      throw transportFailure(e);
    }
  }

  private static PaymentGateway.ChargeDetails details(JsonObject charge) {
    try {
      return new PaymentGateway.ChargeDetails(
          charge.getString("id"),
          "succeeded".equals(charge.getString("status")),
          charge.getJsonNumber("amount").longValueExact(),
          charge.getString("currency"),
          charge.getString("orderReference"),
          charge.getString("idempotencyKey", null));
    } catch (RuntimeException e) {
      // A body without the members an operator's check needs cannot be trusted: a failed call.
      throw new GatewayCallFailedException("the processor answered an unreadable charge", true, e);
    }
  }

  /**
   * Counting must never change what a call means: an observer that fails is logged, not thrown into
   * the classification of the gateway's answer.
   */
  private void fireFailed(String call, boolean mayHaveCharged) {
    try {
      failedCalls.fire(new GatewayCallFailed(call, mayHaveCharged));
    } catch (RuntimeException e) {
      LOG.log(Level.WARNING, "an observer of GatewayCallFailed failed", e);
    }
  }

  /**
   * A refused connection or a failed TLS handshake never carried the request to the processor;
   * anything else may have. A handshake fails before the processor reads a request (an untrusted or
   * expired certificate, a name that does not match, a client certificate the processor refuses),
   * so it charged nothing and the key may be released (docs/payments.md, "How gateway failures are
   * classified").
   */
  private static GatewayCallFailedException transportFailure(ProcessingException e) {
    boolean neverReachedTheProcessor = false;
    for (Throwable t = e; t != null; t = t.getCause()) {
      neverReachedTheProcessor |= t instanceof ConnectException || isTlsHandshakeFailure(t);
    }
    // For operators: which transport failure, and what it means for the payment. The message is
    // the transport's (host, TLS reason), never a header: the API key is not in it.
    LOG.log(
        Level.WARNING,
        "a call to the payment gateway failed {0}: {1}",
        new Object[] {
          neverReachedTheProcessor ? "before reaching it" : "and may have reached it", chain(e)
        });
    return new GatewayCallFailedException(
        "processor unreachable: " + e.getMessage(), !neverReachedTheProcessor, e);
  }

  private static String chain(Throwable e) {
    StringBuilder causes = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      causes.append(causes.length() == 0 ? "" : " <- ").append(t.getClass().getName());
      causes.append(": ").append(t.getMessage());
      if (t.getCause() == t) {
        break;
      }
    }
    return causes.toString();
  }

  /** The handshake was refused, or the peer's certificate was not trusted. */
  static boolean isTlsHandshakeFailure(Throwable t) {
    return t instanceof SSLHandshakeException
        || t instanceof SSLPeerUnverifiedException
        || t instanceof CertificateException
        || t instanceof CertPathValidatorException
        || t instanceof CertPathBuilderException;
  }

  /**
   * The requests one charge call sent to the processor: the side channel of the call, written by
   * each try of {@link #charge} and read by its caller ({@link RestPaymentGateway}) once Fault
   * Tolerance has ended the call. It counts how many tries handed a request to the HTTP client, and
   * how many of those certainly did not charge (a 503, a refused connection).
   *
   * <p><b>Why an argument.</b> Fault Tolerance gives the caller only the last try's outcome: the
   * exception of the last try, or its own exception ({@code TimeoutException}, {@code
   * CircuitBreakerOpenException}, {@code BulkheadException}) with nothing of the tries before. But
   * a charge call is "certainly not charged" only if no try of it may have charged, so the caller
   * needs every try. The tries of one call share nothing but the method's arguments, so this
   * object, made by the caller for one call and passed to every try, is the only channel; it is
   * never shared between calls.
   *
   * <p><b>Why counting sent requests.</b> Fault Tolerance may end a try without the method's
   * knowledge (a {@code TimeoutException} after the request left) or refuse one before the method
   * runs (an open circuit, a full bulkhead). Counting the requests that left, less the failures
   * that certainly charged nothing, makes both come out right: a timed-out try was sent and may
   * have charged, a refused one was never sent.
   */
  public static final class SentRequests {

    private final AtomicInteger sent = new AtomicInteger();
    private final AtomicInteger certainlyNotCharged = new AtomicInteger();

    /** Each try that handed a request to the HTTP client, in order, and how it failed if it did. */
    private final List<Try> tries = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** One try: when it was sent, and how it failed (null while it has not failed). */
    private static final class Try {
      final Instant at = Instant.now();
      volatile String failure;
    }

    /** A try is about to hand its request to the HTTP client: from now on it may charge. */
    void sending() {
      tries.add(new Try());
      sent.incrementAndGet();
    }

    /** A try that was sending failed; a failure that certainly did not charge takes it back. */
    void failed(GatewayCallFailedException failure) {
      if (!failure.mayHaveCharged()) {
        certainlyNotCharged.incrementAndGet();
      }
      for (int i = tries.size() - 1; i >= 0; i--) {
        Try last = tries.get(i);
        if (last.failure == null) {
          last.failure = describe(failure);
          return;
        }
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

    /**
     * The tries of the ended call that failed, in order, for the payment's timeline. {@code
     * failure} is how the call ended (null: it answered, and its last try is the answer). A sent
     * try that recorded no failure and is not the answer was ended by Fault Tolerance's timeout; a
     * call refused by an open circuit or a full bulkhead adds the try that was never sent.
     */
    List<PaymentGateway.FailedTry> failedTries(RuntimeException failure) {
      List<PaymentGateway.FailedTry> failed = new ArrayList<>();
      for (int i = 0; i < tries.size(); i++) {
        Try one = tries.get(i);
        boolean answered = failure == null && i == tries.size() - 1 && one.failure == null;
        if (one.failure != null) {
          failed.add(new PaymentGateway.FailedTry(one.at, one.failure));
        } else if (!answered) {
          failed.add(
              new PaymentGateway.FailedTry(
                  one.at, "timeout: no answer within the try's time limit (may have charged)"));
        }
      }
      if (failure instanceof CircuitBreakerOpenException) {
        failed.add(
            new PaymentGateway.FailedTry(
                Instant.now(), "not sent: the circuit breaker is open (certainly not charged)"));
      } else if (failure instanceof BulkheadException) {
        failed.add(
            new PaymentGateway.FailedTry(
                Instant.now(),
                "not sent: too many calls to the gateway at once (certainly not charged)"));
      }
      return failed;
    }

    /** A failed try in words: a timeout, a 5xx, a refused connection, and what it may have done. */
    static String describe(GatewayCallFailedException failure) {
      String how = failure.getMessage();
      for (Throwable t = failure.getCause(); t != null; t = t.getCause()) {
        if (t instanceof java.net.SocketTimeoutException) {
          how = "timeout: " + how;
          break;
        }
        if (t instanceof ConnectException) {
          how = "connection refused: " + how;
          break;
        }
        if (t.getCause() == t) {
          break;
        }
      }
      return how
          + (failure.mayHaveCharged()
              ? " (may have reached the processor)"
              : " (certainly not charged)");
    }
  }
}
