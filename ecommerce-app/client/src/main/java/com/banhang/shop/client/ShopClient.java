package com.banhang.shop.client;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A client of the shop's API that retries without ever doing one intent twice.
 *
 * <pre>{@code
 * ShopClient shop = ShopClient.builder().baseUri("https://shop.example")
 *     .basicAuth("alice", "alice-secret").intentStore(IntentStore.inFolder(folder)).build();
 * Result order =
 *     shop.orders().create(CreateOrder.of("VND", new CreateOrder.Item("SKU-1", 2, 625_000)));
 * if (order instanceof Result.Success created) {
 *   long total = created.json().getJsonNumber("total").longValue();
 *   Result paid = shop.payments().pay(created.json().getString("id"),
 *       new PaymentRequest(total, "VND", "pm_card_ok"));
 * }
 * }</pre>
 *
 * <p>Each call is one intent: one {@code Idempotency-Key}, stored with the request's bytes before
 * the first try, sent on every try until a final answer or the {@link RetryPolicy}'s deadline. An
 * intent that ended as {@link Result.OutcomeUnknown} stays in the {@link IntentStore}; {@link
 * #pending()} lists such intents (after a restart too, with a file store) and {@link
 * #resume(String)} takes one up again with the same key and bytes. Safe for concurrent use.
 */
public final class ShopClient {

  private static final System.Logger LOG = System.getLogger(ShopClient.class.getName());

  private final String baseUri;
  private final Optional<String> user;
  private final Optional<String> authorization;
  private final IntentStore store;
  private final RetryPolicy policy;
  private final HttpClient http;

  private ShopClient(Builder builder) {
    String base = Objects.requireNonNull(builder.baseUri, "baseUri is required").toString();
    this.baseUri = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    this.user = Optional.ofNullable(builder.user);
    this.authorization =
        user.map(
            name ->
                "Basic "
                    + Base64.getEncoder()
                        .encodeToString(
                            (name + ":" + builder.password).getBytes(StandardCharsets.UTF_8)));
    this.store = builder.store;
    this.policy = builder.policy;
    this.http =
        builder.http != null
            ? builder.http
            : HttpClient.newBuilder()
                // HTTP/1.1, as the shop's own load tests use it: no h2c upgrade on plain HTTP.
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(policy.perTryTimeout())
                .build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** {@code POST /api/v1/orders}. */
  public Orders orders() {
    return new Orders(this);
  }

  /** {@code POST /api/v1/orders/{orderId}/payments}. */
  public Payments payments() {
    return new Payments(this);
  }

  /**
   * The intents without a final answer yet, oldest first: those that ended as {@link
   * Result.OutcomeUnknown}, and those of a client that stopped in the middle.
   */
  public List<Intent> pending() {
    return store.pending();
  }

  /**
   * Sends a pending intent again, with its key and its bytes, until a final answer or the deadline.
   *
   * @throws IllegalArgumentException if the store has no such intent (a final answer already
   *     removed it)
   * @throws IllegalStateException if the intent was started as another user (the same key from
   *     another tenant would be a new intent to the shop), or if the shop has said its key expired
   *     (the same request would then run as a new one: find out what the first one did, for example
   *     by its merchant order id, then {@link #discard(String)} it)
   * @throws IntentStoreException if the stored intent cannot be read
   */
  public Result resume(String intentId) {
    Intent intent =
        store
            .find(intentId)
            .orElseThrow(() -> new IllegalArgumentException("no pending intent " + intentId));
    if (!intent.user().equals(user)) {
      throw new IllegalStateException(
          "intent "
              + intentId
              + " was started as "
              + intent.user().orElse("no user")
              + ", not "
              + user.orElse("no user")
              + ": under another tenant its key would be a new intent");
    }
    if (intent.keyExpiredAt(policy.clock().now())) {
      throw new IllegalStateException(
          "the shop said the key of intent "
              + intentId
              + " expires at "
              + intent.keyExpiresAt().orElseThrow()
              + ": sent now, the same request would run as a new one");
    }
    return send(intent);
  }

  /**
   * Forgets a pending intent without sending it: for an intent whose outcome the caller settled
   * another way, such as one whose key expired.
   */
  public void discard(String intentId) {
    store.remove(intentId);
  }

  /** Starts an intent: keeps it, then sends it. Nothing is sent if it cannot be kept. */
  Result start(String path, byte[] body, Optional<String> callerKey) {
    String key = callerKey.map(IntentKeys::requireValid).orElseGet(IntentKeys::newKey);
    Intent intent =
        new Intent(
            UUID.randomUUID().toString(),
            key,
            "POST",
            path,
            user,
            body,
            policy.clock().now(),
            Optional.empty());
    store.save(intent);
    return send(intent);
  }

  private Result send(Intent intent) {
    AtomicReference<Intent> current = new AtomicReference<>(intent);
    Result result =
        new RetryLoop(policy)
            .run(
                Optional.of(intent.id()),
                intent.idempotencyKey(),
                timeout -> exchange(intent, timeout),
                answer -> rememberKeyExpiry(current, answer));
    if (!(result instanceof Result.OutcomeUnknown)) {
      try {
        store.remove(intent.id());
      } catch (IntentStoreException e) {
        // The answer stands. An intent left behind is only resumed into a replay of it.
        LOG.log(Level.WARNING, "intent " + intent.id() + " has a final answer but stays stored", e);
      }
    }
    return result;
  }

  private Answer exchange(Intent intent, Duration timeout)
      throws IOException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(baseUri + intent.path()))
            .timeout(timeout)
            .header("Content-Type", "application/json")
            .header("Accept", "application/json, application/problem+json")
            .header(IntentKeys.HEADER, IntentKeys.headerValue(intent.idempotencyKey()))
            .method(intent.method(), HttpRequest.BodyPublishers.ofByteArray(intent.body()));
    authorization.ifPresent(value -> request.header("Authorization", value));
    HttpResponse<byte[]> response =
        http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    return new Answer(response.statusCode(), response.headers(), response.body());
  }

  /**
   * Keeps the earliest {@code Idempotency-Key-Expires} of the answers that were not final, so that
   * {@link #resume} can refuse to send a key the shop has forgotten. Advisory: failing to store it
   * never stops the intent.
   */
  private void rememberKeyExpiry(AtomicReference<Intent> current, Answer answer) {
    Optional<java.time.Instant> expiry =
        answer.header(Answer.KEY_EXPIRES_HEADER).flatMap(RetryAfter::httpDate);
    if (expiry.isEmpty()) {
      return;
    }
    Intent before = current.get();
    Intent after = before.withKeyExpiry(expiry.get());
    if (after != before) {
      try {
        store.save(after);
        current.set(after);
      } catch (IntentStoreException e) {
        LOG.log(Level.WARNING, "cannot record the key expiry of intent " + before.id(), e);
      }
    }
  }

  /** Configures a {@link ShopClient}; only {@link #baseUri} is required. */
  public static final class Builder {
    private URI baseUri;
    private String user;
    private String password;
    private IntentStore store = IntentStore.inMemory();
    private RetryPolicy policy = RetryPolicy.defaults();
    private HttpClient http;

    private Builder() {}

    /** The shop's address, such as {@code https://localhost:9443}; paths start at {@code /api}. */
    public Builder baseUri(URI baseUri) {
      this.baseUri = Objects.requireNonNull(baseUri, "baseUri");
      return this;
    }

    public Builder baseUri(String baseUri) {
      return baseUri(URI.create(baseUri));
    }

    /**
     * HTTP Basic credentials, sent with every try. The shop scopes keys by this user (its tenant),
     * so an intent can only be resumed by a client with the same user.
     */
    public Builder basicAuth(String user, String password) {
      this.user = Objects.requireNonNull(user, "user");
      this.password = Objects.requireNonNull(password, "password");
      return this;
    }

    /** Where intents are kept until a final answer; {@link IntentStore#inMemory()} by default. */
    public Builder intentStore(IntentStore store) {
      this.store = Objects.requireNonNull(store, "store");
      return this;
    }

    /** Backoff, deadline and timeouts; {@link RetryPolicy#defaults()} by default. */
    public Builder retryPolicy(RetryPolicy policy) {
      this.policy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * The HTTP client to send with, for TLS settings or a proxy; by default one on HTTP/1.1 whose
     * connect timeout is the per-try timeout.
     */
    public Builder httpClient(HttpClient http) {
      this.http = Objects.requireNonNull(http, "http");
      return this;
    }

    public ShopClient build() {
      return new ShopClient(this);
    }
  }
}
