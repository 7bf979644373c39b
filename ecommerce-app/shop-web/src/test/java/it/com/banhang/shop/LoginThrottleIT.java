package it.com.banhang.shop;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Password guessing against the API (docs/configuration.md, "Failed logins"): after {@code
 * shop.login.max-failures-per-user} (10, the default) wrong passwords, the user's logins are
 * refused with 429 and Retry-After, the right password too, while other users log in as before;
 * each failure and refusal is counted at /metrics and the failures are audited.
 *
 * <p>The throttled user, {@code dave}, belongs to this test alone (profiles/development.xml): every
 * other test logs in with the right password, and the development profile's per-address limit is
 * high enough that this test's failures, all from 127.0.0.1 like every test's, never block them.
 */
@SameOnEveryDatabase
class LoginThrottleIT {

  private static final int MAX_FAILURES_PER_USER = 10;
  private static final String FAILURES = "shop_login_failures_total";
  private static final String THROTTLED = "shop_login_throttled_total";

  private static Response order(String user, String password) {
    return given()
        .baseUri(ShopApi.URL)
        .auth()
        .preemptive()
        .basic(user, password)
        .get("/api/v1/orders/" + UUID.randomUUID());
  }

  @Test
  void wrongPasswords_thenEveryLoginOfThatUserIs429_untilRetryAfter_otherUsersUnaffected() {
    MetricsIT.Metrics before = MetricsIT.Metrics.read();
    long auditedBefore =
        ShopDatabase.count(
            "SELECT COUNT(*) FROM operator_audit WHERE operator_name = ? AND action = ?",
            "dave",
            "login-failed");
    assertThat(order("dave", "dave-secret").statusCode()).as("dave's own password").isEqualTo(404);

    for (int i = 1; i <= MAX_FAILURES_PER_USER; i++) {
      Response wrong = order("dave", "guess-" + i);
      assertThat(wrong.statusCode()).as("guess %d", i).isEqualTo(401);
      assertThat(wrong.header("WWW-Authenticate")).startsWith("Basic");
      assertThat(wrong.contentType()).startsWith("application/problem+json");
    }

    Response guess = order("dave", "guess-" + (MAX_FAILURES_PER_USER + 1));
    assertThat(guess.statusCode()).isEqualTo(429);
    assertThat(guess.contentType()).startsWith("application/problem+json");
    assertThat(guess.jsonPath().getString("type")).endsWith("#too-many-failed-logins");
    assertThat(guess.header("WWW-Authenticate")).isNull();
    long retryAfter = Long.parseLong(guess.header("Retry-After"));
    // The default window (5 minutes) gives a token back every 30 s.
    assertThat(retryAfter).isBetween(1L, 300L);

    Response right = order("dave", "dave-secret");
    assertThat(right.statusCode()).as("the right password while blocked").isEqualTo(429);
    assertThat(right.header("Retry-After")).isNotNull();

    assertThat(order("alice", "alice-secret").statusCode())
        .as("another user from the same address")
        .isEqualTo(404);

    MetricsIT.Metrics after = MetricsIT.Metrics.read();
    assertThat(after.value(FAILURES, "channel", "api") - before.value(FAILURES, "channel", "api"))
        .isGreaterThanOrEqualTo(MAX_FAILURES_PER_USER);
    assertThat(after.value(THROTTLED, "channel", "api") - before.value(THROTTLED, "channel", "api"))
        .isGreaterThanOrEqualTo(2);
    assertThat(
            ShopDatabase.count(
                    "SELECT COUNT(*) FROM operator_audit WHERE operator_name = ? AND action = ?",
                    "dave",
                    "login-failed")
                - auditedBefore)
        .isEqualTo(MAX_FAILURES_PER_USER);
    assertThat(
            ShopDatabase.count(
                "SELECT COUNT(*) FROM operator_audit WHERE operator_name = ? AND action = ?",
                "dave",
                "login-throttled"))
        .isEqualTo(1);
  }
}
