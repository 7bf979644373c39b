package com.banhang.idempotency;

import static org.assertj.core.api.Assertions.assertThat;

import jakarta.ws.rs.core.Response;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The fixed header denylist and the control-character check, on capture and on replay. */
class StoredResponseHeadersTest {

  private static final List<String> EVERYTHING_ALLOWED =
      List.of(
          "Location",
          "Content-Type",
          "Set-Cookie",
          "set-cookie2",
          "Authorization",
          "Proxy-Authorization",
          "WWW-Authenticate",
          "Proxy-Authenticate",
          "Cookie",
          "X-Auth-Token",
          "X-CSRF-TOKEN",
          "X-Client-Secret",
          "X-Trace",
          "Bad Name");

  private static Response response() {
    return Response.status(201)
        .header("Location", "/api/v1/orders/1")
        .header("Set-Cookie", "JSESSIONID=abc; HttpOnly")
        .header("Set-Cookie2", "old=1")
        .header("Authorization", "Bearer eyJhbGciOi")
        .header("Proxy-Authorization", "Basic Zm9vOmJhcg==")
        .header("WWW-Authenticate", "Basic realm=shop")
        .header("Proxy-Authenticate", "Basic")
        .header("Cookie", "a=b")
        .header("X-Auth-Token", "t0k3n")
        .header("X-Csrf-Token", "csrf")
        .header("X-Client-Secret", "s3cr3t")
        .header("X-Trace", "ok")
        .entity("{}")
        .type("application/json")
        .build();
  }

  @Test
  void capture_keepsAllowlistedHeaders_neverTheDenylistWhateverTheAllowlistSays() {
    StoredResponse stored = StoredResponse.capture(response(), EVERYTHING_ALLOWED);

    assertThat(stored.headers().keySet())
        .containsExactlyInAnyOrder("Location", "Content-Type", "X-Trace");
    assertThat(stored.headersAsText())
        .doesNotContainIgnoringCase("cookie")
        .doesNotContainIgnoringCase("authoriz")
        .doesNotContainIgnoringCase("authentic")
        .doesNotContainIgnoringCase("token")
        .doesNotContainIgnoringCase("secret");
  }

  @Test
  void capture_refusesValuesWithControlCharacters() {
    for (String bad :
        List.of("/a\r\nSet-Cookie: x=1", "/a\nX: y", "/a\rb", "/a\u0000", "/a\u007f")) {
      Response response =
          Response.status(201).header("Location", bad).header("X-Trace", "ok").build();

      StoredResponse stored = StoredResponse.capture(response, List.of("Location", "X-Trace"));

      assertThat(stored.headers()).as(bad).containsOnlyKeys("X-Trace");
    }
    Response tab = Response.status(201).header("X-Trace", "a\tb").build();
    assertThat(StoredResponse.capture(tab, List.of("X-Trace")).headers()).containsKey("X-Trace");
  }

  @Test
  void replay_dropsDeniedHeadersAndControlCharacters_storedByAnOlderVersion() {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Location", "/api/v1/orders/1");
    headers.put("Set-Cookie", "JSESSIONID=abc");
    headers.put("Authorization", "Bearer x");
    headers.put("X-Refresh-Token", "r");
    headers.put("X-Evil", "a\rSet-Cookie: y=2");
    StoredResponse stored = new StoredResponse(201, headers, "{}".getBytes());

    Response replay = stored.toResponse();

    assertThat(replay.getHeaders().keySet()).containsExactly("Location");
  }

  @Test
  void denylist_isCaseInsensitive() {
    for (String name :
        List.of("SET-COOKIE", "authorization", "Www-Authenticate", "x-AccessToken", "SECRET")) {
      assertThat(StoredResponse.isNeverStored(name)).as(name).isTrue();
    }
    assertThat(StoredResponse.isNeverStored("Location")).isFalse();
  }
}
