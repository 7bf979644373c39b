package it.com.banhang.shop;

import static it.com.banhang.shop.Payments.TOTAL;
import static it.com.banhang.shop.ShopApi.newKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The library and the shop never log a request or response body, checked from outside: request
 * bodies carry a canary, a string made for this run, through every path a body can take (created,
 * replayed, refused for reuse, taken, malformed, of the wrong type, too large, invalid, failed
 * after its write, paid, refused by the processor), and afterwards no file the shop's server wrote
 * under its logs folder (messages.log, console.log, trace, FFDC) may hold it. Bodies may carry what
 * a customer typed and card tokens; a log is read by more people, kept longer and copied further
 * than the database.
 *
 * <p>On every database: a database's own error text (a unique violation names the values it
 * refused) is one way a body's value reaches a log.
 */
class NoBodyInLogsIT {

  /** Letters and digits only, so it fits every member it is put in (a payment token too). */
  private final String canary = "CANARY" + UUID.randomUUID().toString().replace("-", "");

  private final List<String> sent = new ArrayList<>();

  @Test
  void noBodySentOrAnswered_reachesTheServersLogs() throws IOException {
    String merchantOrderId = "mo-" + canary;
    String created = orderJson("sku-" + canary, 2, merchantOrderId);
    String key = newKey();

    Response first = post("/api/v1/orders", key, created, 201);
    String orderId = first.path("id");
    assertThat(first.asString()).as("the answer echoes the body").contains(canary);
    Response replay = post("/api/v1/orders", key, created, 201);
    assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
    assertThat(replay.asString()).as("the replay echoes the body").contains(canary);
    assertProblem(
        post("/api/v1/orders", key, orderJson("other-" + canary, 2, merchantOrderId), 422),
        "idempotency-key-reused");
    assertProblem(
        post("/api/v1/orders", newKey(), orderJson("taken-" + canary, 1, merchantOrderId), 409),
        "merchant-order-id-taken");
    assertProblem(
        post(
            "/api/v1/orders",
            newKey(),
            "{\"currency\":\"VND\",\"items\":[{\"sku\":\"broken-" + canary + "\",\"quantity\":1,",
            400),
        "malformed-request-body");
    assertProblem(
        post(
            "/api/v1/orders",
            newKey(),
            "{\"currency\":\"VND\",\"items\":[{\"sku\":\"typed\",\"quantity\":\""
                + canary
                + "\",\"unitPrice\":1}]}",
            400),
        "malformed-request-body");
    assertProblem(
        post(
            "/api/v1/orders",
            newKey(),
            orderJson(("large-" + canary + "-").repeat(70_000 / canary.length()), 1, null),
            413),
        "request-body-too-large");
    assertProblem(
        post("/api/v1/orders", newKey(), orderJson("invalid-" + canary, 0, null), 400),
        "invalid-request-body");
    // The it-faults WAR fails this SKU after the order's rows were written: a 500, logged.
    assertProblem(
        post("/api/v1/orders", newKey(), orderJson("FAULT-AFTER-WRITE", 1, "fail-" + canary), 500),
        "internal-error");

    String payments = "/api/v1/orders/" + orderId + "/payments";
    String payment = paymentJson("pm_card_" + canary);
    String paymentKey = newKey();
    Response paid = post(payments, paymentKey, payment, 201);
    assertThat((String) paid.path("status")).isEqualTo("CAPTURED");
    assertThat(post(payments, paymentKey, payment, 201).header("Idempotent-Replayed"))
        .isEqualTo("true");
    assertProblem(
        post(payments, paymentKey, paymentJson("pm_card_other_" + canary), 422),
        "idempotency-key-reused");
    String unpaid = "/api/v1/orders/" + Payments.newOrder("alice") + "/payments";
    // A token the processor does not know: it refuses it, and the shop answers 422.
    assertProblem(
        post(unpaid, newKey(), paymentJson("pm_" + canary), 422), "payment-method-rejected");
    assertProblem(
        post(unpaid, newKey(), paymentJson("card " + canary), 400), "invalid-request-body");

    assertThat(sent).as("every body sent carries the canary").allMatch(b -> b.contains(canary));

    List<Path> files = logFiles();
    assertThat(files)
        .as("the server's log files")
        .contains(ShopServer.logs().resolve("messages.log"));
    // Where this test reads is where the server writes: the 500 above was logged there.
    assertThat(anyContains(files, "injected failure after writing order"))
        .as("the logs of this run's injected failure are among the files read")
        .isTrue();
    assertThat(linesWith(files, canary)).as("log lines with a body's canary").isEmpty();
  }

  private Response post(String path, String key, String body, int expectedStatus) {
    sent.add(body);
    Response response =
        ShopApi.as("alice")
            .contentType(ContentType.JSON)
            .header("Idempotency-Key", key)
            .body(body.getBytes(StandardCharsets.UTF_8))
            .post(path);
    assertThat(response.statusCode())
        .as("POST %s: %s", path, response.asString())
        .isEqualTo(expectedStatus);
    return response;
  }

  private static void assertProblem(Response response, String slug) {
    assertThat((String) response.path("type")).endsWith("#" + slug);
  }

  private static String orderJson(String sku, int quantity, String merchantOrderId) {
    return "{\"currency\":\"VND\","
        + (merchantOrderId == null ? "" : "\"merchantOrderId\":\"" + merchantOrderId + "\",")
        + "\"items\":[{\"sku\":\""
        + sku
        + "\",\"quantity\":"
        + quantity
        + ",\"unitPrice\":"
        + Payments.PRICE
        + "}]}";
  }

  private static String paymentJson(String paymentMethod) {
    return "{\"amount\":"
        + TOTAL
        + ",\"currency\":\"VND\",\"paymentMethod\":\""
        + paymentMethod
        + "\"}";
  }

  /** Every file under the server's logs folder, whatever its name or depth. */
  private static List<Path> logFiles() throws IOException {
    try (Stream<Path> files = Files.walk(ShopServer.logs())) {
      return files.filter(Files::isRegularFile).toList();
    }
  }

  private static boolean anyContains(List<Path> files, String text) throws IOException {
    for (Path file : files) {
      if (new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).contains(text)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The lines holding {@code text}, named by file and line number. Read as ISO-8859-1, which maps
   * every byte to one character: a file in any encoding, or binary, is searched whole.
   */
  private static List<String> linesWith(List<Path> files, String text) throws IOException {
    List<String> found = new ArrayList<>();
    for (Path file : files) {
      String[] lines =
          new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1).split("\n", -1);
      for (int i = 0; i < lines.length; i++) {
        if (lines[i].contains(text)) {
          String line = lines[i].strip();
          found.add(
              ShopServer.logs().relativize(file)
                  + ":"
                  + (i + 1)
                  + ": "
                  + (line.length() > 300 ? line.substring(0, 300) + "..." : line));
        }
      }
    }
    return found;
  }
}
