package com.banhang.shop.payments.infrastructure.gateway;

import com.banhang.shop.payments.api.GatewayCallFailed;
import com.banhang.shop.payments.application.GatewayCharge;
import com.banhang.shop.payments.application.GatewayChargeDetails;
import com.banhang.shop.payments.application.GatewayChargeRequest;
import com.banhang.shop.payments.application.GatewayRefusedException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;
import jakarta.json.JsonObject;
import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.core.Response;
import java.net.ConnectException;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.rest.client.inject.RestClient;

/**
 * Single calls to the processor, retried by MicroProfile Fault Tolerance under the same key with
 * jittered backoff. The retries are bounded in count and in total time (maxDuration), so that the
 * shop answers within its clients' timeout budget; override them with the usual Fault Tolerance
 * properties, e.g. {@code
 * com.banhang.shop.payments.infrastructure.gateway.GatewayCalls/charge/Retry/maxRetries}.
 *
 * <p>Every failed try fires {@link GatewayCallFailed}, so the operator console sees gateway errors
 * even when a retry hides them from the caller.
 */
@ApplicationScoped
public class GatewayCalls {

  private static final Logger LOG = Logger.getLogger(GatewayCalls.class.getName());

  @Inject @RestClient GatewayChargesClient client;

  @Inject Event<GatewayCallFailed> failedCalls;

  /**
   * @param failures told of every failed call, so the caller knows whether any may have charged
   */
  @Retry(
      maxRetries = 2,
      delay = 200,
      jitter = 100,
      maxDuration = 10_000,
      retryOn = GatewayCallFailedException.class)
  public GatewayCharge charge(
      GatewayChargeRequest request, Consumer<GatewayCallFailedException> failures) {
    try {
      return answer(send(request));
    } catch (GatewayCallFailedException e) {
      failures.accept(e);
      fireFailed(GatewayCallFailed.CHARGE, e.mayHaveCharged());
      throw e;
    }
  }

  private Response send(GatewayChargeRequest request) {
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

  private static GatewayCharge answer(Response response) {
    try (response) {
      int status = response.getStatus();
      if (status == 201 || status == 402) {
        JsonObject charge = response.readEntity(JsonObject.class);
        return new GatewayCharge(
            charge.getString("id"), "succeeded".equals(charge.getString("status")));
      }
      if (status == 400 || status == 422) {
        throw new GatewayRefusedException("the processor refused the request (" + status + ")");
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

  @Retry(maxRetries = 2, delay = 200, jitter = 100, maxDuration = 10_000)
  public Optional<GatewayCharge> findByKey(String gatewayKey) {
    try {
      return lookup(client::findByKey, gatewayKey)
          .map(
              charge ->
                  new GatewayCharge(
                      charge.getString("id"), "succeeded".equals(charge.getString("status"))));
    } catch (GatewayCallFailedException e) {
      fireFailed(GatewayCallFailed.FIND_BY_KEY, false);
      throw e;
    }
  }

  /** Same retries as {@link #findByKey}: a lookup charges nothing, so every failure may retry. */
  @Retry(maxRetries = 2, delay = 200, jitter = 100, maxDuration = 10_000)
  public Optional<GatewayChargeDetails> findCharge(String chargeId) {
    try {
      return lookup(client::findById, chargeId).map(GatewayCalls::details);
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

  private static GatewayChargeDetails details(JsonObject charge) {
    try {
      return new GatewayChargeDetails(
          charge.getString("id"),
          "succeeded".equals(charge.getString("status")),
          charge.getJsonNumber("amount").longValueExact(),
          charge.getString("currency"),
          charge.getString("orderReference"),
          charge.getString("idempotencyKey", null));
    } catch (RuntimeException e) {
      // A body without the members an operator's check needs cannot be trusted: a failed call.
      throw new GatewayCallFailedException("lookup answered an unreadable charge", true, e);
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

  /** A refused connection never carried the request; anything else may have. */
  private static GatewayCallFailedException transportFailure(ProcessingException e) {
    boolean connectionRefused = false;
    for (Throwable t = e; t != null; t = t.getCause()) {
      connectionRefused |= t instanceof ConnectException;
    }
    return new GatewayCallFailedException(
        "processor unreachable: " + e.getMessage(), !connectionRefused, e);
  }
}
