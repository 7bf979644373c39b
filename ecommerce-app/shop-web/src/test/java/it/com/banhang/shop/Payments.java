package it.com.banhang.shop;

import static it.com.banhang.shop.ShopApi.createOrder;
import static it.com.banhang.shop.ShopApi.newKey;
import static it.com.banhang.shop.ShopApi.newSku;
import static it.com.banhang.shop.ShopApi.orderBody;

import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;

/** Creating orders to pay, and paying them, as a client does. */
public final class Payments {

  public static final long PRICE = 625_000;
  public static final long TOTAL = 2 * PRICE;

  private Payments() {}

  /** A new order of {@link #TOTAL} VND for {@code user}; returns its id. */
  public static String newOrder(String user) {
    Response created = createOrder(user, newKey(), orderBody(newSku(), 2, PRICE));
    if (created.statusCode() != 201) {
      throw new IllegalStateException("could not create an order: " + created.asString());
    }
    return created.path("id");
  }

  public static Response pay(String user, String orderId, String key, String paymentMethod) {
    return pay(ShopApi.as(user), orderId, key, TOTAL, paymentMethod);
  }

  public static Response pay(
      RequestSpecification as, String orderId, String key, long amount, String paymentMethod) {
    return as.contentType(ContentType.JSON)
        .header("Idempotency-Key", key)
        .body(
            "{\"amount\":"
                + amount
                + ",\"currency\":\"VND\",\"paymentMethod\":\""
                + paymentMethod
                + "\"}")
        .post("/api/v1/orders/" + orderId + "/payments");
  }

  /** Runs reconciliation now, as an operator does from the console. */
  public static Response reconcileNow() {
    return ShopApi.as("operator")
        .contentType(io.restassured.http.ContentType.JSON)
        .queryParam("minAge", "PT0S")
        .post("/api/v1/admin/reconciliations");
  }

  /** The late-charge sweep, now, over every abandoned attempt (docs/payments.md). */
  public static Response sweepLateChargesNow() {
    return ShopApi.as("operator")
        .contentType(io.restassured.http.ContentType.JSON)
        .post("/api/v1/admin/reconciliations/late-charges");
  }
}
