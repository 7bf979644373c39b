package com.banhang.shop.client;

import jakarta.ws.rs.ProcessingException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.client.ClientRequestContext;
import jakarta.ws.rs.client.ClientRequestFilter;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.net.http.HttpHeaders;
import java.net.http.HttpTimeoutException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * An {@code Idempotency-Key} for callers that already talk to the shop through a JAX-RS client or a
 * MicroProfile Rest Client interface, rather than through {@link ShopClient}.
 *
 * <p>Register it with the client: {@code ClientBuilder.newClient().register(new
 * IdempotencyKeyFilter())}, {@code RestClientBuilder.newBuilder().register(new
 * IdempotencyKeyFilter())}, or {@code @RegisterProvider(IdempotencyKeyFilter.class)} on the Rest
 * Client interface. On every {@code POST} and {@code PATCH} it sends, it sets the key of the
 * logical call, taken from the first of:
 *
 * <ol>
 *   <li>an {@code Idempotency-Key} header the caller set itself (for example with a
 *       {@code @HeaderParam("Idempotency-Key")} parameter): left exactly as it is;
 *   <li>the key bound to the current thread by {@link #callWithKey} or {@link #retry}: the same key
 *       for every request of the call, so every retry inside it is the same intent to the shop;
 *   <li>otherwise a new random key for this one request, which protects only against the request
 *       being delivered twice, not against a retry: a retry that goes through the filter again gets
 *       another key, which the shop takes for another intent. Retry through {@link #retry}.
 * </ol>
 *
 * <p>{@link #retry(RetryPolicy, String, Supplier)} is the retry wrapper: it binds one key, calls
 * the Rest Client method until a final answer or the policy's deadline, with the backoff, {@code
 * Retry-After} handling and answer types of {@link ShopClient}, and it never throws for an answer
 * the shop's contract defines:
 *
 * <pre>{@code
 * String key = IdempotencyKeyFilter.newKey();   // keep it: it is the intent
 * Result paid = IdempotencyKeyFilter.retry(policy, key, () -> payments.pay(orderId, body));
 * }</pre>
 *
 * <p>What it does not do: it keeps no intent on disk (keep the key yourself until a final answer,
 * and call {@code retry} again with it after a restart); it cannot set a per-try timeout (set the
 * client's read timeout, which it reports as a transport failure); and the key is bound to the
 * calling thread, so asynchronous calls must pass the key as a header instead.
 */
public final class IdempotencyKeyFilter implements ClientRequestFilter {

  /** The header's name (draft-ietf-httpapi-idempotency-key-header). */
  public static final String HEADER = IntentKeys.HEADER;

  /** The methods that are not idempotent by themselves (RFC 9110, 9.2.2), so need a key. */
  private static final Set<String> KEYED_METHODS = Set.of("POST", "PATCH");

  private static final ThreadLocal<String> BOUND_KEY = new ThreadLocal<>();

  @Override
  public void filter(ClientRequestContext request) {
    if (!KEYED_METHODS.contains(request.getMethod()) || request.getHeaders().containsKey(HEADER)) {
      return;
    }
    String key = BOUND_KEY.get();
    request.getHeaders().putSingle(HEADER, IntentKeys.headerValue(key != null ? key : newKey()));
  }

  /** A key for a new intent: a random UUID v4. */
  public static String newKey() {
    return IntentKeys.newKey();
  }

  /**
   * Runs {@code call} with {@code key} as the key of every keyed request it sends through a client
   * with this filter, on this thread. Calls may nest; the innermost key wins.
   *
   * @throws IllegalArgumentException if the key is not one the shop accepts
   */
  public static <T> T callWithKey(String key, Supplier<T> call) {
    IntentKeys.requireValid(key);
    String outer = BOUND_KEY.get();
    BOUND_KEY.set(key);
    try {
      return call.get();
    } finally {
      restore(outer);
    }
  }

  private static void restore(String outerKey) {
    if (outerKey == null) {
      BOUND_KEY.remove();
    } else {
      BOUND_KEY.set(outerKey);
    }
  }

  /**
   * Calls {@code call} under a new key until a final answer or the deadline; see {@link
   * #retry(RetryPolicy, String, Supplier)}. The key is in {@link Result.OutcomeUnknown} if the
   * answer is still open at the deadline.
   */
  public static Result retry(RetryPolicy policy, Supplier<Response> call) {
    return retry(policy, newKey(), call);
  }

  /**
   * Calls {@code call}, a method of a JAX-RS or Rest Client proxy that returns a {@link Response}
   * and sends one request through a client with this filter, under {@code key}, until a final
   * answer or the policy's deadline. An exception carrying a response (the {@link
   * WebApplicationException} a Rest Client's default exception mapper throws for a status of 400 or
   * more) counts as that response; a {@link ProcessingException} (no answer: connection refused or
   * broken, read timeout) is retried. Each response is read in full and closed.
   *
   * @throws IllegalArgumentException if the key is not one the shop accepts
   */
  public static Result retry(RetryPolicy policy, String key, Supplier<Response> call) {
    IntentKeys.requireValid(key);
    return new RetryLoop(policy)
        .run(Optional.empty(), key, timeout -> sendOnce(key, call), answer -> {});
  }

  /** One call, as the retry loop sees it: an answer, or an {@link IOException} for none. */
  private static Answer sendOnce(String key, Supplier<Response> call) throws IOException {
    Response got;
    String outer = BOUND_KEY.get();
    BOUND_KEY.set(key);
    try {
      got = call.get();
    } catch (WebApplicationException e) {
      got = e.getResponse();
    } catch (ProcessingException e) {
      throw noAnswer(e);
    } finally {
      restore(outer);
    }
    try (Response response = got) {
      Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
      response.getStringHeaders().forEach(headers::put);
      return new Answer(
          response.getStatus(), HttpHeaders.of(headers, (name, value) -> true), body(response));
    }
  }

  /**
   * The body, or none if it can no longer be read (an exception mapper may have consumed it). The
   * status still decides, and a 409 without its problem type is retried, never taken as final.
   */
  private static byte[] body(Response response) {
    try {
      return response.hasEntity() ? response.readEntity(byte[].class) : new byte[0];
    } catch (ProcessingException | IllegalStateException unreadable) {
      return new byte[0];
    }
  }

  /** A timeout among the causes is reported as one, as {@link ShopClient}'s tries are. */
  private static IOException noAnswer(ProcessingException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof SocketTimeoutException || cause instanceof HttpTimeoutException) {
        HttpTimeoutException timeout = new HttpTimeoutException(cause.getMessage());
        timeout.initCause(e);
        return timeout;
      }
    }
    return new IOException(e.getMessage(), e);
  }
}
