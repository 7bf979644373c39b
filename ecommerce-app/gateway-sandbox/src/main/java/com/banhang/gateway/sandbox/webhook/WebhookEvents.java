package com.banhang.gateway.sandbox.webhook;

import com.banhang.gateway.sandbox.charge.Charge;
import jakarta.json.Json;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;

/** The id and the body of the event a charge causes. */
public final class WebhookEvents {

  /** Hex characters of the digest kept in an id: 128 bits, no collision in any sandbox's life. */
  private static final int ID_HEX_CHARACTERS = 32;

  private WebhookEvents() {}

  /**
   * The event's id: {@code evt_} and a digest of the type and the charge id. Derived, not random,
   * so that every delivery, retry, duplicate and resend carries the same {@code webhook-id} and
   * even a second recording of the same event could not get another one; the type is part of it so
   * that later events of one charge (a refund, say) get ids of their own.
   */
  public static String idFor(WebhookEventType type, String chargeId) {
    byte[] digest = sha256((type.wireName() + "\n" + chargeId).getBytes(StandardCharsets.UTF_8));
    return "evt_" + HexFormat.of().formatHex(digest).substring(0, ID_HEX_CHARACTERS);
  }

  /**
   * The event's JSON body: its id, type and creation time, and the charge in {@code data} with the
   * idempotency key the shop sent (the shop's gateway key) and its order reference, so the shop can
   * match the event to its payment without a lookup.
   */
  public static String payload(String eventId, WebhookEventType type, Charge charge, Instant at) {
    return Json.createObjectBuilder()
        .add("id", eventId)
        .add("type", type.wireName())
        .add("createdAt", at.toString())
        .add(
            "data",
            Json.createObjectBuilder()
                .add("id", charge.id())
                .add("status", charge.status().wireName())
                .add("amount", charge.amount())
                .add("currency", charge.currency())
                .add("orderReference", charge.orderReference())
                .add("paymentMethod", charge.paymentMethod())
                .add("idempotencyKey", charge.idempotencyKey())
                .add("createdAt", charge.createdAt().toString()))
        .build()
        .toString();
  }

  private static byte[] sha256(byte[] bytes) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(bytes);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
