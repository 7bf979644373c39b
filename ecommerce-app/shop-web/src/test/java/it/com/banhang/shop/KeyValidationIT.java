package it.com.banhang.shop;

import static it.com.banhang.shop.ShopApi.createOrder;
import static it.com.banhang.shop.ShopApi.newSku;
import static it.com.banhang.shop.ShopApi.orderBody;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Idempotency-Key header itself (docs/idempotency.md): nothing is stored for a bad one. */
@SameOnEveryDatabase
class KeyValidationIT {

  @Test
  void missingKey_is400ProblemAndNothingIsCreated() {
    String sku = newSku();
    Response response = createOrder("alice", null, orderBody(sku, 1, 1));

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.contentType()).startsWith("application/problem+json");
    assertThat((String) response.path("type")).endsWith("#idempotency-key-missing");
    assertThat(ShopDatabase.ordersWithSku(sku)).isZero();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "has space", "\"unterminated", "\"\"", "\"a\"b", "\"bad\\escape\""})
  void malformedKey_is400Problem(String key) {
    String sku = newSku();
    Response response = createOrder("alice", key, orderBody(sku, 1, 1));

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat((String) response.path("type")).endsWith("#idempotency-key-invalid");
    assertThat(ShopDatabase.ordersWithSku(sku)).isZero();
  }

  @Test
  void keyOf256Characters_is400_keyOf255_isAccepted() {
    Response tooLong = createOrder("alice", "k".repeat(256), orderBody(newSku(), 1, 1));
    Response longest =
        createOrder("alice", "k".repeat(219) + ShopApi.newKey(), orderBody(newSku(), 1, 1));

    assertThat(tooLong.statusCode()).isEqualTo(400);
    assertThat((String) tooLong.path("type")).endsWith("#idempotency-key-invalid");
    assertThat(longest.statusCode()).isEqualTo(201);
  }

  @ParameterizedTest
  @ValueSource(strings = {"abc\u0001def", "tab\tinside", "ключ", "caf\u00e9"})
  void keyWithControlOrNonAsciiCharacters_is400(String key) throws Exception {
    // HTTP client libraries refuse to send these (or mangle them), so write the request by hand.
    String sku = newSku();
    String response = rawPost(key, orderBody(sku, 1, 1));

    assertThat(response).startsWith("HTTP/1.1 400");
    assertThat(response).contains("idempotency-key-invalid");
    assertThat(ShopDatabase.ordersWithSku(sku)).isZero();
  }

  @Test
  void keysAreCaseSensitive() {
    String key = "Case-" + ShopApi.newKey();
    Response upper = createOrder("alice", key.toUpperCase(), orderBody(newSku(), 1, 1));
    Response lower = createOrder("alice", key.toLowerCase(), orderBody(newSku(), 1, 1));

    assertThat(upper.statusCode()).isEqualTo(201);
    assertThat(lower.statusCode()).isEqualTo(201);
    assertThat((String) lower.path("id")).isNotEqualTo(upper.path("id"));
  }

  private static String rawPost(String key, String body) throws Exception {
    URI uri = URI.create(ShopApi.URL);
    byte[] payload = body.getBytes(StandardCharsets.UTF_8);
    String credentials =
        Base64.getEncoder().encodeToString("alice:alice-secret".getBytes(StandardCharsets.UTF_8));
    String head =
        "POST /api/v1/orders HTTP/1.1\r\n"
            + "Host: "
            + uri.getHost()
            + "\r\n"
            + "Authorization: Basic "
            + credentials
            + "\r\n"
            + "Idempotency-Key: "
            + key
            + "\r\n"
            + "Content-Type: application/json\r\n"
            + "Content-Length: "
            + payload.length
            + "\r\n"
            + "Connection: close\r\n\r\n";
    try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
      socket.setSoTimeout(30_000);
      OutputStream out = socket.getOutputStream();
      out.write(head.getBytes(StandardCharsets.UTF_8));
      out.write(payload);
      out.flush();
      InputStream in = socket.getInputStream();
      ByteArrayOutputStream response = new ByteArrayOutputStream();
      in.transferTo(response);
      return response.toString(StandardCharsets.UTF_8);
    }
  }
}
